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

#define MEMORY_DIR 4096
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

int memory_cgroup_limits(char *own_path, struct memory_limit *out, int max)
{
    char point[MEMORY_PATH], root[MEMORY_PATH], own[MEMORY_PATH], dir[MEMORY_DIR];
    bool v1 = true;
    own_path[0] = '\0';
    if (!memory_mount(v1, point, root) || !memory_own_cgroup(v1, own)) {
        v1 = false;
        if (!memory_mount(v1, point, root) || !memory_own_cgroup(v1, own))
            return 0;
    }
    snprintf(own_path, MEMORY_PATH, "%s", own);
    /* Inside a container the hierarchy's root may be mounted at its point. */
    size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
    const char *rel = strncmp(own, root, rl) == 0 ? own + rl : own;
    int n = snprintf(dir, sizeof dir, "%s%s", point, rel);
    if (n < 0 || (size_t)n >= sizeof dir)
        return 0;
    /* From this process's cgroup up to the hierarchy's root: dir and the
     * cgroup's own name (own) lose their last component together. */
    int count = 0;
    size_t top = strlen(point);
    for (;;) {
        int64_t free = memory_level(dir, v1);
        if (free >= 0 && count < max) {
            snprintf(out[count].path, sizeof out[count].path, "%s", own[0] ? own : "/");
            out[count++].avail = free;
        }
        char *slash = strrchr(dir, '/'), *own_slash = strrchr(own, '/');
        if (!slash || (size_t)(slash - dir) < top)
            break;
        *slash = '\0';
        if (own_slash)
            *own_slash = '\0';
    }
    return count;
}

/* What one process tells the first process of its host. */
struct memory_report {
    int world_rank; /* runs of P processes use the world ranks below P */
    /* Its largest buffer at each process count of the session
     * (session_count.own_buffer). */
    int64_t buffers[CONFIG_MAX_SWEEP];
    char cgroup[MEMORY_PATH];
    int nlimits;
    struct memory_limit limits[MEMORY_LEVELS];
};

