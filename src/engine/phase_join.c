/* The variables of a phase in one call per step index (docs/design.md,
 * "Moving every variable in one call"): for a run point whose API variant
 * joins variables (api_variant.joins_vars: HDF5's multi-dataset I/O), every
 * variable is begun, then step k of every variable moves in one
 * transfer_vars call, then every variable is ended. Each variable has a
 * buffer of its own. The rules of phase.c hold: agreement after each
 * variable begun, a process that failed goes on with collective calls
 * (-C, or a variant whose every call is collective: collective_steps),
 * filling, poisoning, verifying and the library's account of what it did
 * are kept out of the timers. */
#include "engine/phase.h"

#include <stdlib.h>

#include "engine/watchdog.h"

bool phase_joined(const struct phase_io *io)
{
    const struct api_variant *v = api_variant(io->ops->desc->id, io->ctx->set->variant);
    return v && v->joins_vars && io->ops->transfer_vars;
}

/* Before the open, where phase.c's phase_prepare() fills variable 0's
 * buffer: inside the open-to-close window the fill, excluded from the
 * timers, still held the processes' cores and their agreement while the
 * file was open (docs/design.md, "Moving every variable in one call"). */
struct phase_join_arrays {
    struct plan_access *acc;
    struct plan_step *steps;
    void **bufs;
    struct phase_probes *probes;
};

void phase_join_free(struct phase_join_arrays *a)
{
    if (!a)
        return;
    free(a->acc);
    free(a->steps);
    free(a->bufs);
    free(a->probes);
    free(a);
}

bool phase_join_fill(const struct phase_io *io, struct phase_join_arrays **out, struct err *e)
{
    const struct plan *p = io->plan;
    bool write = p->phases[io->phase].write;
    bool poison = (io->verify || phase_probed(io)) && !write;
    size_t n = p->nvars > 0 ? (size_t)p->nvars : 1;
    struct phase_join_arrays *a = calloc(1, sizeof *a);
    if (a) {
        a->acc = calloc(n, sizeof *a->acc);
        a->steps = calloc(n, sizeof *a->steps);
        a->bufs = calloc(n, sizeof *a->bufs);
        a->probes = calloc(n, sizeof *a->probes);
    }
    if (!a || !a->acc || !a->steps || !a->bufs || !a->probes) {
        phase_join_free(a);
        a = NULL;
        err_set(e, "h5perf", "allocate", io->path, -1, -1, "out of memory");
    }
    *out = a;
    for (int d = 0; !e->set && d < p->nvars; d++)
        if (write ? d > 0 : poison)
            p->ops->fill(p, io->phase, d, io->buf + d * p->buffer_bytes, !write);
    return phase_agree(io, true, e);
}

/* Collective: begins every variable, the processes agreeing before each
 * begin that is collective for this API (phase_begin_collective: HDF5's
 * datasets) when a begin came since their last agreement, and once after
 * the last, before the transfers, which may be collective. So a collective
 * begin never follows a failed one unagreed, and a collective begin
 * followed by local ones only (PnetCDF's definitions, whose failure its
 * backend agrees on before ncmpi_enddef) adds no agreement of its own: a
 * process whose begin failed goes on beginning the others, as every
 * process does until an agreement says stop. Returns how many were begun
 * (each to be ended, a failed one too); *ok tells whether all were, on
 * every process. */
static int phase_join_begin(const struct phase_io *io, struct backend_file *f,
                            struct plan_access *acc, bool *ok, struct err *e)
{
    int begun = 0;
    bool mine = true;
    *ok = true;
    for (int d = 0; *ok && d < io->plan->nvars; d++) {
        plan_access(io->plan, io->phase, d, &acc[d]);
        if (d > 0 && phase_begin_collective(io, d, &acc[d], true))
            *ok = phase_agree(io, mine, e);
        if (!*ok)
            break;
        phase_enter(io, "begin dataset", io->plan->flat_bytes);
        mine = io->ops->var_begin(f, d, &acc[d], e) == 0 && mine;
        watchdog_leave();
        begun++;
    }
    if (*ok)
        *ok = phase_agree(io, mine, e);
    return begun;
}

/* Step k of every variable that has one, I/O steps into steps and bufs
 * (pauses made on the way, agreeing at a barrier on a failure: *halt);
 * returns how many, and their bytes in *bytes. */
static int phase_join_gather(const struct phase_io *io, const struct plan_access *acc, int64_t k,
                             struct plan_step *steps, void **bufs, int64_t *bytes,
                             const struct err *e, bool *halt)
{
    int m = 0;
    *bytes = 0;
    for (int d = 0; d < io->plan->nvars; d++) {
        if (k >= acc[d].nsteps)
            continue;
        plan_step(io->plan, io->phase, d, k, &steps[m]);
        if (steps[m].kind != PLAN_STEP_IO) {
            double mark = io->clock();
            phase_pause(io, &steps[m], &mark, e, halt);
            continue;
        }
        bufs[m] = io->buf + d * io->plan->buffer_bytes + steps[m].mem_off;
        *bytes += steps[m].bytes;
        m++;
    }
    return m;
}

