/* The "physical limit" program: for ONE h5perf configuration (read with
 * h5perf's own option parser, so sizes, defaults and validity are h5perf's)
 * it runs the bare loops of limit_io.c and prints one JSON line from rank 0:
 * the configuration, the bytes, the slowest process's seconds per iteration
 * and measure, the I/O calls per process and the peak memory of each process.
 * It must not do anything h5perf's timed regions do not need. */
#include "limit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "options/options.h"
#include "pattern/block_options.h"
#include "pattern/pattern.h"
#include "pattern/guide.h"
#include "pattern/guide_options.h"

static const char limit_usage[] =
    "usage: mpiexec -n P limit [--dir=DIR] -A posix|mpiio [h5perf options of one run]\n"
    "Runs the bare write/read loops of one h5perf configuration (give -x = -X and\n"
    "-p = -P = P) in DIR (default: HDF5_PARAPREFIX, else the current directory) and\n"
    "prints one JSON line. Accepted: -A -e -x -X -B -I -g -c -C -d -F -i -p -P -w, and\n"
    "--pattern block with --global --grid --element-size --vars and one --layout.\n";

/* Options that do not change the I/O h5perf issues for POSIX and MPI-IO, or
 * that the limit implements. Any other option (a later --fsync, say) is
 * refused rather than silently ignored. */
static const enum opt_id limit_allowed[] = {
    OPT_API,  OPT_COLLECTIVE, OPT_ITERATIONS,   OPT_MIN_PROCS, OPT_MAX_PROCS, OPT_WRITE_ONLY,
    OPT_HELP, OPT_PATTERN,    OPT_ELEMENT_SIZE, OPT_VARS,      OPT_LAYOUT,
};

/* And of the patterns' own options, their rows (docs/design.md,
 * "Options"): every one of the guide's, the block pattern's array and
 * grid. */
static bool limit_own_allowed(const struct opt_row *row)
{
    return pattern_owner(row) == pattern_index(&pattern_guide) || row == &block_global_row ||
           row == &block_grid_row;
}

/* "h5perf: ..." lines of the shared parser become "limit: ...". */
static int limit_fail_msg(const struct limit *l, const struct cli_msg *m)
{
    const char *text = m->line;
    if (strncmp(text, "h5perf: ", 8) == 0)
        text += 8;
    if (l->rank == 0)
        fprintf(stderr, "limit: %s\n", text);
    return LIMIT_USAGE;
}

/* "option '--seed' is not supported by the limit program". */
static int limit_unsupported(const struct limit *l, const char *spelled)
{
    struct cli_msg m;
    snprintf(m.line, sizeof m.line, "option '%s' is not supported by the limit program", spelled);
    return limit_fail_msg(l, &m);
}

static int limit_refuse(const struct limit *l, const char *what)
{
    struct cli_msg m;
    snprintf(m.line, sizeof m.line, "%s", what);
    return limit_fail_msg(l, &m);
}

/* The limit's own checks on top of h5perf's: one API without HDF5, one
 * process count (all processes), one transfer size, no other option. */
static int limit_check(const struct limit *l)
{
    const struct config *c = &l->cfg;
    for (int id = 0; id < OPT_COUNT; id++) {
        bool ok = false;
        for (size_t i = 0; i < sizeof limit_allowed / sizeof limit_allowed[0]; i++)
            ok = ok || limit_allowed[i] == (enum opt_id)id;
        if (!ok && c->spelled[id])
            return limit_unsupported(l, c->spelled[id]);
    }
    const struct opt_row *row;
    for (int i = 0; (row = opt_row_at(i)); i++)
        if (pattern_owner(row) >= 0 && !limit_own_allowed(row) && opt_spelled(c, row))
            return limit_unsupported(l, opt_spelled(c, row));
    if (!c->spelled[OPT_API] || (c->apis != API_BIT(API_POSIX) && c->apis != API_BIT(API_MPIIO)))
        return limit_refuse(l,
                            "-A: give exactly one of posix and mpiio (compare phdf5 with mpiio)");
    int p = sweep_procs_first(c);
    if (p != l->nprocs || sweep_procs_next(c, p) != 0)
        return limit_refuse(l, "-p/-P: one process count only: -p and -P equal to the processes "
                               "started");
    if (l->session.npoints != 1)
        return limit_refuse(l, c->spelled[OPT_LAYOUT] || opt_spelled(c, &block_global_row)
                                   ? "--layout: one layout only: shared, chunked or fpp"
                                   : "-x/-X: one transfer size only: -x equal to -X");
    return LIMIT_OK;
}

