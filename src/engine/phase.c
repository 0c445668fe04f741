/* phase_run(): open, variables, steps, close, timed per docs/original.md
 * §6.1. Rules that keep collective calls matched after a local error: agree
 * after open, and after each variable begin when variables or transfers
 * are collective; a process whose transfer failed stops transferring unless
 * transfers are collective, but goes on beginning and ending the
 * variables until the processes agree to stop, and closes.
 * Filling and poisoning the buffer, verification, and the backend's account
 * of what its library did (io_mode) are subtracted from every running
 * timer. */
#include "engine/phase.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "engine/agree.h"
#include "engine/files.h"
#include "engine/watchdog.h"

/* The file held since an earlier phase goes on into this one, in the
 * mode its open would have (a write after a write rewrites). */
static bool phase_next(struct phase_io *io, struct backend_file **f, struct err *e)
{
    *f = io->file;
    io->file = NULL;
    enum backend_mode mode = phase_writes(io) ? BACKEND_REWRITE : BACKEND_READ;
    phase_enter(io, "open", 0);
    bool ok = io->ops->next_phase(*f, mode, e) == 0;
    watchdog_leave();
    return phase_agree(io, ok, e);
}

static bool phase_open(const struct phase_io *io, struct backend_file **f, struct err *e)
{
    bool may_truncate = false, write = phase_writes(io);
    enum backend_mode mode = io->rewrite ? BACKEND_REWRITE : write ? BACKEND_WRITE : BACKEND_READ;
    if (write && !io->rewrite) {
        may_truncate = io->overwrite || files_contains(io->slot);
        files_add(io->slot, io->ctx->nprocs == 1);
    }
    phase_enter(io, mode == BACKEND_WRITE ? "create" : "open", 0);
    double t0 = io->clock();
    bool ok = io->ops->open(f, io->ctx, io->path, mode, may_truncate, io->plan, e) == 0;
    latency_record(phase_lat(io, write, LATENCY_OPEN), io->clock() - t0);
    watchdog_leave();
    if (!ok && e->exists && mode == BACKEND_WRITE)
        files_forget(io->slot); /* someone else's file: never ours to remove */
    /* The files the library made beside it go with it (files.h). */
    _Static_assert(BACKEND_SIDE_MAX <= FILES_SIDE_MAX, "engine/files.h: FILES_SIDE_MAX");
    char side[BACKEND_SIDE_MAX] = "";
    if (ok && mode == BACKEND_WRITE && io->ops->side_name)
        io->ops->side_name(*f, side, sizeof side);
    if (side[0])
        files_side(io->slot, side);
    return phase_agree(io, ok, e);
}

/* Before an I/O step of a write phase with a deadline: has it passed for
 * this process (collective transfers and pauses: process 0's answer for
 * all)? The first time it has, the process's account of its stop. *now:
 * the clock it read. */
static bool phase_deadline_passed(const struct phase_io *io, int64_t calls, double start,
                                  bool lockstep, double *now)
{
    struct phase_deadline *dl = io->deadline;
    if (dl->stopped)
        return true;
    *now = io->clock();
    int up = *now - start >= dl->seconds;
    if (lockstep)
        MPI_Bcast(&up, 1, MPI_INT, 0, io->ctx->comm);
    if (up) {
        dl->stopped = true;
        dl->calls_before = calls;
        dl->stop_seconds = *now - start;
    }
    return up;
}

/* Where phase_steps() runs: steps k0 .. k1 - 1 of a variable; with a
 * deadline (start: the phase's), stopping before an I/O step once it has
 * passed. */
struct step_range {
    int64_t k0, k1;
    bool deadline;
    double start;
    int64_t *calls; /* this process's I/O calls in the phase */
    bool *halt;     /* out: the processes agreed at a pause that one failed */
};

/* The steps of variable v in range; returns the first step not made in
 * *done and the seconds spent poisoning, verifying and noting what the
 * library did. A transfer's latency runs from the clock read that ended
 * the work before it (the previous call, a pause, excluded work), one read
 * per call: it includes computing the step, a few dozen nanoseconds
 * (docs/measuring.md, "Latency"). */
