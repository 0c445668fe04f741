/* engine_file(): the phases of one file of an iteration (write, read
 * back, the checks after a write) and the report of data that did not
 * verify; engine.c's loops call it (engine_point.h). */
#include "engine/engine_point.h"

#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>

#include "engine/agree.h"
#include "engine/files.h"
#include "engine/sink.h"
#include "engine/watchdog.h"

/* What the file at path must hold after its write phase, if every byte
 * written reached it: a flat file exactly its data, a file of a backend
 * with written_end the end its layout gives. ENGINE_SIZE_UNCHECKED where
 * neither tells (HDF5; a PnetCDF file without data); ENGINE_SIZE_UNREADABLE
 * with why when the backend cannot read the file back. */
#define ENGINE_SIZE_UNCHECKED  (-1)
#define ENGINE_SIZE_UNREADABLE (-2)
static int64_t engine_written_size(const struct point_run *r, int phase, const char *path,
                                   int64_t flat_end, char *why, size_t len)
{
    int64_t own = r->plan.phase_flat_bytes[phase];
    if (r->ops->desc->caps & API_CAP_FLAT_FILE)
        return flat_end >= 0            ? flat_end
               : own > 0                ? own
               : own == PLAN_FLAT_EMPTY ? 0
                                        : r->plan.flat_bytes;
    /* A stonewalled write leaves the library's layout partly unwritten;
     * a file of which no byte of data is written yet holds what the
     * library writes alone (its header), which no plan knows. */
    if (!r->ops->written_end || flat_end >= 0 || own == PLAN_FLAT_EMPTY)
        return ENGINE_SIZE_UNCHECKED;
    /* It reads the file back through the library: watched as a call. */
    watchdog_enter(r->ops->desc->err_name, "size check", path, 0);
    int64_t end = r->ops->written_end(path, why, len);
    watchdog_leave();
    return end < 0    ? ENGINE_SIZE_UNREADABLE
           : end == 0 ? ENGINE_SIZE_UNCHECKED
                      : end - r->plan.unwritten_tail - r->plan.phase_unwritten_tail[phase];
}

/* Collective, after a write phase, outside every timer: process 0 looks at
 * the file once. Its identity goes to every process's registry, so that a
 * cleanup process removes this file and no other of the name (files.h).
 * Its size must be engine_written_size() (flat_end >= 0: the end of what a
 * stonewalled write wrote): MPI-IO libraries can lose data while reporting
 * success (ompio's collective writes on a full disk). */
