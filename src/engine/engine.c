/* engine_run(): the loops of docs/original.md §3.2-3.6 over the sweep's run
 * points (cli/sweep.h): one function per level (process count, run point,
 * iteration, file); the per-iteration work (files, phases, reductions) is in
 * engine_iteration(). Only world rank 0 writes the report; per-rank lines go
 * through the sink. */
#include "engine/engine.h"

#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dims.h"
#include "cli/sweep.h"
#include "engine/agree.h"
#include "engine/check.h"
#include "engine/files.h"
#include "engine/iomode.h"
#include "engine/names.h"
#include "engine/phase.h"
#include "engine/progress.h"
#include "engine/sink.h"
#include "exit_status.h"
#include "pattern/particles.h"
#include "report/block.h"
#include "report/text.h"

enum { ENGINE_OK = 0, ENGINE_VERIFY_FAILED = 1, ENGINE_IO_FAILED = 2 };

/* Everything one run point (an API at one (P, X) or (P, layout)) needs. */
struct engine_api {
    const struct setup *s;
    const struct run_point *point;
    enum api_id api; /* the slot being run (names, report), whatever ops is */
    const struct backend_ops *ops;
    struct backend_ctx ctx;  /* the run's processes: agreement, reductions */
    struct backend_ctx fctx; /* the file's: ctx, or this process alone (fpp) */
    struct backend_settings set;
    bool fpp;               /* the block pattern's file per process */
    struct pattern pt;      /* this process's own data: the write phase */
    struct pattern pt_read; /* the read phase: with --read-shift another's data */
    unsigned char *buf;
    FILE *out;               /* the text report on rank 0 of the run, else NULL */
    struct results_log *log; /* on rank 0 of the run (world rank 0), else NULL */
    struct progress *progress;
    bool io_mode;                /* -C with a backend that reports what its library did */
    struct io_mode_seen seen[2]; /* what it did, write and read phases */
};

static void engine_debug_line(const struct engine_api *a, const struct pattern *pt, FILE *dbg)
{
    if (a->s->cfg.debug_level < 4)
        return;
    /* The original labels both phases do_write (docs/original.md §7.4); kept for parsers. */
    if (pt->p.geometry == 1)
        fprintf(dbg,
                "%d: Debug(do_write): buf_size=%" PRId64 ", bytes_begin=%" PRId64
                ", bytes_count=%" PRId64 "\n",
                a->s->world_rank, pt->xfer_bytes, pt->rank_begin, pt->rank_bytes);
    else
        fprintf(dbg,
                "%d: Debug(do_write): linear buf_size=%" PRId64 ", bytes_begin=(%" PRId64
                ",%" PRId64 "), bytes_count=%" PRId64 "\n",
                a->s->world_rank, pt->xfer_bytes, pt->rank_begin / pt->side,
                pt->rank_begin % pt->side, pt->rank_bytes);
}

/* What the file at path must hold after its write phase, if every byte
 * written reached it: a flat file exactly its datasets, a file of a backend
 * with written_end the end its layout gives. ENGINE_SIZE_UNCHECKED where
 * neither tells (HDF5; a PnetCDF file without data); ENGINE_SIZE_UNREADABLE
 * with why when the backend cannot read the file back. */
#define ENGINE_SIZE_UNCHECKED  (-1)
#define ENGINE_SIZE_UNREADABLE (-2)
static int64_t engine_written_size(const struct engine_api *a, const char *path, char *why,
                                   size_t len)
{
    if (a->ops->desc->caps & API_CAP_FLAT_FILE)
        return pattern_file_end(&a->pt, sweep_datasets(&a->s->cfg));
    if (!a->ops->written_end)
        return ENGINE_SIZE_UNCHECKED;
    int64_t end = a->ops->written_end(path, why, len);
    return end < 0 ? ENGINE_SIZE_UNREADABLE : end == 0 ? ENGINE_SIZE_UNCHECKED : end;
}

/* Collective, after a write phase, outside every timer: process 0 looks at
 * the file once. Its identity goes to every process's registry, so that a
 * cleanup process removes this file and no other of the name (files.h).
 * Its size must be engine_written_size(): MPI-IO libraries can lose data
 * while reporting success (ompio's collective writes on a full disk). */