static double phase_steps(struct phase_io *io, struct backend_file *f, int v,
                          const struct step_range *range, int64_t *done, struct verify_state *vs,
                          struct err *e)
{
    bool collective_io = phase_collective_io(io);
    bool lockstep = collective_io || io->plan->collective_pauses;
    bool probed = phase_probed(io);
    struct phase_probes probes;
    double excluded = 0, mark = io->clock();
    struct plan_step s;
    int64_t k = range->k0;
    /* With pauses, a process that failed walks on through them to the
     * next barrier, where every process learns of it (phase_pause). */
    bool pauses = io->plan->collective_pauses;
    for (; k < range->k1 && !*range->halt; k++) {
        if (e->set && !collective_io && !pauses)
            break;
        plan_step(io->plan, io->phase, v, k, &s);
        if (s.kind == PLAN_STEP_WAIT) {
            excluded += phase_wait(io, f, &s, &mark, vs, e);
            continue;
        }
        if (s.kind != PLAN_STEP_IO) {
            excluded += phase_pause(io, &s, &mark, e, range->halt);
            continue;
        }
        /* A nonblocking start's read is checked at its WAIT (its probes
         * are chosen here, from the poisoned buffer). */
        bool check = io->verify && !s.write && !s.nonblocking, probe = probed && !s.write;
        if (range->deadline &&
            phase_deadline_passed(io, *range->calls, range->start, lockstep, &mark))
            break;
        if (e->set && !collective_io)
            continue;
        /* Outside the timers, between two clock reads (each read costs
         * about as much as 3% of a 1 KiB read from the page cache, and
         * the time between two segments counts): a verified read starts
         * from a buffer that holds none of the expected bytes (poisoned
         * per variable where the content differs between them,
         * phase_prepare()); where to probe is chosen from it. */
        bool fill = (check || probe) && !io->plan->fill_per_var;
        if (fill || probe) {
            double t0 = io->clock();
            if (fill)
                io->plan->ops->fill(io->plan, io->phase, v, io->buf, true);
            if (probe)
                phase_probe_choose(&s, io->buf, s.nonblocking ? &io->pending : &probes);
            mark = io->clock();
            excluded += mark - t0;
        }
        phase_enter(io, s.write ? "write" : "read",
                    s.bytes * (collective_io ? io->ctx->nprocs : 1));
        int rc = io->ops->transfer(f, &s, io->buf + s.mem_off, e);
        double now = io->clock();
        bool full = latency_log_add(&io->tlog[s.write ? 0 : 1], now - mark);
        phase_count(io, &s, now - mark);
        mark = now;
        watchdog_leave();
        (*range->calls)++;
        if (full) {
            excluded += phase_flush_latency(io, &mark);
            now = mark;
        }
        /* Outside the timers, as the poisoning and the choice before it:
         * at 1 KiB a call, the check took as long as the read itself. */
        if (rc == 0 && probe && !s.nonblocking) {
            rc = phase_probe_check(io, &s, io->buf, &probes, e);
            mark = io->clock();
            excluded += mark - now;
        }
        if (rc < 0) {
            /* Collective transfers go on after an error; a library may not. */
            watchdog_arm(e);
            continue;
        }
        io->moved += s.bytes;
        /* What the library did with it: a few property look-ups (about a
         * microsecond with HDF5), kept out of the timers all the same. */
        if (io->seen) {
            double t0 = mark;
            if (io->ops->io_mode(f, io->seen, e) < 0)
                watchdog_arm(e);
            mark = io->clock();
            excluded += mark - t0;
        }
        if (!check)
            continue;
        double t1 = mark;
        phase_verify(io, &s, vs);
        mark = io->clock();
        excluded += mark - t1;
    }
    *done = k;
    return excluded + phase_flush_latency(io, &mark);
}

/* The steps of variable v in this phase: all, those of the extent (a read
 * after a stonewalled write), or those before the deadline and then, once
 * the processes agree on the most any made, the rest up to it (the
 * wear-out). Collective over io->agree with a deadline. Returns the
 * seconds excluded; *stop is true when the phase must begin no further
 * variable. */
