/* memory_check() and the readers of what a host and a memory cgroup can
 * give (memory.h). Reads /proc and the cgroup file systems (v1 memory
 * controller or v2) only; allocates nothing big; never fails a run for not
 * knowing: where a figure cannot be read, that check is left out. */
#include "engine/memory.h"

#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "pattern/pattern.h"

#define MEMORY_PATH 256
#define MEMORY_DIR  4096
/* A v1 limit at or above this is "no limit" (the kernel writes 2^63 minus a
 * page). */
#define MEMORY_UNLIMITED (INT64_C(1) << 62)

int64_t memory_host_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kib;
    int64_t bytes = -1;
    while (f && bytes < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            bytes = (int64_t)kib * 1024;
    if (f)
        fclose(f);
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (bytes < 0 && pages > 0 && page > 0)
        bytes = (int64_t)pages * page;
    return bytes;
}

/* The first number in file dir/name after key (or the file's first word if
 * key is NULL); -1 if absent or "max". */
static int64_t memory_read(const char *dir, const char *name, const char *key)
{
    char path[MEMORY_DIR + 64], line[256];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = n > 0 && (size_t)n < sizeof path ? fopen(path, "r") : NULL;
    long long v = -1;
    size_t klen = key ? strlen(key) : 0;
    while (f && v < 0 && fgets(line, sizeof line, f)) {
        if (!key) {
            if (sscanf(line, "%lld", &v) != 1)
                v = -1;
            break;
        }
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ')
            v = atoll(line + klen + 1);
    }
    if (f)
        fclose(f);
    return v;
}

/* Does the comma-separated list hold word? */
static bool memory_has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0' || p[n] == '\n'))
            return true;
    return false;
}

/* The mount point and root of the v1 memory hierarchy (v1 true) or of the
 * v2 hierarchy, from /proc/self/mountinfo. */
static bool memory_mount(bool v1, char *point, char *root)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    char line[4096];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f)) {
        char r[MEMORY_PATH], m[MEMORY_PATH], type[32], opts[512] = "";
        const char *sep = strstr(line, " - ");
        if (!sep || sscanf(line, "%*s %*s %*s %255s %255s", r, m) != 2 ||
            sscanf(sep + 3, "%31s %*s %511s", type, opts) < 1)
            continue;
        found = v1 ? strcmp(type, "cgroup") == 0 && memory_has_word(opts, "memory")
                   : strcmp(type, "cgroup2") == 0;
        if (found) {
            snprintf(point, MEMORY_PATH, "%s", m);
            snprintf(root, MEMORY_PATH, "%s", r);
        }
    }
    if (f)
        fclose(f);
    return found;
}

/* This process's cgroup path in the v1 memory hierarchy or the v2 one. */
static bool memory_own_cgroup(bool v1, char *path)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[4096];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f)) {
        char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
        if (!b)
            continue;
        *b = '\0';
        b[strcspn(b + 1, "\n") + 1] = '\0';
        found = v1 ? memory_has_word(a + 1, "memory") : strncmp(line, "0", 1) == 0 && !a[1];
        if (found)
            snprintf(path, MEMORY_PATH, "%s", b + 1);
    }
    if (f)
        fclose(f);
    return found;
}

/* What the cgroup directory dir allows more: limit - usage + inactive file
 * pages (reclaimable); -1 without a limit. */
static int64_t memory_level(const char *dir, bool v1)
{
    int64_t limit = memory_read(dir, v1 ? "memory.limit_in_bytes" : "memory.max", NULL);
    if (limit < 0 || limit >= MEMORY_UNLIMITED)
        return -1;
    int64_t used = memory_read(dir, v1 ? "memory.usage_in_bytes" : "memory.current", NULL);
    int64_t cache = memory_read(dir, "memory.stat", v1 ? "total_inactive_file" : "inactive_file");
    int64_t free = limit - (used > 0 ? used : 0) + (cache > 0 ? cache : 0);
    return free < 0 ? 0 : free > limit ? limit : free;
}