/* The m steps just read, each against its variable's buffer. */
static void phase_join_verify(const struct phase_io *io, const struct plan_step *steps, int m,
                              struct verify_state *v)
{
    for (int i = 0; i < m; i++) {
        struct phase_io mine = *io;
        mine.buf = io->buf + steps[i].var * io->plan->buffer_bytes;
        phase_verify(&mine, &steps[i], v);
    }
}

/* The probes of the m steps about to be read into their variables'
 * poisoned buffers (probes[i]: steps[i]'s), or their check once the call
 * reported success (-1 and e set at the first that fails). */
static void phase_join_probe_choose(const struct phase_io *io, const struct plan_step *steps, int m,
                                    struct phase_probes *probes)
{
    for (int i = 0; i < m; i++)
        phase_probe_choose(&steps[i], io->buf + steps[i].var * io->plan->buffer_bytes, &probes[i]);
}

static int phase_join_probe_check(const struct phase_io *io, const struct plan_step *steps, int m,
                                  const struct phase_probes *probes, struct err *e)
{
    for (int i = 0; i < m; i++)
        if (phase_probe_check(io, &steps[i], io->buf + steps[i].var * io->plan->buffer_bytes,
                              &probes[i], e) < 0)
            return -1;
    return 0;
}

/* Every step index, each in one call (one transfer for the latencies,
 * timed from the clock read that ended the work before it, as phase.c's);
 * returns the seconds excluded. probes: one per variable. */
static double phase_join_steps(struct phase_io *io, struct backend_file *f,
                               const struct plan_access *acc, struct plan_step *steps, void **bufs,
                               struct phase_probes *probes, int64_t *calls, struct verify_state *v,
                               struct err *e)
{
    const struct plan *p = io->plan;
    bool write = p->phases[io->phase].write, check = io->verify && !write;
    bool probe = !write && phase_probed(io);
    bool collective_io = phase_collective_io(io);
    /* Calls every process makes, a process that failed too. */
    const struct api_variant *var = api_variant(io->ops->desc->id, io->ctx->set->variant);
    bool lockstep = collective_io || (var && var->collective_steps);
    int64_t nsteps = 0;
    double excluded = 0, mark = io->clock();
    for (int d = 0; d < p->nvars; d++)
        nsteps = acc[d].nsteps > nsteps ? acc[d].nsteps : nsteps;
    /* With pauses, a process that failed walks on through them to the
     * next barrier, where every process learns of it (phase_pause). */
    bool pauses = p->collective_pauses, halt = false;
    for (int64_t k = 0; k < nsteps && !halt; k++) {
        if (e->set && !lockstep && !pauses)
            break;
        int64_t bytes;
        int m = phase_join_gather(io, acc, k, steps, bufs, &bytes, e, &halt);
        if (halt || (e->set && !lockstep))
            continue;
        double t0 = io->clock();
        for (int i = 0; (check || probe) && !p->fill_per_var && i < m; i++)
            p->ops->fill(p, io->phase, steps[i].var, io->buf + steps[i].var * p->buffer_bytes,
                         true);
        if (probe)
            phase_join_probe_choose(io, steps, m, probes);
        mark = io->clock();
        excluded += mark - t0;
        phase_enter(io, write ? "write" : "read", bytes * (collective_io ? io->ctx->nprocs : 1));
        int rc = io->ops->transfer_vars(f, steps, m, bufs, e);
        double now = io->clock();
        bool full = latency_log_add(&io->tlog[write ? 0 : 1], now - mark);
        io->t[write ? PHASE_WRITES : PHASE_READS] += now - mark;
        if (full)
            excluded += phase_flush_latency(io, &now);
        watchdog_leave();
        (*calls)++;
        if (rc == 0 && probe) {
            double t1 = io->clock();
            rc = phase_join_probe_check(io, steps, m, probes, e);
            excluded += io->clock() - t1;
        }
        if (rc < 0) {
            watchdog_arm(e);
            continue;
        }
        io->moved += bytes;
        if (io->seen && io->ops->io_mode(f, io->seen, e) < 0)
            watchdog_arm(e);
        if (check)
            phase_join_verify(io, steps, m, v);
        excluded += io->clock() - now;
    }
    return excluded + phase_flush_latency(io, &mark);
}

double phase_join(struct phase_io *io, struct backend_file *f, struct phase_join_arrays *a,
                  double *t, int64_t *calls, struct verify_state *v, struct err *e)
{
    double excluded = 0;
    bool ok = false;
    int begun = phase_join_begin(io, f, a->acc, &ok, e);
    if (ok) {
        double t_raw = io->clock();
        double x = phase_join_steps(io, f, a->acc, a->steps, a->bufs, a->probes, calls, v, e);
        t[PHASE_RAW] += io->clock() - t_raw - x;
        excluded += x;
    }
    if (e->set)
        watchdog_arm(e);
    for (int d = 0; d < begun; d++)
        phase_end_var(io, f, e);
    return excluded;
}
