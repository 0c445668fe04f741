/* context_init(): the run context of report/run_context.h. The file-system type
 * is the name the kernel gives the mount holding the directory (Linux
 * /proc/self/mountinfo, else /proc/1/mountinfo for a chroot), else a name
 * for its statfs magic, else "unknown"; its layout, what statfs, stat and
 * Lustre's lustre.lov attribute of the directory say (report/fslayout.h). */
/* realpath() is an X/Open interface. */
#define _XOPEN_SOURCE 700
#include "engine/context.h"

#include <hdf5.h>
#include <inttypes.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#endif

#include "backend/backend.h"
#include "cli/option.h"
#include "engine/memory.h"
#include "engine/sink.h"
#include "h5perf_commit.h"
#include "pattern/pattern.h"
#include "report/text.h"
#include "options/options.h"

static void context_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/* Names of common statfs magics, for systems without mountinfo. */
static const char *context_magic_name(unsigned long magic)
{
    static const struct {
        unsigned long magic;
        const char *name;
    } names[] = {{0xef53, "ext2/3/4"},  {0x01021994, "tmpfs"},   {0x58465342, "xfs"},
                 {0x9123683e, "btrfs"}, {0x6969, "nfs"},         {0x0bd00bd0, "lustre"},
                 {0x47504653, "gpfs"},  {0x794c7630, "overlay"}, {0x2fc12fc1, "zfs"},
                 {0x65735546, "fuse"},  {0x5346544e, "ntfs"},    {0x73717368, "squashfs"},
                 {0x00c36400, "ceph"},  {0xff534d42, "cifs"},    {0x19830326, "beegfs"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].magic == magic)
            return names[i].name;
    return "unknown";
}

#ifdef __linux__
/* The type field of the last line of the mount table (mountinfo format)
 * at table whose device is dev. Returns 0, or -1 if none. */
static int context_mount_type(const char *table, dev_t dev, char *out, size_t len)
{
    FILE *f = fopen(table, "r");
    if (!f)
        return -1;
    char line[8192];
    int found = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned maj = 0, mnr = 0;
        const char *sep = strstr(line, " - ");
        char type[64];
        if (sscanf(line, "%*s %*s %u:%u", &maj, &mnr) != 2 || !sep ||
            sscanf(sep + 3, "%63s", type) != 1)
            continue;
        if (maj == major(dev) && mnr == minor(dev)) {
            snprintf(out, len, "%s", type);
            found = 0;
        }
    }
    fclose(f);
    return found;
}
#endif

static void context_file_system(struct run_context *c, const char *dir)
{
    snprintf(c->fs_type, sizeof c->fs_type, "unknown");
    if (!realpath(dir[0] ? dir : ".", c->directory))
        snprintf(c->directory, sizeof c->directory, "%s", dir[0] ? dir : ".");
#ifdef __linux__
    struct statfs sf;
    struct stat st;
    if (statfs(c->directory, &sf) == 0) {
        c->fs_magic = (unsigned long)sf.f_type;
        c->fs_layout.block_size = (int64_t)sf.f_bsize;
        snprintf(c->fs_type, sizeof c->fs_type, "%s", context_magic_name(c->fs_magic));
    }
    if (stat(c->directory, &st) == 0)
        c->fs_layout.io_size = (int64_t)st.st_blksize;
    /* Lustre's default striping of the directory (what new files get,
     * unless MPI-IO's striping hints set their own); any other file system
     * has no such attribute. */
    unsigned char lov[4096];
    ssize_t n = getxattr(c->directory, "lustre.lov", lov, sizeof lov);
    if (n > 0)
        fs_layout_lov(lov, (size_t)n, &c->fs_layout);
    /* The mount table has the kernel's own name. A chroot's own table omits
     * the mounts outside it (the one holding the directory among them); the
     * table of process 1, seen from its root, still lists them. */
    if (stat(c->directory, &st) == 0 &&
        context_mount_type("/proc/self/mountinfo", st.st_dev, c->fs_type, sizeof c->fs_type) < 0)
        context_mount_type("/proc/1/mountinfo", st.st_dev, c->fs_type, sizeof c->fs_type);
#endif
}

