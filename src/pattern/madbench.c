/* The madbench pattern (docs/madbench.md) as a pattern of the table: its
 * plans. Each phase is MADbench2's sequence of operations, each operation
 * the steps MADbench2's functions make: busy work is a barrier, the work
 * and a barrier (busy_work); an I/O call is a barrier, the token waited
 * for, the call, the token passed on and a barrier (io_distmatrix). A
 * variable is a bin (one dataset or netCDF variable per matrix); through
 * the flat APIs phase W reads one bin ahead, as MADbench2 does, through
 * HDF5 and PnetCDF each bin is read just before its busy work. In the
 * asynchronous mode (--io-mode async) each read and write is a
 * nonblocking start and, after the busy work that follows, a wait step
 * (io_resync: a barrier, the wait, a barrier), W reading ahead through
 * every API. With gangs (--gangs), W writes and C reads each process's
 * share of its gang's bins in the gang's distribution. The operations are
 * madbench_ops.c's, its options' finish and validation madbench_finish.c,
 * its report madbench_report.c. */
#include "pattern/madbench.h"
#include "pattern/madbench_ops.h"

#include <stdio.h>
#include <string.h>

#include "pattern/app_points.h"

/* The steps of each kind of operation. */
enum { MB_BUSY_STEPS = 3, MB_IO_STEPS = 5, MB_WAIT_STEPS = 3 };

static const struct madbench_state *mb_state(const struct plan *p)
{
    return (const struct madbench_state *)p->state.bytes;
}

static int mb_ops(const struct madbench_state *st, int phase, int64_t v,
                  struct madbench_op ops[MADBENCH_MAX_OPS])
{
    return madbench_op_list(st, phase, v, ops);
}

static bool mb_op_writes(const struct madbench_op *op)
{
    return op->kind == MB_WRITE || op->kind == MB_WAIT_WRITE;
}

static int64_t mb_op_steps(const struct madbench_op *op)
{
    if (op->kind == MB_WAIT_READ || op->kind == MB_WAIT_WRITE)
        return MB_WAIT_STEPS;
    return op->kind == MB_BUSY ? MB_BUSY_STEPS : MB_IO_STEPS;
}

/* Where an operation's data lies in the buffer, in rooms of the larger
 * of its shares: reads of even and odd slots in the first two (so that
 * both reads of W's first variable land in poisoned memory), writes in
 * the third; in the asynchronous mode, and with gangs (W's last variable
 * writes two gang slots), those of even and odd slots in the third and
 * fourth, so that the next bin's content is put in the buffer while the
 * write before it is still under way. */
static bool mb_two_writes(const struct madbench_state *st)
{
    return st->async || st->g.gangs > 1;
}

static int64_t mb_mem_off(const struct madbench_state *st, const struct madbench_op *op)
{
    int64_t at = op->slot % 2;
    if (op->kind == MB_WRITE || op->kind == MB_WAIT_WRITE)
        at = mb_two_writes(st) ? 2 + op->slot % 2 : 2;
    return at * st->room * 8;
}

static void mb_var(const struct plan *p, int v, struct plan_var *out)
{
    const struct madbench_state *st = mb_state(p);
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "bin_%d", v);
    out->kind = PLAN_UNSIGNED;
    out->elem = 8;
    out->ndims = 1;
    /* A file per process: the larger share; with gangs, W writes the
     * gang share of its gang's bins alone. */
    out->dims[0] = st->shared ? st->g.pixels * st->g.pixels : st->room;
}

static void mb_access(const struct plan *p, int phase, int v, struct plan_access *out)
{
    struct madbench_op ops[MADBENCH_MAX_OPS];
    int n = mb_ops(mb_state(p), phase, v, ops);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < n; i++)
        out->nsteps += mb_op_steps(&ops[i]);
    out->array_base = -1;
}

/* The I/O call of op: the process's share of the bin, one run at
 * MADbench2's offset in a flat file, and its range of the bin's dataset
 * (the matrix in the distributed order; a file per process: its share),
 * in every process's distribution or its gang's; an empty call for a
 * process not of the gang that moves it. */