static double phase_var_steps(struct phase_io *io, struct backend_file *f, int v,
                              const struct plan_access *acc, double start, int64_t *calls,
                              bool *stop, struct verify_state *vs, struct err *e)
{
    bool halt = false;
    struct step_range range = {0, acc->nsteps, io->deadline != NULL, start, calls, &halt};
    const struct plan_extent *x = io->extent;
    if (x && x->nvars >= 0 && v == x->nvars - 1 && x->last_steps < range.k1)
        range.k1 = x->last_steps;
    int64_t done = 0;
    double excluded = phase_steps(io, f, v, &range, &done, vs, e);
    *stop = halt;
    if (!io->deadline)
        return excluded;
    /* The most steps any process made, whether any stopped, any error. */
    if (e->set)
        watchdog_arm(e);
    int64_t mine[3] = {done, io->deadline->stopped, e->set}, most[3];
    MPI_Allreduce(mine, most, 3, MPI_INT64_T, MPI_MAX, io->agree);
    if (most[0] > done && !e->set) {
        struct step_range rest = {done, most[0], false, start, calls, &halt};
        excluded += phase_steps(io, f, v, &rest, &done, vs, e);
    }
    io->deadline->done = (struct plan_extent){v + 1, most[0]};
    *stop = most[1] || most[2] || halt;
    return excluded;
}

/* A close may flush the whole file (--fsync, or the library's cache). */
static void phase_close(const struct phase_io *io, struct backend_file *f, struct err *e)
{
    phase_enter(io, "close", io->plan->flat_bytes);
    double t0 = io->clock();
    io->ops->close(f, e);
    if (f)
        latency_record(phase_lat(io, phase_writes(io), LATENCY_CLOSE), io->clock() - t0);
    watchdog_leave();
}

/* Is the file system that holds path full (no block this process may
 * still write: root may use the blocks kept for it)? */
static bool phase_fs_full(const char *path)
{
    struct statvfs fs;
    if (statvfs(path, &fs) != 0)
        return false;
    return (geteuid() == 0 ? fs.f_bfree : fs.f_bavail) == 0;
}

/* Before the close of a write phase (or of a file held open since one,
 * phase_release) of an API whose close writes on every process of a
 * shared file (API_CAP_CLOSE_WRITES_EVERYWHERE: HDF5's metadata). On a
 * full disk those writes fail on some processes and not on others, and
 * HDF5 1.10's close then diverges inside the library (some processes in a
 * barrier of its metadata flush, the others in MPI_File_close's); the
 * library may also have reported a lost write as done (ompio under HDF5's
 * collective calls). So process 0 first looks
 * whether the file system is full (a failure of the phase if so), the
 * processes agree whether any failed, and if any did the file this run
 * created is emptied (its size kept, its blocks freed) by process 0 before
 * any process closes it: docs/design.md, "A failed phase's close". The run
 * has failed, so the file is removed afterwards (kept emptied with
 * HDF5_NOCLEANUP). Collective over the file's processes. */
static void phase_empty_failed(const struct phase_io *io, struct err *e)
{
    if (!(phase_writes(io) || io->held_wrote) ||
        !(io->ops->desc->caps & API_CAP_CLOSE_WRITES_EVERYWHERE) || io->ctx->nprocs < 2)
        return;
    if (io->ctx->rank == 0 && !e->set && phase_fs_full(io->path))
        err_set(e, io->ops->desc->err_name, "write", io->path, -1, -1,
                "the file system is full before the close (writes the library reported as "
                "done may have been lost)");
    if (e->set)
        watchdog_arm(e);
    if (agree_all(io->ctx->comm, !e->set))
        return;
    struct stat st;
    if (io->ctx->rank == 0 && files_contains(io->slot) && stat(io->path, &st) == 0 &&
        truncate(io->path, 0) == 0)
        (void)!truncate(io->path, st.st_size); /* a failure leaves it empty: no matter */
    MPI_Barrier(io->ctx->comm);
}

/* Collective: the close of the file a phase had open (its own, or one
 * held since an earlier phase), after the full-disk check before it. */
static void phase_end_file(struct phase_io *io, struct backend_file *f, struct err *e)
{
    phase_empty_failed(io, e);
    if (e->set)
        watchdog_arm(e);
    phase_close(io, f, e);
    io->held_wrote = false;
}

/* Collective over io->agree where the buffer's content differs between
 * variables (fill_per_var): the buffer of variable v (its content to write,
 * or poison before a read, through every API: the read then never pays
 * the first touch of its pages, docs/measuring.md "The transfer buffer"),
 * then, from the second variable on, a barrier. Each process's I/O is
 * timed without this work; were the processes let go one by one after
 * it, their transfers to a shared file
 * would overlap less than the bare calls' and the slowest process's time
 * would flatter the run (docs/performance.md). Variable 0's is done before
 * the phase's own barrier. Elsewhere, a write's buffer is filled once, here.
 * Returns the seconds spent. */
