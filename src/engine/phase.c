/* phase_run(): open, variables, steps, close, timed per docs/original.md
 * §6.1. Rules that keep collective calls matched after a local error: agree
 * after open, and after each variable begin when variables or transfers
 * are collective; a process whose transfer failed stops transferring unless
 * transfers are collective, but always ends its variables and closes.
 * Filling and poisoning the buffer, verification, and the backend's account
 * of what its library did (io_mode) are subtracted from every running
 * timer. */
#include "engine/phase.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/agree.h"
#include "engine/files.h"
#include "engine/watchdog.h"

static bool phase_writes(const struct phase_io *io)
{
    return io->plan->phases[io->phase].write;
}

/* Checks every byte step s read; records the first mismatch. */
static void phase_verify(const struct phase_io *io, const struct plan_step *s,
                         struct verify_state *v)
{
    int64_t off = 0;
    unsigned char want = 0, got = 0;
    int64_t bad = io->plan->ops->verify(io->plan, io->phase, s, io->buf, &off, &want, &got);
    if (bad == 0)
        return;
    if (v->bad == 0) {
        v->first_offset = plan_step_file_offset(s, off);
        v->expected = want;
        v->found = got;
        snprintf(v->path, sizeof v->path, "%s", io->path);
    }
    v->bad += bad;
}

/* A read through an API whose library may return from a read without the
 * data and without an error (API_CAP_QUIET_SHORT_READ; HDF5 fills what it
 * missed with zeros) is probed: its buffer is poisoned first (outside the
 * timers, as for -D v; every byte the complement of what the file holds,
 * plan.h), and after each step PHASE_PROBES bytes spread over it, its
 * last included, must hold what the file holds. A probe goes to a byte
 * whose value is not zero where one is near, so that zeros are seen. */
#define PHASE_PROBES      64
#define PHASE_PROBE_REACH 16

static bool phase_probed(const struct phase_io *io)
{
    return !phase_writes(io) && !io->verify && (io->ops->desc->caps & API_CAP_QUIET_SHORT_READ);
}

/* The probes of step s: their buffer offsets into at, the bytes the file
 * holds there into want; how many. */
static int phase_probe_at(const struct phase_io *io, const struct plan_step *s,
                          int64_t at[PHASE_PROBES], unsigned char want[PHASE_PROBES])
{
    int n = 0;
    const unsigned char *b = io->buf + s->mem_off;
    int64_t stride = s->bytes / PHASE_PROBES + 1;
    for (int64_t end = s->bytes - 1; end >= 0 && n < PHASE_PROBES; end -= stride, n++) {
        int64_t off = end;
        for (int64_t k = end; k >= 0 && k > end - PHASE_PROBE_REACH && k > end - stride; k--)
            if (b[k] != 0xff) { /* the file holds ~b[k]: not zero */
                off = k;
                break;
            }
        at[n] = off;
        want[n] = (unsigned char)~b[off];
    }
    return n;
}

/* After a step that reported success: does every probe hold its byte? */
static int phase_probe_check(const struct phase_io *io, const struct plan_step *s, int n,
                             const int64_t *at, const unsigned char *want, struct err *e)
{
    bool flat = io->ops->desc->caps & API_CAP_FLAT_FILE;
    for (int i = 0; i < n; i++) {
        unsigned char got = io->buf[s->mem_off + at[i]];
        int64_t pos = plan_step_file_offset(s, at[i]);
        if (got != want[i])
            /* In a flat file (MPI-IO) the data's position is the file's
             * offset; otherwise the library places the data itself, and
             * the position is the data's (the variables one after the
             * other, in C order). */
            return err_set(e, io->ops->desc->err_name, "read", io->path, flat ? pos : -1,
                           flat ? -1 : s->bytes,
                           "the call reported success, but byte %" PRId64
                           " of the data holds 0x%02x, not the file's 0x%02x (a short read the "
                           "library did not report?)",
                           pos, got, want[i]);
    }
    return 0;
}

/* Collective: agree on ok, arming the watchdog first if this process failed
 * (the others may be stuck in a collective call it skipped). */