/* MPI_Dims_create, as h5perf's set-up gives it to the session. */
static void limit_dims(int nprocs, int ndims, int *dims)
{
    for (int d = 0; d < ndims; d++)
        dims[d] = 0;
    MPI_Dims_create(nprocs, ndims, dims);
}

/* Takes --dir out of argv (h5perf's parser does not know it) and parses the
 * rest as h5perf would. Local. Returns -1 to run, or an exit status. */
static int limit_parse(struct limit *l, int argc, char **argv)
{
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int n = 0;
    if (!rest)
        return limit_refuse(l, "out of memory");
    l->dir = getenv("HDF5_PARAPREFIX") ? getenv("HDF5_PARAPREFIX") : ".";
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "--dir=", 6) == 0)
            l->dir = argv[i] + 6;
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            l->dir = argv[++i];
        else
            rest[n++] = argv[i];
    }
    struct cli_msg m;
    struct cli_warnings w;
    config_init(&l->cfg);
    int rc = env_parse(&l->cfg, getenv("HDF5_MPI_INFO"), NULL, NULL, MPI_MAX_INFO_KEY,
                       MPI_MAX_INFO_VAL, &m);
    if (rc == 0)
        rc = opt_parse(n, rest, &l->cfg, &m);
    free(rest);
    if (rc == 0 && l->cfg.help) {
        if (l->rank == 0)
            fputs(limit_usage, stdout);
        return LIMIT_OK;
    }
    if (rc == 0)
        rc = config_finish(&l->cfg, l->nprocs, &w, &m);
    /* The run plan h5perf's set-up makes, with the grids it makes. */
    if (rc == 0)
        rc = session_build_input(&l->session, &l->cfg, NULL, 0, limit_dims, &m);
    if (rc != 0)
        return limit_fail_msg(l, &m);
    if (limit_check(l) != LIMIT_OK)
        return LIMIT_USAGE;
    l->sp = &l->session.points[0];
    l->mpiio = l->cfg.apis == API_BIT(API_MPIIO);
    l->collective = l->mpiio && l->cfg.collective;
    const struct layout_desc *ld = layout_desc(l->sp->p.layout);
    l->fpp = ld && ld->per_process;
    return -1;
}

/* Peak resident set size of this process (VmHWM), in KiB; -1 if unknown. */
static long long limit_peak_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static void limit_json_array(const char *name, const double *sec, int n, int m, bool last)
{
    printf("\"%s\":[", name);
    for (int i = 0; i < n; i++)
        printf("%s%.9f", i ? "," : "", sec[i * LIMIT_MEASURES + m]);
    printf("]%s", last ? "" : ",");
}

/* The seconds of every measure and the peaks: the tail of the JSON line. */
static void limit_json_tail(const struct limit *l, const double *sec, const long long *peak)
{
    const struct config *c = &l->cfg;
    limit_json_array("write", sec, c->iterations, LIMIT_WRITE, false);
    limit_json_array("write_open_close", sec, c->iterations, LIMIT_WRITE_OPEN_CLOSE, c->write_only);
    if (!c->write_only) {
        limit_json_array("read", sec, c->iterations, LIMIT_READ, false);
        limit_json_array("read_open_close", sec, c->iterations, LIMIT_READ_OPEN_CLOSE, true);
    }
    printf("},\"peak_rss_kib\":[");
    for (int i = 0; i < l->nprocs; i++)
        printf("%s%lld", i ? "," : "", peak[i]);
    printf("]}\n");
    fflush(stdout);
}

/* The block pattern's line: the array, grid, layout and the whole array's
 * bytes (every variable). */
static void limit_json_block(const struct limit *l, const double *sec, const long long *peak)
{
    const struct config *c = &l->cfg;
    const struct block_settings *b = block_of(c);
    printf("{\"program\":\"limit\",\"api\":\"%s\",\"io_mode\":\"%s\",\"pattern\":\"block\","
           "\"layout\":\"%s\",\"processes\":%d,\"global\":[",
           l->mpiio ? "mpiio" : "posix", l->collective ? "collective" : "independent",
           layout_name(l->sp->p.layout), l->nprocs);
    for (int d = 0; d < b->ndims; d++)
        printf("%s%" PRId64, d ? "," : "", b->global[d]);
    printf("],\"grid\":[");
    for (int d = 0; d < b->ndims; d++)
        printf("%s%d", d ? "," : "", l->sp->p.grid[d]);
    printf("],\"element_size\":%d,\"vars\":%d,\"iterations\":%d,\"write_only\":%s,", c->elem,
           c->nvars, c->iterations, c->write_only ? "true" : "false");
    printf("\"bytes\":%" PRId64 ",\"transfer_buffer\":%" PRId64 ",\"calls_per_process\":%" PRId64
           ",\"seconds\":{",
           l->sp->m.phase_bytes, l->plan.buffer_bytes, limit_calls(l));
    limit_json_tail(l, sec, peak);
}