static bool engine_after_write(const struct engine_api *a, int slot, const char *path,
                               struct err *e)
{
    uint64_t v[4] = {0, 0, 0, 0}; /* identified, device, inode, failed */
    if (a->fctx.rank == 0) {
        const char *api = a->ops->desc->err_name;
        struct stat st;
        if (stat(path, &st) < 0) {
            if (a->ops->desc->caps & API_CAP_FLAT_FILE)
                err_errno(e, api, "check size of", path, -1, -1, errno);
        } else {
            v[0] = 1;
            v[1] = (uint64_t)st.st_dev;
            v[2] = (uint64_t)st.st_ino;
            char why[256];
            int64_t want = engine_written_size(a, path, why, sizeof why);
            if (want == ENGINE_SIZE_UNREADABLE)
                err_set(e, api, "check size of", path, -1, -1, "%s", why);
            else if (want >= 0 && (int64_t)st.st_size != want)
                err_set(e, api, "check size of", path, -1, -1,
                        "the file holds %lld bytes after the write phase instead of %lld: data "
                        "was lost although every write reported success (file system full?)",
                        (long long)st.st_size, (long long)want);
        }
        v[3] = e->set;
    }
    /* The other processes agreed on the phase: only process 0 can fail here
     * (each process with its own file, fpp). */
    if (a->fpp) {
        if (v[0])
            files_identify(slot, v[1], v[2]);
        return agree_all(a->ctx.comm, !v[3]);
    }
    MPI_Bcast(v, 4, MPI_UINT64_T, 0, a->ctx.comm);
    if (v[0])
        files_identify(slot, v[1], v[2]);
    return !v[3];
}

/* One file: write phase unless --read-only, then read phase unless -w, then
 * cleanup (which leaves alone a file this run did not create). */
static bool engine_file(struct engine_api *a, int slot, double *t, struct verify_state *v,
                        struct err *e, FILE *dbg)
{
    const struct config *c = &a->s->cfg;
    struct phase_io io = {.ops = a->ops,
                          .ctx = &a->fctx,
                          .pt = &a->pt,
                          .slot = slot,
                          .path = files_path(slot),
                          .mode = BACKEND_WRITE,
                          .num_dsets = sweep_datasets(c),
                          .buf = a->buf,
                          .verify = false,
                          .overwrite = c->overwrite,
                          .fill_each = a->pt.kind != PATTERN_GUIDE,
                          .agree = a->ctx.comm,
                          .seen = a->io_mode ? &a->seen[0] : NULL};
    if (!c->read_only) {
        if (!io.fill_each)
            pattern_fill(&a->pt, 0, a->buf);
        engine_debug_line(a, &a->pt, dbg);
        if (!phase_run(&io, t + TIMER_WRITE_GROSS, v, e) ||
            !engine_after_write(a, slot, io.path, e))
            return false;
    }
    if (!c->write_only) {
        io.mode = BACKEND_READ;
        io.verify = c->debug_verify;
        io.pt = &a->pt_read;
        io.seen = a->io_mode ? &a->seen[1] : NULL;
        engine_debug_line(a, io.pt, dbg);
        if (!phase_run(&io, t + TIMER_READ_GROSS, v, e))
            return false;
    }
    MPI_Barrier(a->ctx.comm);
    files_remove(slot, a->fpp || a->ctx.rank == 0);
    return true;
}

/* Collective: one line per process whose data did not verify, to stderr. */
static void engine_report_mismatch(const struct engine_api *a, const struct verify_state *v,
                                   int iteration)
{
    char line[4800] = "", what[64];
    if (a->pt.kind != PATTERN_GUIDE)
        snprintf(what, sizeof what, "layout %s", dims_layout_name(a->point->layout));
    else
        snprintf(what, sizeof what, "transfer size %" PRId64, a->pt.p.xfer);
    if (v->bad)
        snprintf(line, sizeof line,
                 "h5perf: rank %d: verify '%s' (%s, %d processes, %s, iteration %d): %" PRId64
                 " bytes differ, the first at offset %" PRId64 ": expected %u, found %u\n",
                 a->s->world_rank, v->path, a->ops->desc->err_name, a->ctx.nprocs, what, iteration,
                 v->bad, v->first_offset, v->expected, v->found);
    sink_gather(a->ctx.comm, line, stderr, NULL);
}