static void mb_io_step(const struct plan *p, const struct madbench_op *op, int v, int64_t k,
                       struct plan_step *out)
{
    const struct madbench_state *st = mb_state(p);
    plan_step_empty(out, mb_op_writes(op), v, k);
    out->mem_off = mb_mem_off(st, op);
    if (!madbench_op_mine(st, op))
        return;
    int64_t share = op->gang ? st->gang_share : st->share;
    int64_t first = op->gang ? st->gang_first : st->first;
    int64_t at = op->gang ? madbench_gang_offset(&st->g, st->shared, st->rank, op->slot)
                          : madbench_offset(&st->g, st->shared, st->rank, op->slot);
    out->nslabs = out->nruns = 1;
    out->local_runs[0] = plan_run(at, share * 8);
    struct model_slab *sl = &out->local_slabs[0];
    *sl = (struct model_slab){.ndims = 1,
                              .start = {st->shared ? first : 0},
                              .stride = {1},
                              .count = {1},
                              .block = {share}};
    out->bytes = share * 8;
}

/* Whether op's barriers are its gang's, as MADbench2's: those of an I/O
 * call in the gang's distribution (io_distmatrix over the gang) and of W's
 * pdgemm (busy work over the gang); every other barrier is every
 * process's (the reads of every bin, the remaps, C's busy work, io_resync). */
static bool mb_gang_barrier(const struct madbench_state *st, int phase,
                            const struct madbench_op *op)
{
    if (st->g.gangs == 1)
        return false;
    if (op->kind == MB_READ || op->kind == MB_WRITE)
        return op->gang;
    return op->kind == MB_BUSY && !op->remap && phase == MADBENCH_W;
}

static void mb_step(const struct plan *p, int phase, int v, int64_t k, struct plan_step *out)
{
    const struct madbench_state *st = mb_state(p);
    struct madbench_op ops[MADBENCH_MAX_OPS];
    int n = mb_ops(st, phase, v, ops);
    int64_t j = k;
    int i = 0;
    while (i < n - 1 && j >= mb_op_steps(&ops[i]))
        j -= mb_op_steps(&ops[i++]);
    const struct madbench_op *op = &ops[i];
    /* In the asynchronous mode a start and its wait name the bin they move
     * as their variable (a read ahead moves the next one). */
    if ((op->kind == MB_READ || op->kind == MB_WRITE) && j == 2) {
        mb_io_step(p, op, st->async ? (int)madbench_op_bin(st, op) : v, k, out);
        out->nonblocking = st->async;
        return;
    }
    if ((op->kind == MB_WAIT_READ || op->kind == MB_WAIT_WRITE) && j == 1) {
        /* io_resync's wait: the step it completes, as a WAIT. */
        mb_io_step(p, op, (int)madbench_op_bin(st, op), k, out);
        out->kind = PLAN_STEP_WAIT;
        out->time = PLAN_TIME_IO;
        return;
    }
    plan_step_empty(out, mb_op_writes(op), v, k);
    out->seconds = 0;
    /* The first barrier is neither I/O nor busy time (MADbench2's _cc);
     * what follows is the operation's. */
    out->time = j == 0 ? PLAN_TIME_PHASE : op->kind == MB_BUSY ? PLAN_TIME_BUSY : PLAN_TIME_IO;
    if (op->kind == MB_BUSY) {
        out->kind = j == 1 ? PLAN_STEP_COMPUTE : PLAN_STEP_BARRIER;
        out->in_group = j != 1 && mb_gang_barrier(st, phase, op);
        out->passes = j != 1 ? 0 : op->remap ? st->g.remap_passes : st->g.passes[phase];
        out->width = j == 1 ? st->g.sblock : 0;
        return;
    }
    static const enum plan_step_kind io_steps[MB_IO_STEPS] = {
        PLAN_STEP_BARRIER, PLAN_STEP_TOKEN_WAIT, PLAN_STEP_IO, PLAN_STEP_TOKEN_PASS,
        PLAN_STEP_BARRIER};
    if (op->kind == MB_WAIT_READ || op->kind == MB_WAIT_WRITE) {
        out->kind = PLAN_STEP_BARRIER; /* io_resync's barriers */
        return;
    }
    out->kind = io_steps[j];
    out->in_group = out->kind == PLAN_STEP_BARRIER && mb_gang_barrier(st, phase, op);
    out->turns = op->kind == MB_WRITE ? st->write_mod : st->read_mod;
}

