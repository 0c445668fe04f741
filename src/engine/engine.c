/* engine_run(): the loops of docs/original.md §3.2-3.6 over the session's
 * run points (session/session.h): one function per level (process count,
 * run point, iteration; one file's phases in engine_file.c); the
 * per-iteration work (files, reductions) is in engine_iteration(). It knows no pattern and no API:
 * the plan says what each process does, the backend how, the pattern's report hooks what the text
 * report says. Only world rank 0 writes the report; per-rank lines go through the sink. */
#include "engine/engine.h"
#include "engine/engine_point.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/agree.h"
#include "engine/check.h"
#include "engine/files.h"
#include "cli/measure_options.h"
#include "engine/iomode_sum.h"
#include "engine/measure.h"
#include "engine/names.h"
#include "engine/phase.h"
#include "engine/progress.h"
#include "engine/sink.h"
#include "report/measures.h"
#include "exit_status.h"

/* Collective: reduces the timers of one iteration into it (on rank 0). */
static int engine_reduce(const struct point_run *r, const double *t, bool bad,
                         struct iter_result *it)
{
    double lo[TIMER_COUNT], hi[TIMER_COUNT + 1], sum[TIMER_COUNT], mine[TIMER_COUNT + 1];
    memcpy(mine, t, sizeof lo);
    mine[TIMER_COUNT] = bad ? 1.0 : 0.0;
    MPI_Reduce(mine, lo, TIMER_COUNT, MPI_DOUBLE, MPI_MIN, 0, r->ctx.comm);
    MPI_Reduce(mine, sum, TIMER_COUNT, MPI_DOUBLE, MPI_SUM, 0, r->ctx.comm);
    MPI_Allreduce(mine, hi, TIMER_COUNT + 1, MPI_DOUBLE, MPI_MAX, r->ctx.comm);
    if (it)
        for (int i = 0; i < TIMER_COUNT; i++)
            it->t[i] = (struct timer_stat){lo[i], hi[i], sum[i]};
    if (it)
        it->status = hi[TIMER_COUNT] > 0 ? RUN_VERIFY_FAILED : RUN_OK;
    return hi[TIMER_COUNT] > 0 ? ENGINE_VERIFY_FAILED : ENGINE_OK;
}

/* Collective: what --stonewall and --duration add to an iteration's record
 * (it, on rank 0): the bytes really moved, the stonewall's account, the
 * repetitions' spread. */
static void engine_bounded(const struct point_run *r, struct iter_result *it)
{
    if (!r->bounded)
        return;
    int64_t all[2] = {0, 0};
    MPI_Reduce(r->moved, all, 2, MPI_INT64_T, MPI_SUM, 0, r->ctx.comm);
    if (!it)
        return;
    it->bytes[0] = all[0];
    it->bytes[1] = all[1];
    it->stonewalled = r->run->cfg.stonewall > 0;
    it->sw = r->sw;
    measure_repeat_stat(&r->reps, &it->rep);
}

/* Local: this process's plan of the point at iteration it (0-based) into
 * r->plan, the one before released: a plan holds the pattern's own
 * structures (a map's boxes, slabs and runs), and one at a time is what
 * the memory check counts (engine/memory.c). Returns 0, or -1. */
static int engine_plan(struct point_run *r, int it)
{
    const struct pattern_desc *pd = r->run->session.pattern;
    if (r->plan.ops && pd->plan_release)
        pd->plan_release(&r->plan);
    memset(&r->plan, 0, sizeof r->plan);
    return pd->plan(&r->run->cfg, &r->sp->p, r->ctx.rank, it, &r->plan);
}

/* One iteration over all files, its result into it (rank 0) and, after an
 * I/O error, the error lines into *errors (rank 0). unrecorded: rank 0 has
 * no room for its result, which fails the iteration before any file is
 * touched rather than dropping it. Returns an ENGINE_* status. */