/* Collective: reduces the timers of one iteration into it (on rank 0). */
static int engine_reduce(const struct engine_api *a, const double *t, bool bad,
                         struct iter_result *it)
{
    double lo[TIMER_COUNT], hi[TIMER_COUNT + 1], sum[TIMER_COUNT], mine[TIMER_COUNT + 1];
    memcpy(mine, t, sizeof lo);
    mine[TIMER_COUNT] = bad ? 1.0 : 0.0;
    MPI_Reduce(mine, lo, TIMER_COUNT, MPI_DOUBLE, MPI_MIN, 0, a->ctx.comm);
    MPI_Reduce(mine, sum, TIMER_COUNT, MPI_DOUBLE, MPI_SUM, 0, a->ctx.comm);
    MPI_Allreduce(mine, hi, TIMER_COUNT + 1, MPI_DOUBLE, MPI_MAX, a->ctx.comm);
    if (it)
        for (int i = 0; i < TIMER_COUNT; i++)
            it->t[i] = (struct timer_stat){lo[i], hi[i], sum[i]};
    if (it)
        it->status = hi[TIMER_COUNT] > 0 ? RUN_VERIFY_FAILED : RUN_OK;
    return hi[TIMER_COUNT] > 0 ? ENGINE_VERIFY_FAILED : ENGINE_OK;
}

/* One iteration over all files, its result into it (rank 0) and, after an
 * I/O error, the error lines into *errors (rank 0). Returns an ENGINE_*
 * status. */
static int engine_iteration(struct engine_api *a, int iteration, struct iter_result *it,
                            char **errors)
{
    const struct config *c = &a->s->cfg;
    double t[TIMER_COUNT] = {0};
    struct verify_state v = {0};
    struct err e;
    err_clear(&e);
    char *text = NULL;
    size_t text_len = 0;
    FILE *dbg = open_memstream(&text, &text_len);
    if (!dbg)
        err_set(&e, "h5perf", "allocate", "", -1, -1, "out of memory");
    bool ok = agree_all(a->ctx.comm, dbg != NULL);
    /* The particles pattern's HDF5 group is the iteration's; a read-only
     * run reads the one of a kept one-iteration file (docs/particles.md). */
    a->pt.step = iteration - 1;
    a->pt_read.step = c->read_only ? 0 : iteration - 1;
    if (a->out && c->debug_level >= 4)
        fprintf(a->out, "Timer details:\n");
    for (int f = 0; ok && f < c->num_files; f++) {
        int slot = names_slot(f, a->api, a->fpp);
        if (c->debug_level >= 1)
            fprintf(dbg, "rank %d: data filename=%s\n", a->s->world_rank, files_path(slot));
        ok = engine_file(a, slot, t, &v, &e, dbg);
    }
    if (dbg)
        fclose(dbg);
    if (c->debug_level >= 1)
        sink_gather(a->ctx.comm, text, a->out, NULL);
    free(text);
    if (!ok) {
        agree_report(a->ctx.comm, &e, a->s->world_rank, stderr, errors);
        if (it)
            it->status = RUN_IO_ERROR;
        return ENGINE_IO_FAILED;
    }
    int status = engine_reduce(a, t, v.bad > 0, it);
    if (status == ENGINE_VERIFY_FAILED)
        engine_report_mismatch(a, &v, iteration);
    return status;
}

/* Collective: the buffer and the plans of one run point: this process's
 * data for the write phase; for the read phase another process's with
 * --read-shift, or the block pattern's --read-grid. */
static bool engine_prepare(struct engine_api *a, struct err *e)
{
    const struct config *c = &a->s->cfg;
    void *buf = NULL;
    int rank = a->ctx.rank, nprocs = a->point->nprocs;
    int source = (int)(((int64_t)rank + c->read_shift) % nprocs);
    memset(&a->pt, 0, sizeof a->pt);
    if (sweep_plan(c, a->point, rank, rank, false, &a->pt, NULL) < 0 ||
        sweep_plan(c, a->point, rank, source, true, &a->pt_read, NULL) < 0)
        err_set(e, "h5perf", "plan", "", -1, -1, "invalid pattern (validation missed it)");
    int64_t bytes =
        a->pt.xfer_bytes > a->pt_read.xfer_bytes ? a->pt.xfer_bytes : a->pt_read.xfer_bytes;
    /* One byte at least: a process whose block is empty still takes part. */
    if (!e->set && posix_memalign(&buf, 4096, (size_t)(bytes > 0 ? bytes : 1)) != 0)
        err_set(e, "h5perf", "allocate transfer buffer", "", -1, bytes, "out of memory");
    a->buf = buf;
    return agree_all(a->ctx.comm, !e->set);
}

