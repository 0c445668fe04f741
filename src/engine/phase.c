/* phase_run(): open, datasets, transfers, close, timed per
 * docs/original.md §6.1. Rules that keep collective calls matched after a
 * local error: agree after open, and after each dataset begin when datasets or
 * transfers are collective; a process whose transfer failed stops transferring
 * unless transfers are collective, but always ends its datasets and closes.
 * Verification time, and the backend's account of what its library did
 * (io_mode), are subtracted from every running timer. */
#include "engine/phase.h"

#include <string.h>

#include "engine/agree.h"
#include "engine/files.h"
#include "engine/watchdog.h"

/* Checks every byte of read transfer k of dataset d; records the first
 * mismatch. */
static void phase_verify(const struct phase_io *io, int d, int64_t k, struct verify_state *v)
{
    struct pattern_mismatch m;
    if (pattern_verify(io->pt, d, k, io->buf, &m) == 0)
        return;
    if (v->bad == 0) {
        v->first_offset = pattern_var_base(io->pt, d) + pattern_file_offset(io->pt, k, m.mem_off);
        v->expected = m.expected;
        v->found = m.found;
        snprintf(v->path, sizeof v->path, "%s", io->path);
    }
    v->bad += m.bad;
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
    bool may_truncate = false;
    if (io->mode == BACKEND_WRITE) {
        may_truncate = io->overwrite || files_contains(io->slot);
        files_add(io->slot, io->ctx->nprocs == 1);
    }
    phase_enter(io, io->mode == BACKEND_WRITE ? "create" : "open", 0);
    bool ok = io->ops->open(f, io->ctx, io->path, io->mode, may_truncate, e) == 0;
    watchdog_leave();
    if (!ok && e->exists && io->mode == BACKEND_WRITE)
        files_forget(io->slot); /* someone else's file: never ours to remove */
    return phase_agree(io, ok, e);
}

/* The transfers of one dataset; returns the seconds spent verifying and
 * noting what the library did. */
static double phase_dataset(const struct phase_io *io, struct backend_file *f, int d,
                            struct verify_state *v, struct err *e)
{
    bool collective_io = io->ctx->set->collective && (io->ops->desc->caps & API_CAP_COLLECTIVE_IO);
    bool check = io->verify && io->mode == BACKEND_READ;
    int64_t moved = io->pt->xfer_bytes * (collective_io ? io->ctx->nprocs : 1);
    const char *op = io->mode == BACKEND_WRITE ? "write" : "read";
    double excluded = 0;
    for (int64_t k = 0; k < io->pt->ntransfers; k++) {
        if (e->set && !collective_io)
            break;
        /* Outside the timers: a verified read starts from a buffer that
         * holds none of the expected bytes (the block pattern's is
         * prepared per dataset, phase_prepare()). */
        if (check && !io->fill_each) {
            double t0 = MPI_Wtime();
            pattern_poison(io->pt, d, io->buf);
            excluded += MPI_Wtime() - t0;
        }
        phase_enter(io, op, moved);
        int rc = io->ops->transfer(f, k, io->buf, e);
        watchdog_leave();
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
        phase_verify(io, d, k, v);
        excluded += MPI_Wtime() - t0;
    }
    return excluded;
}

static void phase_end_dataset(const struct phase_io *io, struct backend_file *f, struct err *e)
{
    phase_enter(io, "end dataset", io->pt->dset_bytes);
    io->ops->dset_end(f, e);
    watchdog_leave();
}

/* A close may flush the whole file (--fsync, or the library's cache). */
static void phase_close(const struct phase_io *io, struct backend_file *f, struct err *e)
{
    phase_enter(io, "close", (int64_t)io->num_dsets * io->pt->dset_bytes);
    io->ops->close(f, e);
    watchdog_leave();
}

/* Collective over io->agree, the block pattern: the buffer of dataset d
 * (its variable's content to write, or poison before a verified read),
 * then, from the second dataset on, a barrier. Each process's I/O is timed
 * without this work; were the processes let go one by one after it, their
 * transfers to a shared file would overlap less than the bare calls' and
 * the slowest process's time would flatter the run (docs/performance.md).
 * Dataset 0's is done before the phase's own barrier. Returns the seconds
 * spent. */
static double phase_prepare(const struct phase_io *io, int d)
{
    double t0 = MPI_Wtime();
    if (io->mode == BACKEND_WRITE)
        pattern_fill(io->pt, d, io->buf);
    else if (io->verify)
        pattern_poison(io->pt, d, io->buf);
    if (d > 0)
        MPI_Barrier(io->agree);
    return MPI_Wtime() - t0;
}

bool phase_run(const struct phase_io *io, double *t, struct verify_state *v, struct err *e)
{
    struct backend_file *f = NULL;
    unsigned caps = io->ops->desc->caps;
    /* The block pattern's MPI-IO sets a view per dataset: collective too. */
    bool dset_collective = (caps & API_CAP_COLLECTIVE_DSET) || io->pt->whole;
    bool agree_dsets =
        dset_collective || (io->ctx->set->collective && (caps & API_CAP_COLLECTIVE_IO));
    if (io->fill_each)
        phase_prepare(io, 0);
    MPI_Barrier(io->agree);
    double t_open = MPI_Wtime();
    if (!phase_open(io, &f, e)) {
        phase_close(io, f, e);
        return false;
    }
    double t_fine = MPI_Wtime(), excluded = 0;
    for (int d = 0; d < io->num_dsets; d++) {
        if (io->fill_each && d > 0)
            excluded += phase_prepare(io, d);
        phase_enter(io, "begin dataset", io->pt->dset_bytes);
        bool ok = io->ops->dset_begin(f, d, io->pt, e) == 0;
        watchdog_leave();
        if (agree_dsets && !phase_agree(io, ok, e)) {
            phase_end_dataset(io, f, e);
            break;
        }
        double t_raw = MPI_Wtime(), x = 0;
        if (ok)
            x = phase_dataset(io, f, d, v, e);
        t[PHASE_RAW] += MPI_Wtime() - t_raw - x;
        excluded += x;
        if (e->set && dset_collective)
            watchdog_arm(e);
        phase_end_dataset(io, f, e);
        if (e->set && !dset_collective)
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