/* Every rank's processor name, as rank 0 holds them: the gathered lines
 * and, per rank, where its name starts and its length. */
struct context_names {
    char *text;      /* every rank's name, one per line, in rank order */
    const char **at; /* [ranks] */
    int *len;        /* [ranks] */
    int n;
};

static bool context_same(const struct context_names *h, int a, int b)
{
    return h->len[a] == h->len[b] && memcmp(h->at[a], h->at[b], (size_t)h->len[a]) == 0;
}

static uint64_t context_hash(const char *p, int n)
{
    uint64_t x = 1469598103934665603ULL; /* FNV-1a */
    for (int i = 0; i < n; i++)
        x = (x ^ (unsigned char)p[i]) * 1099511628211ULL;
    return x;
}

/* Rank 0: the distinct names, in order of first appearance, into c, each
 * rank's name looked up once in a hash set (linear in the processes;
 * docs/scale.md). */
static void context_distinct(struct run_context *c, const struct context_names *h)
{
    size_t slots = 2, used = 0;
    while (slots < 2 * (size_t)h->n)
        slots *= 2;
    int *set = malloc(slots * sizeof *set);
    char *out = malloc(strlen(h->text) + 1);
    if (!set || !out) {
        free(set);
        free(out);
        return;
    }
    for (size_t i = 0; i < slots; i++)
        set[i] = -1;
    for (int r = 0; r < h->n; r++) {
        size_t i = (size_t)context_hash(h->at[r], h->len[r]) & (slots - 1);
        while (set[i] >= 0 && !context_same(h, set[i], r))
            i = (i + 1) & (slots - 1);
        if (set[i] >= 0)
            continue;
        set[i] = r;
        memcpy(out + used, h->at[r], (size_t)h->len[r]);
        used += (size_t)h->len[r];
        out[used++] = '\n';
        c->hosts++;
    }
    out[used] = '\0';
    c->host_names = out;
    free(set);
}

/* Collective: every rank's processor name gathered on rank 0 into *h
 * (h->text NULL elsewhere, or when out of memory), and the distinct ones
 * into c. */
static void context_hosts(struct run_context *c, int rank, struct context_names *h)
{
    char name[MPI_MAX_PROCESSOR_NAME + 2];
    int len = 0;
    MPI_Get_processor_name(name, &len);
    name[len] = '\n';
    name[len + 1] = '\0';
    memset(h, 0, sizeof *h);
    sink_gather(MPI_COMM_WORLD, name, NULL, rank == 0 ? &h->text : NULL);
    if (!h->text)
        return;
    MPI_Comm_size(MPI_COMM_WORLD, &h->n);
    h->at = malloc((size_t)h->n * sizeof *h->at);
    h->len = malloc((size_t)h->n * sizeof *h->len);
    const char *p = h->text;
    for (int r = 0; h->at && h->len && r < h->n; r++) {
        const char *nl = strchr(p, '\n');
        h->at[r] = p;
        h->len[r] = nl ? (int)(nl - p) : (int)strlen(p);
        p = nl ? nl + 1 : p + h->len[r];
    }
    if (h->at && h->len)
        context_distinct(c, h);
}

static void context_names_free(struct context_names *h)
{
    free(h->text);
    free(h->at);
    free(h->len);
    memset(h, 0, sizeof *h);
}

static void context_mpi(struct run_context *c)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, v = 0, sv = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = '\0';
    /* MPICH's version string can be 8 KiB; its first line is all we keep. */
    snprintf(c->mpi_library, sizeof c->mpi_library, "%.*s", (int)sizeof c->mpi_library - 1, lib);
    MPI_Get_version(&v, &sv);
    snprintf(c->mpi_version, sizeof c->mpi_version, "%d.%d", v, sv);
}

/* Does every process of a run of p read data written on its own host?
 * The pattern says whose data each process reads back (-1: parts of
 * every process's, local only when all are on one host; a run that reads
 * nothing reads nothing local). Linear in p. */