/* Rank 0: the record of one run point, or false (out of memory: the run
 * goes on without a record, and without a text block). */
static bool engine_record(struct engine_api *a, struct api_result *r)
{
    const struct config *c = &a->s->cfg;
    const struct run_point *p = a->point;
    int64_t bytes = (int64_t)c->num_files * sweep_file_bytes(c, p->nprocs);
    /* The block pattern moves a process's whole block per call; the
     * particles pattern a process's particles of one variable: the most. */
    int64_t xfer = c->pattern == PATTERN_BLOCK ? a->pt.xfer_bytes
                   : c->pattern == PATTERN_PARTICLES
                       ? 4 * particles_max_count(&a->pt.q.dist, p->nprocs)
                       : p->xfer;
    if (a->ctx.rank != 0 || results_init(r, a->api, p->nprocs, xfer, bytes, c->iterations) != 0)
        return false;
    r->layout = c->pattern != PATTERN_GUIDE ? (int)p->layout : -1;
    r->align = p->align;
    r->shift = p->shift;
    return true;
}

/* Collective: what the library did with the run point's collective
 * transfers, into r (rank 0; NULL without a record) and, where it did not
 * do collective I/O, one line on stderr (rank 0), never in the report. */
static void engine_io_mode(const struct engine_api *a, struct api_result *r)
{
    struct io_mode_phase sum[2];
    engine_io_mode_sum(a->ctx.comm, a->seen, sum);
    if (a->ctx.rank != 0)
        return;
    if (r) {
        r->io_mode_known = true;
        r->io_mode[0] = sum[0];
        r->io_mode[1] = sum[1];
    }
    char what[64], line[512];
    if (a->point->xfer > 0) {
        char size[32];
        text_size(size, sizeof size, a->point->xfer);
        snprintf(what, sizeof what, "transfer size %s", size);
    } else {
        snprintf(what, sizeof what, "layout %s", dims_layout_name(a->point->layout));
    }
    io_mode_warning(line, sizeof line, sum, a->ctx.nprocs, what);
    if (line[0])
        fprintf(stderr, "%s\n", line);
}

/* Rank 0: the text block of a completed run, then the record into the log. */
static void engine_keep(struct engine_api *a, struct api_result *r, int status)
{
    if (a->out && status != ENGINE_IO_FAILED && a->s->cfg.pattern == PATTERN_GUIDE)
        text_api_results(a->out, &a->s->cfg, r);
    if (a->log && results_log_add(a->log, r) < 0)
        fprintf(stderr, "h5perf: out of memory for the results; the JSON and CSV results "
                        "will lack runs\n");
    results_release(r);
}

/* Collective over the run's processes: the API and the file's processes of
 * a run point (the block pattern's fpp: each process alone, its chunked
 * layout: HDF5's chunks are the blocks). */
static void engine_point(struct engine_api *a, const struct backend_ops *const ops[API_COUNT],
                         const struct run_point *p)
{
    const struct config *c = &a->s->cfg;
    a->point = p;
    a->api = p->api;
    a->ops = ops[p->api];
    a->fpp = c->pattern != PATTERN_GUIDE && p->layout == LAYOUT_FPP;
    a->set = engine_settings(c, p);
    a->fctx = a->ctx;
    if (a->fpp)
        a->fctx = (struct backend_ctx){
            .comm = MPI_COMM_SELF, .info = a->ctx.info, .rank = 0, .nprocs = 1, .set = &a->set};
    a->io_mode = a->set.collective && (a->ops->desc->caps & API_CAP_COLLECTIVE_IO) &&
                 a->ops->io_mode != NULL;
    memset(a->seen, 0, sizeof a->seen);
}