static bool phase_agree(const struct phase_io *io, bool ok, const struct err *e)
{
    if (e->set)
        watchdog_arm(e);
    return agree_all(io->agree, ok && !e->set);
}

/* The watchdog's account of the library call about to be made: what it is
 * and how many bytes it may move (all processes' when collective). */
static void phase_enter(const struct phase_io *io, const char *op, int64_t bytes)
{
    watchdog_enter(io->ops->desc->err_name, op, io->path, bytes);
}

static bool phase_open(const struct phase_io *io, struct backend_file **f, struct err *e)
{
    bool may_truncate = false, write = phase_writes(io);
    if (write) {
        may_truncate = io->overwrite || files_contains(io->slot);
        files_add(io->slot, io->ctx->nprocs == 1);
    }
    phase_enter(io, write ? "create" : "open", 0);
    bool ok = io->ops->open(f, io->ctx, io->path, write ? BACKEND_WRITE : BACKEND_READ,
                            may_truncate, io->plan, e) == 0;
    watchdog_leave();
    if (!ok && e->exists && write)
        files_forget(io->slot); /* someone else's file: never ours to remove */
    return phase_agree(io, ok, e);
}

/* A step that is not I/O: busy work, a barrier, or the token of processes
 * that take turns. */
static void phase_pause(const struct phase_io *io, const struct plan_step *s)
{
    int rank = io->ctx->rank, n = io->ctx->nprocs, token = 0;
    switch (s->kind) {
    case PLAN_STEP_COMPUTE: {
        double end = MPI_Wtime() + s->seconds;
        while (MPI_Wtime() < end)
            ;
        break;
    }
    case PLAN_STEP_BARRIER:
        MPI_Barrier(io->agree);
        break;
    case PLAN_STEP_TOKEN_WAIT:
        if (rank > 0)
            MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, io->agree, MPI_STATUS_IGNORE);
        break;
    case PLAN_STEP_TOKEN_PASS:
        if (rank + 1 < n)
            MPI_Send(&token, 1, MPI_INT, rank + 1, 0, io->agree);
        break;
    default:
        break;
    }
}

/* The steps of variable v; returns the seconds spent poisoning, verifying
 * and noting what the library did. */
static double phase_steps(const struct phase_io *io, struct backend_file *f, int v,
                          const struct plan_access *acc, struct verify_state *vs, struct err *e)
{
    bool collective_io = io->ctx->set->collective && (io->ops->desc->caps & API_CAP_COLLECTIVE_IO);
    bool check = io->verify && !phase_writes(io), probed = phase_probed(io);
    const char *op = phase_writes(io) ? "write" : "read";
    int64_t at[PHASE_PROBES];
    unsigned char want[PHASE_PROBES];
    int nprobes = 0;
    double excluded = 0;
    struct plan_step s;
    for (int64_t k = 0; k < acc->nsteps; k++) {
        if (e->set && !collective_io)
            break;
        plan_step(io->plan, io->phase, v, k, &s);
        if (s.kind != PLAN_STEP_IO) {
            phase_pause(io, &s);
            continue;
        }
        /* Outside the timers: a verified read starts from a buffer that
         * holds none of the expected bytes (poisoned per variable where
         * the content differs between them, phase_prepare()). */
        if ((check || probed) && !io->plan->fill_per_var) {
            double t0 = MPI_Wtime();
            io->plan->ops->fill(io->plan, io->phase, v, io->buf, true);
            excluded += MPI_Wtime() - t0;
        }
        if (probed)
            nprobes = phase_probe_at(io, &s, at, want);
        phase_enter(io, op, s.bytes * (collective_io ? io->ctx->nprocs : 1));
        int rc = io->ops->transfer(f, &s, io->buf + s.mem_off, e);
        watchdog_leave();
        if (rc == 0 && probed)
            rc = phase_probe_check(io, &s, nprobes, at, want, e);
        if (rc < 0) {
            /* Collective transfers go on after an error; a library may not. */
            watchdog_arm(e);
            continue;
        }
        /* What the library did with it: a few property look-ups (about a
         * microsecond with HDF5), kept out of the timers all the same. */
        if (io->seen) {
            double t0 = MPI_Wtime();
            if (io->ops->io_mode(f, io->seen, e) < 0)
                watchdog_arm(e);
            excluded += MPI_Wtime() - t0;
        }
        if (!check)
            continue;
        double t0 = MPI_Wtime();
        phase_verify(io, &s, vs);
        excluded += MPI_Wtime() - t0;
    }
    return excluded;
}