/* This process's share of bin, in its gang's distribution (gang) or every
 * process's, as S writes it or its complement (W's), at buf. */
static void mb_put(const struct madbench_state *st, int64_t bin, bool gang, bool complement,
                   unsigned char *buf)
{
    int64_t share = gang ? st->gang_share : st->share;
    int64_t first = gang ? st->gang_first : st->first;
    for (int64_t i = 0; i < share; i++) {
        uint64_t x = madbench_value(&st->g, bin, first + i);
        x = complement ? ~x : x;
        for (int b = 0; b < 8; b++, x >>= 8)
            buf[i * 8 + b] = (unsigned char)x;
    }
}

/* What a read in phase finds: S's values in W, W's in C. */
static bool mb_read_complement(int phase)
{
    return phase == MADBENCH_C;
}

/* The buffer of variable v in phase: the data its write writes (S's values
 * in S, their complement in W), and before each read of it the complement
 * of what the read must find (every byte differs; docs/madbench.md,
 * "Content"). poison: the reads' regions only (a read phase). */
static void mb_fill(const struct plan *p, int phase, int v, unsigned char *buf, bool poison)
{
    const struct madbench_state *st = mb_state(p);
    struct madbench_op ops[MADBENCH_MAX_OPS];
    int n = mb_ops(st, phase, v, ops);
    for (int i = 0; i < n; i++) {
        const struct madbench_op *op = &ops[i];
        unsigned char *at = buf + mb_mem_off(st, op);
        if (!madbench_op_mine(st, op))
            continue;
        if (op->kind == MB_WRITE && !poison)
            mb_put(st, madbench_op_bin(st, op), op->gang, phase == MADBENCH_W, at);
        else if (op->kind == MB_READ)
            mb_put(st, madbench_op_bin(st, op), op->gang, !mb_read_complement(phase), at);
    }
}

/* The bin an I/O step of variable v reads or writes (in the asynchronous
 * mode, the step's variable: mb_step). */
static int64_t mb_step_bin(const struct madbench_state *st, int phase, const struct plan_step *s)
{
    if (st->async)
        return s->var;
    struct madbench_op ops[MADBENCH_MAX_OPS];
    int n = mb_ops(st, phase, s->var, ops);
    int64_t j = s->index;
    for (int i = 0; i < n; i++) {
        if (j < mb_op_steps(&ops[i]))
            return madbench_op_bin(st, &ops[i]);
        j -= mb_op_steps(&ops[i]);
    }
    return -1;
}

/* W reads every process's distribution, C its gang's. */
static int64_t mb_verify(const struct plan *p, int phase, const struct plan_step *s,
                         const unsigned char *buf, int64_t *bad_off, unsigned char *expected,
                         unsigned char *found)
{
    const struct madbench_state *st = mb_state(p);
    int64_t bin = mb_step_bin(st, phase, s), bad = 0;
    bool complement = mb_read_complement(phase), gang = phase == MADBENCH_C;
    int64_t first = gang ? st->gang_first : st->first;
    const unsigned char *at = buf + s->mem_off;
    for (int64_t i = 0; i < s->bytes / 8; i++) {
        uint64_t x = madbench_value(&st->g, bin, first + i);
        x = complement ? ~x : x;
        for (int b = 0; b < 8; b++, x >>= 8) {
            unsigned char want = (unsigned char)x, got = at[i * 8 + b];
            if (got == want)
                continue;
            if (bad++ == 0) {
                *bad_off = i * 8 + b;
                *expected = want;
                *found = got;
            }
        }
    }
    return bad;
}