/* Is the cgroup path inside (or equal to) the cgroup at ancestor? */
static bool memory_inside(const char *path, const char *ancestor)
{
    size_t n = strlen(ancestor);
    if (strcmp(ancestor, "/") == 0)
        return true;
    return strncmp(path, ancestor, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The buffers of the processes of count k (of session s) on this host,
 * each as its process reported it (memory_report.buffers), each with view
 * more (a call's file view and the plan's structures), of all (inside
 * NULL) or of those whose cgroup is inside that one; their number in
 * *procs. */
static int64_t memory_sum(const struct memory_report *r, int n, const char *inside,
                          const struct session *s, const struct session_count *k, int64_t view,
                          int *procs)
{
    int64_t sum = 0;
    int at = (int)(k - s->counts);
    *procs = 0;
    for (int i = 0; i < n; i++)
        if (r[i].world_rank < k->nprocs && (!inside || memory_inside(r[i].cgroup, inside))) {
            int64_t b = r[i].buffers[at];
            b = b > INT64_MAX - view ? INT64_MAX : b + view;
            sum = sum > INT64_MAX - b ? INT64_MAX : sum + b;
            (*procs)++;
        }
    return sum;
}

/* The most memory the MPI-IO layer holds for one call's file view at any
 * point of count k (api.h: API_VIEW_RUN_BYTES per contiguous run), the
 * same on every process of the count. */
static int64_t memory_view(const struct session *s, const struct session_count *k)
{
    int64_t most = 0;
    for (int i = k->first; i < k->first + k->n; i++) {
        const struct session_point *sp = &s->points[i];
        int64_t v = api_view_bytes(sp->p.api, s->cfg->collective, sp->m.call_runs);
        most = v > most ? v : most;
    }
    return most;
}

/* What a library holds per piece of one call's selection besides the
 * MPI-IO view's API_VIEW_RUN_BYTES per run (api.h), measured with 2^17
 * and 2^18 single-element runs per process of a map, 2 processes, Open
 * MPI 4.1.4, HDF5 1.10.8, PnetCDF 1.12.3, rounded up (docs/map.md,
 * "Memory"): MPI-IO's struct of a datatype per box (1,656 bytes),
 * PnetCDF's varn (189), HDF5's union of hyperslabs (62). */
static const int64_t memory_piece_bytes[API_COUNT] = {
    [API_MPIIO] = 1700,
    [API_PHDF5] = 64,
    [API_PNETCDF] = 200,
};

/* The most one process's plan and its libraries hold besides its buffer
 * and the view at any point of count k: the plan's own structures
 * (pattern_measure.plan_bytes) and each piece of a call's selection. */
static int64_t memory_plan(const struct session *s, const struct session_count *k)
{
    int64_t most = 0;
    for (int i = k->first; i < k->first + k->n; i++) {
        const struct session_point *sp = &s->points[i];
        if (sp->m.plan_bytes == 0)
            continue;
        int64_t per = memory_piece_bytes[sp->p.api], runs = sp->m.call_runs;
        int64_t lib = runs > INT64_MAX / (per > 0 ? per : 1) ? INT64_MAX : runs * per;
        int64_t v = sp->m.plan_bytes > INT64_MAX - lib ? INT64_MAX : sp->m.plan_bytes + lib;
        most = v > most ? v : most;
    }
    return most;
}

/* The refusal: where ("on host 'n1'", "in memory cgroup '/job' on host
 * 'n1'") and what there is (a host has it available, a cgroup allows it
 * more). */
static bool memory_refuse(const struct session *s, int nprocs, int64_t buf, int64_t view,
                          int64_t plan, int procs, const char *where, int64_t sum, bool cgroup,
                          int64_t avail, struct cli_msg *m)
{
    const struct pattern_desc *pd = s->pattern;
    char lead[256], each[256], need[32], have[32], what[64];
    pd->memory_lead(s->cfg, nprocs, lead, sizeof lead);
    cli_bytes(each, sizeof each, buf);
    if (view > 0) {
        char v[32];
        cli_bytes(v, sizeof v, view);
        size_t used = strlen(each);
        snprintf(each + used, sizeof each - used,
                 " and its calls' MPI-IO file views up to %s (%d bytes per contiguous run)", v,
                 API_VIEW_RUN_BYTES);
    }
    if (plan > 0) {
        char v[32];
        cli_bytes(v, sizeof v, plan);
        size_t used = strlen(each);
        snprintf(each + used, sizeof each - used, " and its plan's structures up to %s", v);
    }
    cli_bytes(need, sizeof need, sum);
    cli_bytes(have, sizeof have, avail);
    if (cgroup)
        snprintf(what, sizeof what, "it allows %s more", have);
    else
        snprintf(what, sizeof what, "it has %s available", have);
    cli_fail(m,
             "h5perf: %s: the largest %s is %s per process; the %d process%s %s need%s %s, and "
             "%s; use %s, or give --no-memory-check",
             lead, pd->buffer_name, each, procs, procs == 1 ? "" : "es", where,
             procs == 1 ? "s" : "", need, what, pd->buffer_remedy);
    return false;
}

/* First process of a host, at one process count: the sum of the buffers
 * against the host, and against every limited cgroup a process of the
 * host is in or below (a batch job's limit is on the job's cgroup, above
 * each task's), with what it allows taken as the least any process read. */
static bool memory_host_at(const struct session *s, const struct memory_report *r, int n,
                           const struct session_count *k, struct cli_msg *m)
{
    char host[MPI_MAX_PROCESSOR_NAME], where[MPI_MAX_PROCESSOR_NAME + MEMORY_PATH + 64];
    int hl = 0, procs = 0;
    MPI_Get_processor_name(host, &hl);
    int64_t buf = k->max_buffer, view = memory_view(s, k), plan = memory_plan(s, k);
    int64_t extra = view > INT64_MAX - plan ? INT64_MAX : view + plan;
    int64_t sum = memory_sum(r, n, NULL, s, k, extra, &procs), avail = memory_host_available();
    snprintf(where, sizeof where, "on host '%s'", host);
    if (avail >= 0 && sum > avail)
        return memory_refuse(s, k->nprocs, buf, view, plan, procs, where, sum, false, avail, m);
    for (int i = 0; i < n; i++)
        for (int l = 0; l < r[i].nlimits; l++) {
            const char *cg = r[i].limits[l].path;
            int64_t allows = r[i].limits[l].avail;
            for (int j = 0; j < n; j++)
                for (int q = 0; q < r[j].nlimits; q++)
                    if (strcmp(r[j].limits[q].path, cg) == 0 && r[j].limits[q].avail < allows)
                        allows = r[j].limits[q].avail;
            sum = memory_sum(r, n, cg, s, k, extra, &procs);
            snprintf(where, sizeof where, "in memory cgroup '%s' on host '%s'", cg, host);
            if (sum > allows)
                return memory_refuse(s, k->nprocs, buf, view, plan, procs, where, sum, true, allows,
                                     m);
        }
    return true;
}

int64_t memory_for_reading(char *where, size_t len)
{
    char host[MPI_MAX_PROCESSOR_NAME], own[MEMORY_PATH], have[32];
    struct memory_limit lim[MEMORY_LEVELS];
    int hl = 0;
    MPI_Get_processor_name(host, &hl);
    int64_t least = memory_host_available();
    where[0] = '\0';
    if (least >= 0) {
        cli_bytes(have, sizeof have, least);
        snprintf(where, len, "host '%s' has %s available", host, have);
    }
    int n = memory_cgroup_limits(own, lim, MEMORY_LEVELS);
    for (int i = 0; i < n; i++)
        if (least < 0 || lim[i].avail < least) {
            least = lim[i].avail;
            cli_bytes(have, sizeof have, least);
            snprintf(where, len, "memory cgroup '%s' on host '%s' allows %s more", lim[i].path,
                     host, have);
        }
    return least;
}

bool memory_check(const struct run *run, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    if (c->no_memory_check)
        return true;
    struct memory_report mine = {0};
    mine.world_rank = run->world_rank;
    for (int k = 0; k < run->session.ncounts; k++)
        mine.buffers[k] = run->session.counts[k].own_buffer;
    mine.nlimits = memory_cgroup_limits(mine.cgroup, mine.limits, MEMORY_LEVELS);
    MPI_Comm node;
    int rank = 0, size = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, run->world_rank, MPI_INFO_NULL,
                        &node);
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    struct memory_report *all = rank == 0 ? calloc((size_t)size, sizeof *all) : NULL;
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, node);
    bool ok = true;
    for (int k = 0; k < run->session.ncounts && ok && all; k++)
        ok = memory_host_at(&run->session, all, size, &run->session.counts[k], m);
    free(all);
    MPI_Comm_free(&node);
    return ok;
}