static bool context_reads_local(const struct session *s, const struct context_names *h, int p)
{
    bool one_host_checked = false;
    for (int r = 0; r < p && r < h->n; r++) {
        int src = s->pattern->read_source(s->cfg, p, r);
        if (src == PATTERN_READS_NONE)
            return false;
        if (src >= 0 && src < h->n && !context_same(h, r, src))
            return false;
        for (int q = 0; src < 0 && !one_host_checked && q < p && q < h->n; q++)
            if (!context_same(h, q, 0))
                return false;
        one_host_checked |= src < 0;
    }
    return true;
}

/* The bytes one file's variables hold at a process count: what must stay
 * in the page cache between its write and its read. */
static int64_t context_file_bytes(const struct session *s, const struct session_count *k)
{
    int64_t most = 0;
    for (int i = k->first; i < k->first + k->n; i++) {
        const struct pattern_measure *m = &s->points[i].m;
        int64_t b = m->var_bytes * m->nvars;
        most = b > most ? b : most;
    }
    return most;
}

/* Rank 0: the page-cache warning (docs/differences.md, "Caches") when the reads of this run can
 * only come from a page cache: data written moments before, read back on the host that wrote it,
 * through its cache, and small enough to stay there. Each file is written, read back and removed
 * before the next (docs/original.md §3.6), so one file's datasets at a process count is what
 * must fit. */
static void context_page_cache(struct run_context *c, const struct session *s,
                               const struct context_names *h)
{
    const struct config *cfg = s->cfg;
    /* --direct's APIs (its row of the option table) bypass the cache. */
    unsigned apis = cfg->apis & ~(cfg->direct ? opt_row_of(OPT_DIRECT)->apis : 0u);
    if (!h->at || !h->len || cfg->write_only || cfg->read_only || !apis)
        return;
    char counts[128] = "";
    size_t n = 0;
    int local = 0, all = 0;
    double avail = (double)memory_host_available();
    for (int k = 0; k < s->ncounts; k++, all++) {
        int p = s->counts[k].nprocs;
        int64_t bytes = context_file_bytes(s, &s->counts[k]);
        if (!context_reads_local(s, h, p) || bytes < 0 || (avail >= 0 && (double)bytes > avail))
            continue;
        if (n < sizeof counts - 16)
            n += (size_t)snprintf(counts + n, sizeof counts - n, "%s%d", local ? ", " : "", p);
        local++;
    }
    if (!local)
        return;
    char names[64] = "";
    for (int a = 0, k = 0; a < API_COUNT; a++)
        if (apis & API_BIT(a))
            k += snprintf(names + k, sizeof names - (size_t)k, "%s%s", k ? ", " : "",
                          api_desc((enum api_id)a)->key);
    snprintf(c->page_cache, sizeof c->page_cache,
             "h5perf: warning: the read throughputs of %s%s%s%s can only come from the page "
             "cache: each process reads data written moments before on its own host, through "
             "that host's cache (%s)",
             names, local < all ? " with " : "", local < all ? counts : "",
             local < all ? (strcmp(counts, "1") == 0 ? " process" : " processes") : "",
             s->pattern->cache_advice);
}

/* Does a flag of flags ask for optimisation (-O, which is -O1, -O1..-O3,
 * -Os, -Oz, -Ofast; not -O0 or -Og)? The last -O wins, as with the
 * compiler. */
static bool context_optimized(const char *flags)
{
    bool on = false;
    for (const char *p = strstr(flags, "-O"); p; p = strstr(p + 2, "-O"))
        if (p == flags || p[-1] == ' ')
            on = p[2] != '0' && p[2] != 'g';
    return on;
}

/* The build of this h5perf: CMake's build type and flags. */
static void context_build(struct run_context *c)
{
    snprintf(c->build_type, sizeof c->build_type, "%s", H5PERF_BUILD_TYPE);
    const char *flags = H5PERF_C_FLAGS;
    while (*flags == ' ') /* empty CMAKE_C_FLAGS before the type's */
        flags++;
    snprintf(c->c_flags, sizeof c->c_flags, "%s", flags);
    snprintf(c->compiler, sizeof c->compiler, "%s", H5PERF_COMPILER);
    c->optimized = context_optimized(c->c_flags);
}