static const struct plan_ops madbench_ops = {
    .var = mb_var,
    .access = mb_access,
    .step = mb_step,
    .fill = mb_fill,
    .verify = mb_verify,
};

static int madbench_plan(const struct config *c, const struct run_point *pt, int rank, int it,
                         struct plan *out)
{
    _Static_assert(sizeof(struct madbench_state) <= PLAN_STATE_BYTES, "state fits in a plan");
    struct madbench_state st = {.rank = rank,
                                .shared = !layout_desc(pt->layout)->per_process,
                                .ahead = (api_desc(pt->api)->caps & API_CAP_FLAT_FILE) != 0 ||
                                         madbench_of(c)->io_mode == MADBENCH_ASYNC,
                                .read_mod = madbench_of(c)->read_mod,
                                .write_mod = madbench_of(c)->write_mod,
                                .async = madbench_of(c)->io_mode == MADBENCH_ASYNC};
    if (madbench_geom(madbench_of(c), pt->nprocs, &st.g) != MADBENCH_OK)
        return -1;
    st.share = madbench_share(&st.g, rank);
    st.first = madbench_first(&st.g, rank);
    st.gang = rank / st.g.gang_procs;
    st.gang_share = madbench_gang_share(&st.g, rank);
    st.gang_first = madbench_gang_first(&st.g, rank);
    st.room = st.gang_share > st.share ? st.gang_share : st.share;
    static const char *const names[MADBENCH_PHASES] = {"S", "W", "C"};
    memset(out, 0, sizeof *out);
    out->ops = &madbench_ops;
    out->nprocs = pt->nprocs;
    out->exec_rank = out->data_rank = rank;
    out->iteration = it;
    out->nfiles = 1;
    out->per_process = !st.shared;
    out->nvars = (int)st.g.bins;
    out->nphases = MADBENCH_PHASES;
    for (int ph = 0; ph < MADBENCH_PHASES; ph++) {
        snprintf(out->phases[ph].name, sizeof out->phases[ph].name, "%s", names[ph]);
        out->phases[ph].write = ph != MADBENCH_C;
        out->phases[ph].slot = ph;
        out->measures[ph] = 1u << TIMER_BUSY | (ph != MADBENCH_S ? 1u << TIMER_READS : 0) |
                            (ph != MADBENCH_C ? 1u << TIMER_WRITES : 0);
    }
    out->buffer_bytes = (mb_two_writes(&st) ? 4 : 3) * st.room * 8;
    out->fill_per_var = true;
    out->flat_bytes = madbench_file_end(&st.g, st.shared, rank);
    /* With gangs, W's writes may end the file beyond S's. */
    out->phase_flat_bytes[MADBENCH_S] = madbench_s_end(&st.g, st.shared, rank);
    /* A file per process holds each bin's larger share: S writes its share
     * of the last bin, and in W only the last gang writes its gang share. */
    if (!st.shared) {
        int64_t last = st.gang == st.g.gangs - 1 ? st.gang_share : st.share;
        out->phase_unwritten_tail[MADBENCH_S] = (st.room - st.share) * 8;
        out->phase_unwritten_tail[MADBENCH_W] = (st.room - last) * 8;
    }
    out->exact_source = true;
    out->collective_pauses = true;
    out->barrier_group = st.g.gangs > 1 ? st.g.gang_procs : 0;
    out->open_once = madbench_of(c)->opens == MADBENCH_OPENS_ONCE;
    memcpy(out->state.bytes, &st, sizeof st);
    return 0;
}

static int madbench_grid_dims(const struct config *c)
{
    (void)c;
    return 0;
}

static int madbench_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
                           struct run_point *out, int max)
{
    return app_points(c, nprocs, grid, out, max);
}

/* Over all processes of a point: the bytes of each phase's reads or
 * writes (every share of every bin), buffers of three rooms of the larger
 * share (four in the asynchronous mode and with gangs, mb_mem_off). */