static bool engine_after_write(const struct point_run *r, int phase, int slot, const char *path,
                               int64_t flat_end, struct err *e)
{
    uint64_t v[4] = {0, 0, 0, 0}; /* identified, device, inode, failed */
    if (r->fctx.rank == 0) {
        const char *api = r->ops->desc->err_name;
        struct stat st;
        if (stat(path, &st) < 0) {
            if (r->ops->desc->caps & API_CAP_FLAT_FILE)
                err_errno(e, api, "check size of", path, -1, -1, errno);
        } else {
            v[0] = 1;
            v[1] = (uint64_t)st.st_dev;
            v[2] = (uint64_t)st.st_ino;
            char why[256];
            int64_t want = engine_written_size(r, phase, path, flat_end, why, sizeof why);
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
    if (r->plan.per_process) {
        if (v[0])
            files_identify(slot, v[1], v[2]);
        return agree_all(r->ctx.comm, !v[3]);
    }
    MPI_Bcast(v, 4, MPI_UINT64_T, 0, r->ctx.comm);
    if (v[0])
        files_identify(slot, v[1], v[2]);
    return !v[3];
}

/* -D 4: the pattern's line of a phase. */
static void engine_debug_line(const struct point_run *r, int phase, FILE *dbg)
{
    const struct pattern_desc *pd = r->run->session.pattern;
    char line[512] = "";
    if (r->run->cfg.debug_level < 4 || !pd->debug_line)
        return;
    pd->debug_line(&r->plan, phase, r->run->world_rank, line, sizeof line);
    fputs(line, dbg);
}

/* Collective: one write phase of a file and what follows it outside the
 * timers: the stonewall's account, the size check, the repetition's
 * throughput. Returns false after an error. */
static bool engine_write_once(struct point_run *r, struct phase_io *io, double *t,
                              struct verify_state *v, struct err *e)
{
    double rt[PHASE_TIMERS] = {0};
    bool ok = phase_run(io, rt, v, e);
    for (int i = 0; i < PHASE_TIMERS; i++)
        t[i] += rt[i];
    r->moved[0] += io->moved;
    int64_t flat_end = -1;
    if (ok && io->deadline) {
        struct phase_deadline *dl = io->deadline;
        measure_stonewall(r->ctx.comm, &r->plan, io->phase, dl, &r->sw);
        r->written = dl->done;
        int64_t mine = plan_flat_end(&r->plan, io->phase, &dl->done);
        MPI_Allreduce(&mine, &flat_end, 1, MPI_INT64_T, MPI_MAX, r->fctx.comm);
    }
    /* A file held open is checked after its close (engine_file). */
    if (!ok || (!io->hold && !engine_after_write(r, io->phase, io->slot, io->path, flat_end, e)))
        return false;
    if (r->run->cfg.duration > 0)
        measure_repeat(r->ctx.comm, rt[PHASE_GROSS], r->sp->m.phase_bytes / r->plan.nfiles,
                       &r->reps);
    return true;
}

/* Collective: a file's write phase, once, up to --stonewall, or repeated
 * until --duration has passed (process 0's clock decides, after each
 * repetition), each repetition a new file or the same rewritten
 * (--repeat). */
static bool engine_write(struct point_run *r, struct phase_io *io, double *t,
                         struct verify_state *v, struct err *e)
{
    const struct config *c = &r->run->cfg;
    struct phase_deadline dl = {.seconds = c->stonewall};
    io->deadline = c->stonewall > 0 ? &dl : NULL;
    r->written = (struct plan_extent){-1, 0};
    double start = io->clock();
    bool again = io->rewrite; /* a phase before this one wrote the file */
    for (int rep = 0;; rep++) {
        io->rewrite = again || (rep > 0 && c->repeat == REPEAT_OVERWRITE);
        if (!engine_write_once(r, io, t, v, e))
            return false;
        int more = c->duration > 0 && io->clock() - start < c->duration;
        if (c->duration > 0)
            MPI_Bcast(&more, 1, MPI_INT, 0, r->ctx.comm);
        if (!more)
            break;
    }
    io->deadline = NULL;
    io->rewrite = false;
    return true;
}

/* One file's phases in order (writing ones unless --read-only, reading
 * ones unless -w; a read reads what the write wrote; a writing phase after
 * one that wrote opens the file to write it again); false when one failed. */
static bool engine_phases(struct point_run *r, struct phase_io *io, double *t,
                          struct verify_state *v, struct err *e, FILE *dbg)
{
    const struct config *c = &r->run->cfg;
    r->written = (struct plan_extent){-1, 0};
    bool wrote = false;
    for (int ph = 0; ph < r->plan.nphases; ph++) {
        const struct plan_phase *p = &r->plan.phases[ph];
        if (p->write ? c->read_only : c->write_only)
            continue;
        io->phase = ph;
        io->verify = c->debug_verify;
        io->seen = r->io_mode ? &r->seen[p->write ? 0 : 1] : NULL;
        io->lat = r->lat;
        io->tlog = r->tlog;
        io->extent = p->write ? NULL : &r->written;
        io->rewrite = wrote && p->write;
        engine_debug_line(r, ph, dbg);
        if (p->write && !engine_write(r, io, t + p->slot * PHASE_TIMERS, v, e))
            return false;
        wrote |= p->write;
        if (!p->write && !phase_run(io, t + p->slot * PHASE_TIMERS, v, e))
            return false;
        if (!p->write)
            r->moved[1] += io->moved;
    }
    return true;
}

/* The last phase of the plan that writes and runs (-1: none). */
static int engine_last_write(const struct point_run *r)
{
    int last = -1;
    for (int ph = 0; ph < r->plan.nphases && !r->run->cfg.read_only; ph++)
        if (r->plan.phases[ph].write)
            last = ph;
    return last;
}

/* One file: its phases, then cleanup (which leaves alone a file this run
 * did not create). A plan whose barriers may be a group's (plan.h,
 * barrier_group) has its group's communicator while the phases run. A
 * plan that opens its files once (plan.h, open_once) holds the file from
 * its first phase to its close after the last, and the file's size is
 * checked after that close, as the last write phase leaves it. */
bool engine_file(struct point_run *r, int slot, double *t, struct verify_state *v, struct err *e,
                 FILE *dbg)
{
    struct phase_io io = {.ops = r->ops,
                          .ctx = &r->fctx,
                          .plan = &r->plan,
                          .slot = slot,
                          .path = files_path(slot),
                          .buf = r->buf,
                          .overwrite = r->run->cfg.overwrite,
                          .agree = r->ctx.comm,
                          .group = MPI_COMM_NULL,
                          .hold = r->plan.open_once && r->ops->next_phase,
                          .clock = r->run->clock};
    if (r->plan.barrier_group > 0)
        MPI_Comm_split(r->ctx.comm, r->ctx.rank / r->plan.barrier_group, r->ctx.rank, &io.group);
    bool ok = engine_phases(r, &io, t, v, e, dbg);
    ok = phase_release(&io, e) && ok;
    int last = engine_last_write(r);
    if (ok && io.hold && last >= 0)
        ok = engine_after_write(r, last, slot, io.path, -1, e);
    if (io.group != MPI_COMM_NULL)
        MPI_Comm_free(&io.group);
    if (!ok)
        return false;
    MPI_Barrier(r->ctx.comm);
    files_remove(slot, r->plan.per_process || r->ctx.rank == 0);
    return true;
}

/* Collective: one line per process whose data did not verify, to stderr. */
void engine_report_mismatch(const struct point_run *r, const struct verify_state *v, int iteration)
{
    char line[4800] = "";
    if (v->bad)
        snprintf(line, sizeof line,
                 "h5perf: rank %d: verify '%s' (%s, %d processes, %s, iteration %d): %" PRId64
                 " bytes differ, the first at offset %" PRId64 ": expected %u, found %u\n",
                 r->run->world_rank, v->path, r->ops->desc->err_name, r->ctx.nprocs,
                 r->sp->label_exact, iteration, v->bad, v->first_offset, v->expected, v->found);
    sink_gather(r->ctx.comm, line, stderr, NULL);
}