void context_versions(struct run_context *c)
{
    snprintf(c->version, sizeof c->version, "%s", H5PERF_VERSION);
    snprintf(c->commit, sizeof c->commit, "%s", H5PERF_COMMIT);
    context_build(c);
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    snprintf(c->hdf5_version, sizeof c->hdf5_version, "%u.%u.%u", maj, min, rel);
    context_mpi(c);
    for (int a = 0; a < API_COUNT; a++) {
        const struct backend_ops *ops = backend_get((enum api_id)a);
        if (ops)
            ops->version(c->api_versions[a], sizeof c->api_versions[a]);
    }
}

/* An unoptimised build's own overhead weighs in the figures: say so. */
static void context_warn_build(const struct run_context *c)
{
    if (!c->optimized)
        fprintf(stderr,
                "h5perf: warning: this h5perf was built without optimisation (build type '%s', "
                "C flags '%s'): its own overhead weighs in the figures; build it with "
                "-DCMAKE_BUILD_TYPE=Release\n",
                c->build_type, c->c_flags);
}

/* The batch systems h5perf recognises, by the variable that names the job
 * (the first field), and the variables of each field; Slurm first, since its
 * PBS compatibility plugin (spank_pbs) sets PBS_JOBID as well. */
static const struct {
    const char *system;
    const char *var[BATCH_FIELDS];
} context_batch_vars[] = {
    {"slurm",
     {[BATCH_JOB_ID] = "SLURM_JOB_ID",
      [BATCH_JOB_NAME] = "SLURM_JOB_NAME",
      [BATCH_PARTITION] = "SLURM_JOB_PARTITION",
      [BATCH_NODES] = "SLURM_JOB_NUM_NODES",
      [BATCH_NODE_LIST] = "SLURM_JOB_NODELIST",
      [BATCH_STEP_ID] = "SLURM_STEP_ID",
      [BATCH_TASKS] = "SLURM_STEP_NUM_TASKS",
      [BATCH_TASKS_PER_NODE] = "SLURM_STEP_TASKS_PER_NODE"}},
    {"pbs",
     {[BATCH_JOB_ID] = "PBS_JOBID",
      [BATCH_JOB_NAME] = "PBS_JOBNAME",
      [BATCH_PARTITION] = "PBS_QUEUE"}},
};

static void context_batch(struct batch_job *b)
{
    for (size_t i = 0; i < sizeof context_batch_vars / sizeof context_batch_vars[0]; i++) {
        if (!getenv(context_batch_vars[i].var[BATCH_JOB_ID]))
            continue;
        b->system = context_batch_vars[i].system;
        for (int f = 0; f < BATCH_FIELDS; f++)
            b->field[f] =
                context_batch_vars[i].var[f] ? getenv(context_batch_vars[i].var[f]) : NULL;
        return;
    }
}

void context_init(struct run_context *c, const struct run *run, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    struct context_names names;
    context_hosts(c, run->world_rank, &names);
    if (run->world_rank != 0)
        return;
    context_page_cache(c, &run->session, &names);
    context_names_free(&names);
    if (c->page_cache[0])
        fprintf(stderr, "%s\n", c->page_cache);
    context_versions(c);
    context_warn_build(c);
    snprintf(c->clock, sizeof c->clock, "%s", run->clock_name);
    c->clock_hz = run->clock_hz;
    c->processes = run->world_size;
    context_file_system(c, run->dir);
    context_now(c->start_time, sizeof c->start_time);
    c->argc = argc;
    c->argv = argv;
    c->warnings = run->warnings;
    c->env_paraprefix = getenv("HDF5_PARAPREFIX");
    c->env_nocleanup = getenv("HDF5_NOCLEANUP");
    c->env_mpi_info = getenv("HDF5_MPI_INFO");
    context_batch(&c->batch);
}

void context_end(struct run_context *c, int exit_status)
{
    context_now(c->end_time, sizeof c->end_time);
    c->exit_status = exit_status;
}

void context_release(struct run_context *c)
{
    free(c->host_names);
    c->host_names = NULL;
}