static int engine_iteration(struct point_run *r, int iteration, struct iter_result *it,
                            bool unrecorded, char **errors)
{
    const struct config *c = &r->run->cfg;
    double t[TIMER_COUNT] = {0};
    struct verify_state v = {0};
    struct err e;
    err_clear(&e);
    char *text = NULL;
    size_t text_len = 0;
    FILE *dbg = open_memstream(&text, &text_len);
    if (!dbg)
        err_set(&e, "h5perf", "allocate", "", -1, -1, "out of memory");
    if (unrecorded)
        err_set(&e, "h5perf", "record results", "", -1, -1,
                "out of memory for the results of iteration %d", iteration);
    memset(r->moved, 0, sizeof r->moved);
    memset(&r->sw, 0, sizeof r->sw);
    memset(&r->reps, 0, sizeof r->reps);
    r->bounded = c->stonewall > 0 || c->duration > 0;
    /* A pattern may name its variables after the iteration. */
    if (engine_plan(r, iteration - 1) < 0)
        err_set(&e, "h5perf", "plan", "", -1, -1, "invalid pattern (validation missed it)");
    bool ok = agree_all(r->ctx.comm, !e.set);
    if (r->out && c->debug_level >= 4)
        fprintf(r->out, "Timer details:\n");
    for (int f = 0; ok && f < r->plan.nfiles; f++) {
        int slot = names_slot(f, r->sp->p.api, r->plan.per_process);
        if (c->debug_level >= 1)
            fprintf(dbg, "rank %d: data filename=%s\n", r->run->world_rank, files_path(slot));
        ok = engine_file(r, slot, t, &v, &e, dbg);
    }
    if (dbg)
        fclose(dbg);
    if (c->debug_level >= 1)
        sink_gather(r->ctx.comm, text, r->out, NULL);
    free(text);
    if (!ok) {
        agree_report(r->ctx.comm, &e, r->run->world_rank, stderr, errors);
        if (it)
            it->status = RUN_IO_ERROR;
        return ENGINE_IO_FAILED;
    }
    int status = engine_reduce(r, t, v.bad > 0, it);
    engine_bounded(r, it);
    if (status == ENGINE_VERIFY_FAILED)
        engine_report_mismatch(r, &v, iteration);
    return status;
}

/* The MPI-IO library's one-time start in this process, before its first
 * timed phase through it (docs/measuring.md, "The MPI-IO library's
 * start"): Open MPI's ompio loads and selects its components at a
 * process's first MPI_File_open, some milliseconds that would otherwise
 * fall in the first iteration's open as h5perf's, where an application
 * pays them once per job, before the I/O it times. /dev/null, read only,
 * through MPI_COMM_SELF: no file is made, and no other process need take
 * part (a sweep's run points may hold processes that started it before
 * and some that did not). A failure is of no consequence. */
static void engine_start_mpiio(unsigned caps)
{
    static bool started;
    if (started || !(caps & API_CAP_THROUGH_MPIIO))
        return;
    started = true;
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_SELF, "/dev/null", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) ==
        MPI_SUCCESS)
        MPI_File_close(&fh);
}

/* Collective: this process's plan of one run point and its buffer (one
 * byte at least: a process whose share is empty still takes part),
 * starting the point's --buffer-offset past a page boundary. */
static bool engine_prepare(struct point_run *r, struct err *e)
{
    void *buf = NULL;
    int64_t bytes = 0, offset = r->sp->p.buf_offset;
    long page = sysconf(_SC_PAGESIZE);
    if (engine_plan(r, 0) < 0)
        err_set(e, "h5perf", "plan", "", -1, -1, "invalid pattern (validation missed it)");
    else
        bytes = r->plan.buffer_bytes;
    /* A variant that moves every variable in one call holds every
     * variable's buffer (phase.h, phase_joined()); the session measured
     * as much. */
    bytes = api_variant_buffer(r->sp->p.api, r->sp->p.variant, bytes, r->plan.nvars);
    if (!e->set && posix_memalign(&buf, page > 4096 ? (size_t)page : 4096,
                                  (size_t)(bytes > 0 ? bytes : 1) + (size_t)offset) != 0)
        err_set(e, "h5perf", "allocate transfer buffer", "", -1, bytes + offset, "out of memory");
    r->buf_base = buf;
    r->buf = buf ? (unsigned char *)buf + offset : NULL;
    r->lat = malloc(2 * LATENCY_CALLS * sizeof *r->lat);
    r->tlog = calloc(2, sizeof *r->tlog);
    if (!r->lat || !r->tlog)
        err_set(e, "h5perf", "allocate latency histograms", "", -1, -1, "out of memory");
    for (int h = 0; r->lat && h < 2 * LATENCY_CALLS; h++)
        latency_clear(&r->lat[h]);
    engine_start_mpiio(r->ops->desc->caps);
    return agree_all(r->ctx.comm, !e->set);
}

/* Rank 0: the record of one run point (true), empty: it grows as the
 * iterations come. False elsewhere, and on rank 0 with e set when it
 * cannot be made, which the preparation's agreement turns into the run's
 * failure: a run point never goes on without its record. */
static bool engine_record(struct point_run *r, struct api_result *res, struct err *e)
{
    const struct run_point *p = &r->sp->p;
    const struct pattern_measure *m = &r->sp->m;
    /* The guide's transfer size, or the most bytes one call moves. */
    int64_t xfer = p->xfer > 0 ? p->xfer : m->max_call;
    if (r->ctx.rank != 0)
        return false;
    if (results_init(res, p->api, p->nprocs, xfer, m->phase_bytes,
                     measure_max_iterations(&r->run->cfg)) != 0) {
        err_set(e, "h5perf", "record results", "", -1, -1, "no iterations to record");
        return false;
    }
    snprintf(res->label, sizeof res->label, "%s", r->sp->label);
    res->layout = p->layout;
    res->variant = p->variant;
    res->align = p->align;
    res->shift = p->shift;
    res->buf_offset = p->buf_offset;
    memcpy(res->grid, p->grid, sizeof res->grid);
    return true;
}

