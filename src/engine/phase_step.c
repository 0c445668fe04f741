/* The work around a phase's calls that phase.c (one call per variable and
 * step) and phase_join.c (every variable's step in one call) both do: the
 * watchdog's account of a call, agreement, verification of what a step
 * read, the latencies' binning, the steps that are not I/O (pauses) and
 * the end of a variable. The rules are phase.c's (docs/design.md,
 * "Pauses"). */
#include "engine/phase.h"

#include <stdio.h>

#include "engine/agree.h"
#include "engine/watchdog.h"

/* Bins the transfers' times kept in io->tlog into their histograms;
 * returns the seconds it took, to be kept out of the timers as the
 * poisoning and the checks are (docs/performance.md, "The cost of
 * recording every call's latency"). *mark: the clock read after it,
 * unchanged (and no clock read) when both logs are empty. */
double phase_flush_latency(const struct phase_io *io, double *mark)
{
    if (io->tlog[0].n == 0 && io->tlog[1].n == 0)
        return 0;
    double t0 = io->clock();
    for (int w = 0; w < 2; w++)
        latency_log_flush(&io->tlog[w], phase_lat(io, w == 0, LATENCY_TRANSFER));
    *mark = io->clock();
    return *mark - t0;
}

/* Checks every byte step s read; records the first mismatch. */
void phase_verify(const struct phase_io *io, const struct plan_step *s, struct verify_state *v)
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

bool phase_collective_io(const struct phase_io *io)
{
    return io->ctx->set->collective && (io->ops->desc->caps & API_CAP_COLLECTIVE_IO);
}

bool phase_begin_collective(const struct phase_io *io, int d, const struct plan_access *acc,
                            bool joined)
{
    unsigned caps = io->ops->desc->caps;
    if ((caps & API_CAP_COLLECTIVE_DSET) || (d == 0 && (caps & API_CAP_COLLECTIVE_DEFINE)))
        return true;
    return !joined && acc->view_any && (phase_collective_io(io) || !acc->split_runs);
}

bool phase_begin_fills(const struct phase_io *io, int d)
{
    if (!(io->ops->desc->caps & API_CAP_FILLS_AT_CREATE) || !phase_writes(io))
        return false;
    struct plan_var var;
    plan_var(io->plan, d, &var);
    return var.library_fill && var.chunk[0] > 0;
}

/* Collective: agree on ok, arming the watchdog first if this process failed
 * (the others may be stuck in a collective call it skipped). */
bool phase_agree(const struct phase_io *io, bool ok, const struct err *e)
{
    if (e->set)
        watchdog_arm(e);
    return agree_all(io->agree, ok && !e->set);
}

/* The watchdog's account of the library call about to be made: what it is
 * and how many bytes it may move (all processes' when collective). */
void phase_enter(const struct phase_io *io, const char *op, int64_t bytes)
{
    watchdog_enter(io->ops->desc->err_name, op, io->path, bytes);
}

/* MADbench2's busy work: passes x width multiply-adds into a vector of
 * width doubles (docs/madbench.md), at most PHASE_BUSY_WIDTH of them kept
 * (a wider vector reuses them: the same operations). Every operand is
 * loaded and the sum stored each time, as in MADbench2's unoptimised loop,
 * so that no compiler folds or vectorises the loop away. */
#define PHASE_BUSY_WIDTH 4096
static void phase_busy(int64_t passes, int64_t width)
{
    volatile double a[PHASE_BUSY_WIDTH];
    volatile double b = 1.2, c = 3.4;
    int64_t kept = width < PHASE_BUSY_WIDTH ? width : PHASE_BUSY_WIDTH;
    for (int64_t m = 0; m < kept; m++)
        a[m] = 0.0;
    for (int64_t n = 0; n < passes; n++)
        for (int64_t left = width; left > 0; left -= PHASE_BUSY_WIDTH) {
            int64_t k = left < PHASE_BUSY_WIDTH ? left : PHASE_BUSY_WIDTH;
            for (int64_t m = 0; m < k; m++)
                a[m] += b * c;
        }
}

/* Counts seconds spent in step s: a read or write call, or a pause as the
 * plan says (plan_time). Returns the seconds to keep out of the phase's
 * other timers: busy work's. */