/* Rank 0: the one JSON line. sec[i * LIMIT_MEASURES + m]: slowest process. */
static void limit_json(const struct limit *l, const double *sec, const long long *peak)
{
    const struct config *c = &l->cfg;
    const struct guide_settings *g = guide_of(c);
    if (l->sp->p.layout >= 0) {
        limit_json_block(l, sec, peak);
        return;
    }
    printf("{\"program\":\"limit\",\"api\":\"%s\",\"io_mode\":\"%s\",\"geometry\":\"%s\","
           "\"layout\":\"%s\",\"storage\":\"%s\",\"processes\":%d,",
           l->mpiio ? "mpiio" : "posix", l->collective ? "collective" : "independent",
           g->geometry_2d ? "2d" : "1d", g->interleaved ? "interleaved" : "contiguous",
           g->chunk && g->geometry_2d ? "chunked" : "contiguous", l->nprocs);
    printf("\"bytes_per_process\":%" PRId64 ",\"transfer_size\":%" PRId64 ",\"block_size\":%" PRId64
           ",\"num_dsets\":%d,\"num_files\":%d,\"iterations\":%d,\"write_only\":%s,",
           g->bytes, l->sp->p.xfer, g->block, g->num_dsets, g->num_files, c->iterations,
           c->write_only ? "true" : "false");
    printf("\"bytes\":%" PRId64 ",\"transfer_buffer\":%" PRId64 ",\"calls_per_process\":%" PRId64
           ",\"seconds\":{",
           l->sp->m.phase_bytes, l->plan.buffer_bytes, limit_calls(l));
    limit_json_tail(l, sec, peak);
}

/* Collective: the plan, the buffer and the info object, all before any
 * timer. */
static int limit_prepare(struct limit *l)
{
    void *buf = NULL;
    long tag = (long)getpid();
    MPI_Bcast(&tag, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    l->tag = tag;
    int ok = l->session.pattern->plan(&l->cfg, &l->sp->p, l->rank, 0, &l->plan) == 0 &&
             posix_memalign(&buf, 4096,
                            (size_t)(l->plan.buffer_bytes > 0 ? l->plan.buffer_bytes : 1)) == 0;
    l->buf = buf;
    if (!ok)
        fprintf(stderr, "limit: rank %d: cannot plan or allocate the transfer buffer\n", l->rank);
    ok = ok && limit_io_setup(l) == 0;
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all ? 0 : -1;
}

/* Collective: every iteration, reduced as h5perf reduces (slowest process). */
static int limit_run(struct limit *l)
{
    int status = LIMIT_FAILED;
    int n = l->cfg.iterations;
    l->info = MPI_INFO_NULL;
    double *sec = calloc((size_t)n * LIMIT_MEASURES, sizeof *sec);
    long long *peak = calloc((size_t)l->nprocs, sizeof *peak);
    int ok = sec && peak, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all && limit_prepare(l) == 0) {
        for (int i = 0; i < n; i++) {
            double t[LIMIT_MEASURES] = {0};
            limit_iteration(l, t);
            MPI_Reduce(t, sec + (size_t)i * LIMIT_MEASURES, LIMIT_MEASURES, MPI_DOUBLE, MPI_MAX, 0,
                       MPI_COMM_WORLD);
        }
        long long mine = limit_peak_kib();
        MPI_Gather(&mine, 1, MPI_LONG_LONG, peak, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        if (l->rank == 0)
            limit_json(l, sec, peak);
        status = LIMIT_OK;
    }
    limit_io_release(l);
    session_release(&l->session);
    free(l->buf);
    free(sec);
    free(peak);
    return status;
}

int main(int argc, char **argv)
{
    static struct limit l; /* large (the config); zeroed */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &l.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &l.nprocs);
    int status = limit_parse(&l, argc, argv);
    if (status < 0)
        status = limit_run(&l);
    MPI_Finalize();
    return status;
}