/* Collective: what the library did with the run point's collective
 * transfers, into res (rank 0; NULL without a record) and, where it did not
 * do collective I/O, one line on stderr (rank 0), never in the report. */
static void engine_io_mode(const struct point_run *r, struct api_result *res)
{
    struct io_mode_phase sum[2];
    engine_io_mode_sum(r->ctx.comm, r->seen, sum);
    if (r->ctx.rank != 0)
        return;
    if (res) {
        res->io_mode_known = true;
        res->io_mode[0] = sum[0];
        res->io_mode[1] = sum[1];
    }
    char line[512];
    io_mode_warning(line, sizeof line, sum, r->ctx.nprocs, r->sp->label);
    if (line[0])
        fprintf(stderr, "%s\n", line);
}

/* Rank 0: the text block of a completed run, then the record into the log.
 * False when the log has no room for it (e set): the run then fails
 * rather than leave the run out of the results. */
static bool engine_keep(struct point_run *r, struct api_result *res, struct err *e)
{
    const struct pattern_report *rep = r->run->session.pattern->report;
    if (r->out && rep->point_end)
        rep->point_end(r->out, &r->run->cfg, res);
    bool ok = !r->log || results_log_add(r->log, res) == 0;
    if (!ok)
        err_set(e, "h5perf", "record results", "", -1, -1, "out of memory for the results of %s",
                r->sp->label_exact);
    results_release(res);
    return ok;
}

/* The API and the file's processes of a run point (each process alone
 * where every process has a file of its own). */
static void engine_point(struct point_run *r, const struct backend_ops *const ops[API_COUNT],
                         const struct session_point *sp)
{
    const struct config *c = &r->run->cfg;
    r->sp = sp;
    r->ops = ops[sp->p.api];
    r->set = engine_settings(c, &sp->p);
    r->fctx = r->ctx;
    if (layout_desc(sp->p.layout) && layout_desc(sp->p.layout)->per_process)
        r->fctx = (struct backend_ctx){
            .comm = MPI_COMM_SELF, .info = r->ctx.info, .rank = 0, .nprocs = 1, .set = &r->set};
    r->io_mode = r->set.collective && (r->ops->desc->caps & API_CAP_COLLECTIVE_IO) &&
                 r->ops->io_mode != NULL;
    memset(r->seen, 0, sizeof r->seen);
}

/* Collective: with --confidence, after n iterations (at least -i), may the
 * run point stop? Process 0 decides for all: every measure's interval is
 * within the bound, or --max-iterations or --max-time came first; why goes
 * into res (rank 0). Without --confidence, after -i iterations. */
static bool engine_enough(const struct point_run *r, struct api_result *res, int n, double start)
{
    const struct config *c = &r->run->cfg;
    if (c->confidence <= 0)
        return n >= c->iterations;
    if (n < c->iterations)
        return false;
    int stop = STOP_COUNT;
    if (r->ctx.rank == 0) {
        struct report_settings rs;
        config_report_settings(c, &rs);
        if (!res || results_intervals_within(res, &rs, c->confidence))
            stop = STOP_INTERVAL;
        else if (n >= c->max_iterations)
            stop = STOP_MAX_ITERATIONS;
        else if (c->max_time > 0 && r->run->clock() - start >= c->max_time)
            stop = STOP_MAX_TIME;
    }
    MPI_Bcast(&stop, 1, MPI_INT, 0, r->ctx.comm);
    if (res)
        res->stop = (enum iter_stop)stop;
    return stop != STOP_COUNT;
}