static double phase_prepare(const struct phase_io *io, int v)
{
    double t0 = io->clock();
    bool write = phase_writes(io);
    if (!io->plan->fill_per_var) {
        if (v == 0 && write)
            io->plan->ops->fill(io->plan, io->phase, 0, io->buf, false);
        return io->clock() - t0;
    }
    io->plan->ops->fill(io->plan, io->phase, v, io->buf, !write);
    if (v > 0)
        MPI_Barrier(io->agree);
    return io->clock() - t0;
}

bool phase_run(struct phase_io *io, double *t, struct verify_state *v, struct err *e)
{
    struct backend_file *f = NULL;
    bool collective_io = phase_collective_io(io);
    struct phase_deadline *dl = io->deadline;
    int nvars = io->plan->nvars;
    if (io->extent && io->extent->nvars >= 0 && io->extent->nvars < nvars)
        nvars = io->extent->nvars;
    if (dl) {
        dl->stopped = false;
        dl->done = (struct plan_extent){-1, 0};
    }
    io->moved = 0;
    io->t = t;
    phase_prepare(io, 0);
    bool joined = phase_joined(io);
    struct phase_join_arrays *arrays = NULL;
    if (joined && !phase_join_fill(io, &arrays, e)) {
        phase_join_free(arrays);
        return false;
    }
    MPI_Barrier(io->agree);
    double t_open = io->clock();
    if (io->file ? !phase_next(io, &f, e) : !phase_open(io, &f, e)) {
        phase_join_free(arrays);
        phase_close(io, f, e);
        return false;
    }
    double t_fine = io->clock(), excluded = 0;
    int64_t calls = 0;
    if (joined)
        excluded = phase_join(io, f, arrays, t, &calls, v, e);
    phase_join_free(arrays);
    for (int d = 0; !joined && d < nvars; d++) {
        struct plan_access acc;
        if (d > 0)
            excluded += phase_prepare(io, d);
        /* A begin that writes the variable on every process waits until
         * the processes agree that none failed before it: a process whose
         * transfer failed on a full disk would fail the fill too, and
         * HDF5 1.10.8 lets it leave the creation without the others
         * (docs/design.md, "A failed phase's close"). With a deadline
         * they agreed after the steps. */
        if (d > 0 && !dl && phase_begin_fills(io, d) && !phase_agree(io, true, e))
            break;
        plan_access(io->plan, io->phase, d, &acc);
        bool var_collective = phase_begin_collective(io, d, &acc, false);
        phase_enter(io, "begin dataset", io->plan->flat_bytes);
        bool ok = io->ops->var_begin(f, d, &acc, e) == 0;
        watchdog_leave();
        if ((var_collective || collective_io || dl) && !phase_agree(io, ok, e)) {
            phase_end_var(io, f, e);
            break;
        }
        double t_raw = io->clock(), x = 0;
        bool stop = false;
        if (ok)
            x = phase_var_steps(io, f, d, &acc, t_fine, &calls, &stop, v, e);
        t[PHASE_RAW] += io->clock() - t_raw - x;
        excluded += x;
        /* A process that failed goes on beginning the variables (without
         * their steps): the others may reach a collective begin (a file
         * view after variables without one) and its agreement, which
         * stops every process; alone, it would wait in the close. */
        if (e->set)
            watchdog_arm(e);
        phase_end_var(io, f, e);
        if (stop)
            break;
    }
    double t_close = io->clock(), t_end = t_close;
    /* A held file stays open once every process's phase succeeded. */
    bool held = io->hold && phase_agree(io, true, e);
    if (held) {
        io->file = f;
        io->held_wrote |= phase_writes(io);
    } else {
        phase_end_file(io, f, e);
        t_end = io->clock();
    }
    if (dl && !dl->stopped) {
        dl->calls_before = calls;
        dl->stop_seconds = t_close - t_fine - excluded;
    }
    if (dl)
        dl->calls = calls;
    t[PHASE_GROSS] += t_end - t_open - excluded;
    t[PHASE_FINE] += t_close - t_fine - excluded;
    t[PHASE_OPEN] += t_fine - t_open;
    t[PHASE_CLOSE] += t_end - t_close;
    return held || phase_agree(io, true, e);
}

bool phase_release(struct phase_io *io, struct err *e)
{
    if (!io->file)
        return true;
    struct backend_file *f = io->file;
    io->file = NULL;
    phase_end_file(io, f, e);
    return phase_agree(io, true, e);
}