static void phase_end_var(const struct phase_io *io, struct backend_file *f, struct err *e)
{
    phase_enter(io, "end dataset", io->plan->flat_bytes);
    io->ops->var_end(f, e);
    watchdog_leave();
}

/* A close may flush the whole file (--fsync, or the library's cache). */
static void phase_close(const struct phase_io *io, struct backend_file *f, struct err *e)
{
    phase_enter(io, "close", io->plan->flat_bytes);
    io->ops->close(f, e);
    watchdog_leave();
}

/* Collective over io->agree where the buffer's content differs between
 * variables (fill_per_var): the buffer of variable v (its content to write,
 * or poison before a verified read), then, from the second variable on, a
 * barrier. Each process's I/O is timed without this work; were the
 * processes let go one by one after it, their transfers to a shared file
 * would overlap less than the bare calls' and the slowest process's time
 * would flatter the run (docs/performance.md). Variable 0's is done before
 * the phase's own barrier. Elsewhere, a write's buffer is filled once, here.
 * Returns the seconds spent. */
static double phase_prepare(const struct phase_io *io, int v)
{
    double t0 = MPI_Wtime();
    bool write = phase_writes(io);
    if (!io->plan->fill_per_var) {
        if (v == 0 && write)
            io->plan->ops->fill(io->plan, io->phase, 0, io->buf, false);
        return MPI_Wtime() - t0;
    }
    if (write || io->verify || phase_probed(io))
        io->plan->ops->fill(io->plan, io->phase, v, io->buf, !write);
    if (v > 0)
        MPI_Barrier(io->agree);
    return MPI_Wtime() - t0;
}

bool phase_run(const struct phase_io *io, double *t, struct verify_state *v, struct err *e)
{
    struct backend_file *f = NULL;
    unsigned caps = io->ops->desc->caps;
    bool collective_io = io->ctx->set->collective && (caps & API_CAP_COLLECTIVE_IO);
    phase_prepare(io, 0);
    MPI_Barrier(io->agree);
    double t_open = MPI_Wtime();
    if (!phase_open(io, &f, e)) {
        phase_close(io, f, e);
        return false;
    }
    double t_fine = MPI_Wtime(), excluded = 0;
    for (int d = 0; d < io->plan->nvars; d++) {
        struct plan_access acc;
        if (d > 0)
            excluded += phase_prepare(io, d);
        plan_access(io->plan, io->phase, d, &acc);
        /* A variable whose begin is collective for this API: HDF5's and
         * PnetCDF's datasets, a flat API's file view. */
        bool var_collective = (caps & API_CAP_COLLECTIVE_DSET) ||
                              (acc.view_any && (collective_io || !acc.split_runs));
        phase_enter(io, "begin dataset", io->plan->flat_bytes);
        bool ok = io->ops->var_begin(f, d, &acc, e) == 0;
        watchdog_leave();
        if ((var_collective || collective_io) && !phase_agree(io, ok, e)) {
            phase_end_var(io, f, e);
            break;
        }
        double t_raw = MPI_Wtime(), x = 0;
        if (ok)
            x = phase_steps(io, f, d, &acc, v, e);
        t[PHASE_RAW] += MPI_Wtime() - t_raw - x;
        excluded += x;
        if (e->set && var_collective)
            watchdog_arm(e);
        phase_end_var(io, f, e);
        if (e->set && !var_collective)
            break;
    }
    double t_close = MPI_Wtime();
    if (e->set)
        watchdog_arm(e);
    phase_close(io, f, e);
    double t_end = MPI_Wtime();
    t[PHASE_GROSS] += t_end - t_open - excluded;
    t[PHASE_FINE] += t_close - t_fine - excluded;
    t[PHASE_OPEN] += t_fine - t_open;
    t[PHASE_CLOSE] += t_end - t_close;
    return phase_agree(io, true, e);
}