/* Collective over comm: every iteration of one run point. */
static int engine_api_run(struct engine_api *a)
{
    const struct config *c = &a->s->cfg;
    const struct run_point *p = a->point;
    struct err e;
    err_clear(&e);
    if (a->out && c->pattern == PATTERN_GUIDE)
        text_api(a->out, a->api);
    bool prepared = engine_prepare(a, &e);
    struct api_result r;
    bool keep = engine_record(a, &r);
    int status = ENGINE_OK;
    if (!prepared) {
        /* The failure is this run's only iteration, so that it is recorded. */
        struct iter_result *it = keep ? results_next_iteration(&r) : NULL;
        if (it)
            it->status = RUN_IO_ERROR;
        agree_report(a->ctx.comm, &e, a->s->world_rank, stderr, keep ? &r.errors : NULL);
        status = ENGINE_IO_FAILED;
    }
    for (int i = 0; prepared && i < c->iterations; i++) {
        progress_begin(a->progress, p, i + 1, c->iterations);
        int st = engine_iteration(a, i + 1, keep ? results_next_iteration(&r) : NULL,
                                  keep ? &r.errors : NULL);
        status = st > status ? st : status;
        if (st == ENGINE_IO_FAILED)
            break;
        progress_add(a->progress, (int64_t)c->num_files * sweep_file_bytes(c, p->nprocs));
    }
    if (a->io_mode)
        engine_io_mode(a, keep ? &r : NULL);
    if (keep)
        engine_keep(a, &r, status);
    if (a->out)
        fflush(a->out);
    free(a->buf);
    a->buf = NULL;
    return status;
}

/* Collective over comm (the P processes of this run): the n run points of
 * this process count, in order. */
static int engine_nprocs(const struct setup *s, const struct backend_ops *const ops[API_COUNT],
                         MPI_Comm comm, const struct run_point *pts, int n, struct results_log *log,
                         struct progress *progress)
{
    const struct config *c = &s->cfg;
    struct engine_api a = {.s = s, .progress = progress};
    a.ctx = (struct backend_ctx){.comm = comm, .info = s->info, .set = &a.set};
    MPI_Comm_rank(comm, &a.ctx.rank);
    MPI_Comm_size(comm, &a.ctx.nprocs);
    a.out = a.ctx.rank == 0 ? s->report : NULL;
    a.log = a.ctx.rank == 0 ? log : NULL;
    bool guide = c->pattern == PATTERN_GUIDE;
    if (a.out && guide)
        text_nprocs(a.out, pts[0].nprocs);
    int status = ENGINE_OK;
    for (int i = 0; i < n; i++) {
        if (a.out && guide && (i == 0 || pts[i].xfer != pts[i - 1].xfer))
            text_xfer(a.out, c, pts[i].nprocs, pts[i].xfer);
        engine_point(&a, ops, &pts[i]);
        int st = engine_api_run(&a);
        status = st > status ? st : status;
        if (st == ENGINE_IO_FAILED)
            break;
    }
    if (a.out && !guide && a.log)
        text_block_table(a.out, c, a.log, pts[0].nprocs);
    return status;
}

int engine_run(const struct setup *s, const struct backend_ops *const ops[API_COUNT],
               struct results_log *log)
{
    const struct config *c = &s->cfg;
    int status = ENGINE_OK;
    int n = sweep_points(c, NULL, 0);
    struct run_point *pts = malloc(sizeof *pts * (size_t)(n > 0 ? n : 1));
    if (!agree_all(MPI_COMM_WORLD, pts != NULL)) {
        if (s->world_rank == 0)
            fprintf(stderr, "h5perf: out of memory for the %d runs of the sweep\n", n);
        free(pts);
        return EXIT_RUN_FAILED;
    }
    sweep_points(c, pts, n);
    struct progress progress;
    progress_init(&progress, c, pts, n, c->progress && s->world_rank == 0, stderr);
    for (int i = 0, j; i < n; i = j) {
        int p = pts[i].nprocs;
        for (j = i; j < n && pts[j].nprocs == p; j++)
            ;
        MPI_Comm comm;
        int color = s->world_rank < p ? 0 : MPI_UNDEFINED;
        MPI_Comm_split(MPI_COMM_WORLD, color, s->world_rank, &comm);
        int mine = ENGINE_OK, all = ENGINE_OK;
        if (comm != MPI_COMM_NULL) {
            mine = engine_nprocs(s, ops, comm, pts + i, j - i, log, &progress);
            MPI_Comm_free(&comm);
        }
        /* Processes outside this run learn how it ended. */
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        status = all > status ? all : status;
        if (all == ENGINE_IO_FAILED)
            break;
    }
    if (status == ENGINE_IO_FAILED)
        files_remove_all(s->world_rank == 0);
    progress_end(&progress);
    free(pts);
    return status == ENGINE_OK ? EXIT_OK : EXIT_RUN_FAILED;
}