int64_t memory_cgroup_available(char *path, size_t len)
{
    char point[MEMORY_PATH], root[MEMORY_PATH], own[MEMORY_PATH], dir[MEMORY_DIR];
    bool v1 = true;
    snprintf(path, len, "%s", "");
    if (!memory_mount(v1, point, root) || !memory_own_cgroup(v1, own)) {
        v1 = false;
        if (!memory_mount(v1, point, root) || !memory_own_cgroup(v1, own))
            return -1;
    }
    /* Inside a container the hierarchy's root may be mounted at its point. */
    size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
    const char *rel = strncmp(own, root, rl) == 0 ? own + rl : own;
    snprintf(path, len, "%s", own);
    snprintf(dir, sizeof dir, "%s%s", point, rel);
    int64_t best = -1;
    size_t top = strlen(point);
    for (;;) {
        int64_t free = memory_level(dir, v1);
        if (free >= 0 && (best < 0 || free < best))
            best = free;
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < top)
            break;
        *slash = '\0';
    }
    return best;
}

/* What one process tells the first process of its host. */
struct memory_report {
    int64_t need;     /* its largest transfer buffer, 0 if it never runs */
    int64_t cg_avail; /* memory_cgroup_available(), -1 without a limit */
    char cgroup[MEMORY_PATH];
};

/* Local: the message lead naming the option behind the buffer size. */
static void memory_lead(const struct config *c, char *lead, size_t len)
{
    if (c->spelled[OPT_MAX_XFER])
        snprintf(lead, len, "%s '%s'", c->spelled[OPT_MAX_XFER], c->raw[OPT_MAX_XFER]);
    else if (c->spelled[OPT_BYTES])
        snprintf(lead, len, "%s '%s' (the default -X)", c->spelled[OPT_BYTES], c->raw[OPT_BYTES]);
    else
        snprintf(lead, len, "-X");
}

/* First process of a host: checks the sum of the buffers against the host
 * and against each memory cgroup of its processes. */
static bool memory_host(const struct config *c, const struct memory_report *r, int n, int64_t buf,
                        struct cli_msg *m)
{
    char host[MPI_MAX_PROCESSOR_NAME], lead[128], each[32], need[32], have[32];
    int hl = 0;
    MPI_Get_processor_name(host, &hl);
    memory_lead(c, lead, sizeof lead);
    cli_bytes(each, sizeof each, buf);
    int64_t sum = 0;
    int procs = 0;
    for (int i = 0; i < n; i++)
        if (r[i].need > 0) {
            sum += r[i].need;
            procs++;
        }
    int64_t avail = memory_host_available();
    if (avail >= 0 && sum > avail) {
        cli_bytes(need, sizeof need, sum);
        cli_bytes(have, sizeof have, avail);
        cli_fail(m,
                 "h5perf: %s: the largest transfer buffer is %s per process; the %d "
                 "process%s on host '%s' need %s, and it has %s available; use smaller "
                 "transfer sizes or fewer processes per host, or give --no-memory-check",
                 lead, each, procs, procs == 1 ? "" : "es", host, need, have);
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (r[i].cg_avail < 0)
            continue;
        int64_t in = 0;
        int members = 0;
        for (int j = 0; j < n; j++)
            if (r[j].need > 0 && strcmp(r[j].cgroup, r[i].cgroup) == 0) {
                in += r[j].need;
                members++;
            }
        if (in <= r[i].cg_avail)
            continue;
        cli_bytes(need, sizeof need, in);
        cli_bytes(have, sizeof have, r[i].cg_avail);
        cli_fail(m,
                 "h5perf: %s: the largest transfer buffer is %s per process; the %d "
                 "process%s in memory cgroup '%s' on host '%s' need %s, and it allows %s "
                 "more; use smaller transfer sizes or fewer processes per host, or give "
                 "--no-memory-check",
                 lead, each, members, members == 1 ? "" : "es", r[i].cgroup, host, need, have);
        return false;
    }
    return true;
}

bool memory_check(const struct setup *s, struct cli_msg *m)
{
    const struct config *c = &s->cfg;
    if (c->no_memory_check)
        return true;
    /* The buffer depends on the transfer size alone (and -B in 2D). */
    struct pattern pt;
    struct pattern_params pp = sweep_pattern_params(c, sweep_procs_first(c), c->xfer_max);
    int64_t buf = pattern_init(&pt, &pp, 0, 0, NULL) == 0 ? pt.xfer_bytes : 0;
    struct memory_report mine = {0};
    mine.need = s->world_rank < sweep_procs_first(c) ? buf : 0;
    mine.cg_avail = memory_cgroup_available(mine.cgroup, sizeof mine.cgroup);
    MPI_Comm node;
    int rank = 0, size = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, s->world_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    struct memory_report *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, node);
    bool ok = rank != 0 || !all || memory_host(c, all, size, buf, m);
    free(all);
    MPI_Comm_free(&node);
    return ok;
}