/* Collective over comm: every iteration of one run point. */
static int engine_point_run(struct point_run *r)
{
    const struct config *c = &r->run->cfg;
    struct err e;
    err_clear(&e);
    struct api_result res;
    bool keep = engine_record(r, &res, &e);
    bool prepared = engine_prepare(r, &e);
    if (keep && prepared)
        results_set_phases(&res, &r->plan);
    int status = ENGINE_OK;
    if (!prepared) {
        /* The failure is this run's only iteration, so that it is recorded. */
        struct iter_result *it = keep ? results_next_iteration(&res) : NULL;
        if (it)
            it->status = RUN_IO_ERROR;
        agree_report(r->ctx.comm, &e, r->run->world_rank, stderr, keep ? &res.errors : NULL);
        status = ENGINE_IO_FAILED;
    }
    int most = measure_max_iterations(c);
    double start = r->run->clock();
    for (int i = 0; prepared && i < most; i++) {
        progress_begin(r->progress, r->sp, i + 1, most);
        struct iter_result *it = keep ? results_next_iteration(&res) : NULL;
        int st = engine_iteration(r, i + 1, it, keep && !it, keep ? &res.errors : NULL);
        status = st > status ? st : status;
        if (st == ENGINE_IO_FAILED)
            break;
        progress_add(r->progress, r->sp->m.phase_bytes);
        if (engine_enough(r, keep ? &res : NULL, i + 1, start))
            break;
    }
    /* The latency and the record are the run point's results: losing either
     * to memory fails the run with its line, as an I/O error does. */
    err_clear(&e);
    if (prepared && !measure_latency(r->ctx.comm, r->lat, keep ? &res : NULL, &e)) {
        agree_report(r->ctx.comm, &e, r->run->world_rank, stderr,
                     keep && !res.errors ? &res.errors : NULL);
        status = ENGINE_IO_FAILED;
        err_clear(&e);
    }
    if (keep)
        res.stop = status == ENGINE_IO_FAILED ? STOP_ERROR : res.stop;
    if (r->io_mode)
        engine_io_mode(r, keep ? &res : NULL);
    if (!agree_all(r->ctx.comm, !keep || engine_keep(r, &res, &e))) {
        agree_report(r->ctx.comm, &e, r->run->world_rank, stderr, NULL);
        status = ENGINE_IO_FAILED;
    }
    if (r->out)
        fflush(r->out);
    free(r->buf_base);
    r->buf_base = NULL;
    r->buf = NULL;
    if (r->plan.ops && r->run->session.pattern->plan_release)
        r->run->session.pattern->plan_release(&r->plan);
    memset(&r->plan, 0, sizeof r->plan);
    free(r->lat);
    r->lat = NULL;
    free(r->tlog);
    r->tlog = NULL;
    return status;
}

/* Collective over comm (the processes of this count): its run points, in
 * order. */
static int engine_count(const struct run *run, const struct backend_ops *const ops[API_COUNT],
                        MPI_Comm comm, const struct session_count *k, struct results_log *log,
                        struct progress *progress)
{
    const struct config *c = &run->cfg;
    const struct pattern_report *rep = run->session.pattern->report;
    struct point_run r = {.run = run, .progress = progress};
    r.ctx = (struct backend_ctx){.comm = comm, .info = run->info, .set = &r.set};
    MPI_Comm_rank(comm, &r.ctx.rank);
    MPI_Comm_size(comm, &r.ctx.nprocs);
    r.out = r.ctx.rank == 0 ? run->report : NULL;
    r.log = r.ctx.rank == 0 ? log : NULL;
    if (r.out && rep->nprocs_begin)
        rep->nprocs_begin(r.out, c, k->nprocs);
    int status = ENGINE_OK;
    for (int i = k->first; i < k->first + k->n; i++) {
        const struct session_point *sp = &run->session.points[i];
        if (r.out && rep->point_begin)
            rep->point_begin(r.out, c, i > k->first ? &sp[-1].p : NULL, &sp->p);
        engine_point(&r, ops, sp);
        int st = engine_point_run(&r);
        status = st > status ? st : status;
        if (st == ENGINE_IO_FAILED)
            break;
    }
    if (r.out && r.log && rep->nprocs_end)
        rep->nprocs_end(r.out, c, r.log, k->nprocs);
    if (r.out && r.log) {
        struct report_settings rs;
        config_report_settings(c, &rs);
        measures_text(r.out, &rs, r.log, k->nprocs);
    }
    return status;
}

int engine_run(const struct run *run, const struct backend_ops *const ops[API_COUNT],
               struct results_log *log)
{
    int status = ENGINE_OK;
    struct progress progress;
    progress_init(&progress, &run->session, run->cfg.progress && run->world_rank == 0, stderr);
    for (int k = 0; k < run->session.ncounts; k++) {
        const struct session_count *sc = &run->session.counts[k];
        MPI_Comm comm;
        int color = run->world_rank < sc->nprocs ? 0 : MPI_UNDEFINED;
        MPI_Comm_split(MPI_COMM_WORLD, color, run->world_rank, &comm);
        int mine = ENGINE_OK, all = ENGINE_OK;
        if (comm != MPI_COMM_NULL) {
            mine = engine_count(run, ops, comm, sc, log, &progress);
            MPI_Comm_free(&comm);
        }
        /* Processes outside this run learn how it ended. */
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        status = all > status ? all : status;
        if (all == ENGINE_IO_FAILED)
            break;
    }
    if (status == ENGINE_IO_FAILED)
        files_remove_all(run->world_rank == 0);
    progress_end(&progress);
    return status == ENGINE_OK ? EXIT_OK : EXIT_RUN_FAILED;
}