static void madbench_measure(const struct config *c, const struct run_point *p,
                             struct pattern_measure *m, int64_t *buffers)
{
    struct madbench_geom g;
    memset(m, 0, sizeof *m);
    if (madbench_geom(madbench_of(c), p->nprocs, &g) != MADBENCH_OK)
        return;
    bool shared = !layout_desc(p->layout)->per_process;
    int shares = madbench_of(c)->io_mode == MADBENCH_ASYNC || g.gangs > 1 ? 4 : 3;
    for (int r = 0; r < p->nprocs; r++) {
        int64_t share = madbench_share(&g, r) * 8, gang = madbench_gang_share(&g, r) * 8;
        m->phase_bytes += share * g.bins;
        if (buffers)
            buffers[r] = shares * (gang > share ? gang : share);
        int64_t end = madbench_file_end(&g, shared, r);
        m->flat_bytes = end > m->flat_bytes ? end : m->flat_bytes;
    }
    int64_t gang0 = madbench_gang_share(&g, 0), most = gang0 > g.max_share ? gang0 : g.max_share;
    m->max_buffer = shares * most * 8;
    m->max_call = most * 8;
    m->max_dim = shared ? g.pixels * g.pixels : most;
    m->nvars = (int)g.bins;
    m->var_bytes = (shared ? g.pixels * g.pixels : most) * 8;
}

void madbench_pixels_option(const struct pattern_settings *s, char *buf, size_t len)
{
    const struct opt_row *row = &madbench_pixels_row;
    if (madbench_spelled(s, row))
        snprintf(buf, len, "%s '%s'", madbench_spelled(s, row), madbench_raw(s, row));
    else
        snprintf(buf, len, "--pixels %d (the default)", madbench_settings_of(s)->pixels);
}

static void madbench_lead(const struct config *c, const struct run_point *p, char *buf, size_t len)
{
    char opt[160];
    madbench_pixels_option(madbench_own(c), opt, sizeof opt);
    app_lead(opt, p, buf, len);
}

static void madbench_memory_lead(const struct config *c, int nprocs, char *buf, size_t len)
{
    char opt[160];
    madbench_pixels_option(madbench_own(c), opt, sizeof opt);
    app_memory_lead(opt, nprocs, buf, len);
}

static void madbench_file_lead(const struct config *c, char *buf, size_t len)
{
    const struct pattern_settings *s = madbench_own(c);
    if (madbench_spelled(s, &madbench_bins_row))
        snprintf(buf, len, "%s '%s'", madbench_spelled(s, &madbench_bins_row),
                 madbench_raw(s, &madbench_bins_row));
    else
        madbench_pixels_option(s, buf, len);
}

static int madbench_read_source(const struct config *c, int nprocs, int rank)
{
    (void)c, (void)nprocs;
    return rank;
}

const struct pattern_desc pattern_madbench = {
    .key = "madbench",
    .title = "--pattern madbench",
    .gloss = "(MADbench2's out-of-core I/O)",
    .rows = madbench_rows,
    .help_heading = "--pattern madbench (MADbench2's I/O mode, docs/madbench.md) takes",
    .help_note = "It runs on a square number of processes (1, 4, 9, 16...). Phase S\n"
                 "writes each matrix after busy work, W reads each back and writes it\n"
                 "again, C reads them all.",
    .layouts = 1u << LAYOUT_SHARED | 1u << LAYOUT_FPP,
    .finish = madbench_finish,
    .grid_dims = madbench_grid_dims,
    .points = madbench_points,
    .validate = madbench_validate,
    .measure = madbench_measure,
    .plan = madbench_plan,
    .label = app_label,
    .lead = madbench_lead,
    .smaller_chunks = "more processes",
    .read_source = madbench_read_source,
    .cache_advice = "use matrices larger than the hosts' memory (--pixels, --bins), as "
                    "MADbench2's out-of-core runs do",
    .memory_lead = madbench_memory_lead,
    .buffer_name = "matrix buffers",
    .buffer_remedy = "more processes, on more hosts, or fewer --pixels",
    .file_lead = madbench_file_lead,
    .var_word = "bin",
    .report = &madbench_report,
    .json_config = madbench_json_config,
    .json_run = madbench_json_run,
};