double phase_count(const struct phase_io *io, const struct plan_step *s, double seconds)
{
    bool busy =
        s->kind == PLAN_STEP_COMPUTE || (s->kind != PLAN_STEP_IO && s->time == PLAN_TIME_BUSY);
    if (busy) {
        io->t[PHASE_BUSY] += seconds;
        return seconds;
    }
    if (s->kind == PLAN_STEP_IO || s->time == PLAN_TIME_IO)
        io->t[s->write ? PHASE_WRITES : PHASE_READS] += seconds;
    return 0;
}

/* A step that is not I/O: busy work, a barrier, or the token of processes
 * that take turns, in groups of s->turns consecutive ranks of the run (the
 * agreement's communicator: every process of the run, whatever its file).
 * A barrier is where the processes agree on a failure (docs/design.md,
 * "Pauses"): *stop is set on every process when any has failed; a failed
 * process skips busy work and still takes its turn with the token, its
 * watchdog armed. Its time, from *mark (the end of the work before it) to
 * the clock read into *mark, is counted as the plan says; returns the
 * seconds to keep out of the phase's other timers. */
double phase_pause(const struct phase_io *io, const struct plan_step *s, double *mark,
                   const struct err *e, bool *stop)
{
    int rank = 0, n = 1, token = 0;
    MPI_Comm_rank(io->agree, &rank);
    MPI_Comm_size(io->agree, &n);
    int turns = s->turns > 0 ? s->turns : n;
    if (e->set)
        watchdog_arm(e);
    switch (s->kind) {
    case PLAN_STEP_COMPUTE: {
        if (e->set)
            break;
        /* Timed busy work reads the phase's clock, the one every timer
         * reads (docs/measuring.md, "The clock"). */
        double end = io->clock() + s->seconds;
        while (s->seconds > 0 && io->clock() < end)
            ;
        if (s->passes > 0 && s->width > 0)
            phase_busy(s->passes, s->width);
        break;
    }
    case PLAN_STEP_BARRIER:
        /* A group's barrier only waits for the group: a failed process
         * walks on to the next barrier of every process, where all learn
         * of it. */
        if (s->in_group && io->plan->barrier_group > 0)
            MPI_Barrier(io->group);
        else
            *stop = !agree_all(io->agree, !e->set) || *stop;
        break;
    case PLAN_STEP_TOKEN_WAIT:
        if (rank % turns > 0)
            MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, io->agree, MPI_STATUS_IGNORE);
        break;
    case PLAN_STEP_TOKEN_PASS:
        if ((rank + 1) % turns > 0 && rank + 1 < n)
            MPI_Send(&token, 1, MPI_INT, rank + 1, 0, io->agree);
        break;
    default:
        break;
    }
    double now = io->clock(), spent = now - *mark;
    *mark = now;
    return phase_count(io, s, spent);
}

double phase_wait(const struct phase_io *io, struct backend_file *f, const struct plan_step *s,
                  double *mark, struct verify_state *vs, struct err *e)
{
    bool failed = e->set;
    phase_enter(io, s->write ? "complete write" : "complete read", s->bytes);
    int rc = io->ops->wait ? io->ops->wait(f, s, e)
                           : err_set(e, io->ops->desc->err_name, "complete", io->path, -1, -1,
                                     "no nonblocking transfers");
    double now = io->clock();
    phase_count(io, s, now - *mark);
    *mark = now;
    watchdog_leave();
    if (rc < 0)
        watchdog_arm(e);
    /* What the read brought: every byte (-D v) or the probes (not both:
     * phase_probed). Nothing to check, no clock read. */
    if (rc < 0 || failed || s->write || !(io->verify || phase_probed(io)))
        return 0;
    if (io->verify)
        phase_verify(io, s, vs);
    else if (phase_probe_check(io, s, io->buf, &io->pending, e) < 0)
        watchdog_arm(e);
    now = io->clock();
    double spent = now - *mark;
    *mark = now;
    return spent;
}

void phase_end_var(const struct phase_io *io, struct backend_file *f, struct err *e)
{
    phase_enter(io, "end dataset", io->plan->flat_bytes);
    io->ops->var_end(f, e);
    watchdog_leave();
}
