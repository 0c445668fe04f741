/* The trace pattern (docs/trace.md, "The trace pattern") as a pattern of
 * the table: one shared data file, each recorded file K a 1-D byte
 * variable file_K of it (in a flat file, the bytes from the end of file
 * K - 1's), each process's calls of file K its steps in recorded order,
 * each call at its OFFSET for its LENGTH bytes, after a pause of its GAP
 * (--trace-gaps keep). A phase "prepare" first writes what each process
 * will read, so that every read finds defined content; the phase
 * "replay" then makes the calls, writes and reads mixed. Independent
 * calls only (trace_finish refuses -C). The trace is read by
 * trace_text.c and kept by trace_input.c; its report is trace_report.c. */
#include "pattern/trace.h"

#include <stdio.h>
#include <string.h>

#include "api/file_model.h"
#include "pattern/app_check.h"
#include "pattern/app_points.h"

/* A process's plan state (plan.state). */
struct trace_state {
    const struct trace_input *in;
    bool prepare;   /* phase 0 writes what the reads read */
    bool gaps;      /* a pause before each call of the replay */
    bool flat;      /* one variable of every file, the calls in recorded order */
    int64_t region; /* the buffer's write region, then its read region */
};

static const struct trace_state *trace_state(const struct plan *p)
{
    return (const struct trace_state *)(const void *)p->state.bytes;
}

static bool trace_replays(const struct plan *p, int phase)
{
    return !trace_state(p)->prepare || phase == 1;
}

/* The bytes of every file one after another (a flat file's data). */
static int64_t trace_flat_size(const struct trace_input *in)
{
    const struct trace_file *last = &in->files[in->nfiles - 1];
    return last->base + (last->size > 0 ? last->size : 1);
}

static void trace_var(const struct plan *p, int v, struct plan_var *out)
{
    const struct trace_state *st = trace_state(p);
    const struct trace_input *in = st->in;
    memset(out, 0, sizeof *out);
    if (st->flat)
        snprintf(out->name, sizeof out->name, "files");
    else
        snprintf(out->name, sizeof out->name, "file_%d", v);
    out->kind = PLAN_UNSIGNED;
    out->elem = 1;
    out->ndims = 1;
    out->dims[0] = st->flat ? trace_flat_size(in) : in->files[v].size > 0 ? in->files[v].size : 1;
}

/* The calls of variable v in phase: how many, and the index in
 * in->calls of the k-th: of a flat file (v 0) in recorded order, else of
 * file v; the prepare phase's its reads, the replay's all. */
static int64_t trace_count(const struct trace_state *st, bool replay, int v)
{
    const struct trace_input *in = st->in;
    if (in->rank < 0)
        return 0;
    if (st->flat)
        return replay ? in->procs[in->rank].calls : in->nreads;
    return replay ? in->first[v + 1] - in->first[v] : in->rfirst[v + 1] - in->rfirst[v];
}

static const struct trace_call *trace_nth(const struct trace_state *st, bool replay, int v,
                                          int64_t k)
{
    const struct trace_input *in = st->in;
    if (st->flat)
        return in->calls + (replay ? in->order[k] : in->order_reads[k]);
    return in->calls + (replay ? in->first[v] + k : in->reads[in->rfirst[v] + k]);
}

static void trace_access(const struct plan *p, int phase, int v, struct plan_access *out)
{
    const struct trace_state *st = trace_state(p);
    bool replay = trace_replays(p, phase);
    int64_t n = trace_count(st, replay, v);
    memset(out, 0, sizeof *out);
    out->array_base = -1;
    out->nsteps = replay && st->gaps ? 2 * n : n;
}

/* Call c as I/O step k of variable v (write: the direction it moves): in
 * a flat file at its file's base plus OFFSET, in its file's variable at
 * OFFSET. */
static void trace_io_step(const struct trace_state *st, const struct trace_call *c, bool write,
                          int v, int64_t k, struct plan_step *out)
{
    int64_t base = st->in->files[c->file].base;
    plan_step_empty(out, write, v, k);
    out->nslabs = out->nruns = 1;
    out->local_runs[0] = plan_run(base + c->offset, c->length);
    out->local_slabs[0] = (struct model_slab){.ndims = 1,
                                              .start = {(st->flat ? base : 0) + c->offset},
                                              .stride = {1},
                                              .count = {1},
                                              .block = {c->length}};
    out->mem_off = (write ? 0 : st->region) + trace_phase_of(c->file, c->offset);
    out->bytes = c->length;
}

static void trace_step(const struct plan *p, int phase, int v, int64_t k, struct plan_step *out)
{
    const struct trace_state *st = trace_state(p);
    if (!trace_replays(p, phase)) {
        trace_io_step(st, trace_nth(st, false, v, k), true, v, k, out);
        return;
    }
    const struct trace_call *c = trace_nth(st, true, v, st->gaps ? k / 2 : k);
    if (st->gaps && k % 2 == 0) {
        /* The recorded gap: busy time, kept out of the I/O timers. */
        plan_step_empty(out, c->write, v, k);
        out->kind = PLAN_STEP_COMPUTE;
        out->time = PLAN_TIME_BUSY;
        out->seconds = c->gap;
        return;
    }
    trace_io_step(st, c, c->write != 0, v, k, out);
}

/* The buffer: a write region whose byte i holds the content of phase i
 * (trace_byte(i mod TRACE_PERIOD)), so that a write of file v at offset
 * o starts at trace_phase_of(v, o); then a read region of the same size,
 * poisoned with the complement (every byte differs from what a read must
 * find). poison: the read region only. */
static void trace_fill(const struct plan *p, int phase, int v, unsigned char *buf, bool poison)
{
    int64_t r = trace_state(p)->region;
    (void)phase, (void)v;
    for (int64_t i = 0; i < r; i++) {
        unsigned char b = trace_byte(i % TRACE_PERIOD);
        if (!poison)
            buf[i] = b;
        buf[r + i] = (unsigned char)~b;
    }
}

/* A read's bytes land at the read region's byte of their content's
 * phase (trace_io_step): what they must hold follows from mem_off. */
static int64_t trace_verify(const struct plan *p, int phase, const struct plan_step *s,
                            const unsigned char *buf, int64_t *bad_off, unsigned char *expected,
                            unsigned char *found)
{
    int64_t at = s->mem_off - trace_state(p)->region, bad = 0;
    (void)phase;
    for (int64_t i = 0; i < s->bytes; i++) {
        unsigned char want = trace_byte((at + i) % TRACE_PERIOD), got = buf[s->mem_off + i];
        if (got == want)
            continue;
        if (bad++ == 0) {
            *bad_off = i;
            *expected = want;
            *found = got;
        }
    }
    return bad;
}

static const struct plan_ops trace_ops = {
    .var = trace_var,
    .access = trace_access,
    .step = trace_step,
    .fill = trace_fill,
    .verify = trace_verify,
};

/* The end of the data of the flat file: the last recorded file with a
 * call; and the unwritten bytes after it (files without a call). */
static int64_t trace_flat_end(const struct trace_input *in, int64_t *tail)
{
    int64_t end = 0, all = 0;
    for (int k = 0; k < in->nfiles; k++) {
        all = in->files[k].base + (in->files[k].size > 0 ? in->files[k].size : 1);
        if (in->files[k].size > 0)
            end = in->files[k].base + in->files[k].size;
    }
    *tail = all - end;
    return end;
}

/* A file per process (--layout fpp): what process in->rank's own file
 * holds, the end of its calls after the replay and of its reads after
 * the prepare phase (docs/trace.md, "Layouts"); the bytes of the files'
 * arrays after them, unwritten. */
static void trace_own_ends(const struct trace_input *in, struct plan *out)
{
    int64_t all = trace_flat_size(in), end = 0, reads = 0;
    int64_t n = in->rank >= 0 ? in->procs[in->rank].calls : 0;
    for (int64_t i = 0; i < n; i++) {
        const struct trace_call *c = &in->calls[i];
        int64_t e = in->files[c->file].base + c->offset + c->length;
        end = e > end ? e : end;
        reads = !c->write && e > reads ? e : reads;
    }
    out->flat_bytes = end;
    out->unwritten_tail = all - end;
    if (end == 0) {
        for (int ph = 0; ph < out->nphases; ph++)
            out->phase_flat_bytes[ph] = PLAN_FLAT_EMPTY;
    } else if (out->nphases == 2 && reads < end) {
        out->phase_flat_bytes[0] = reads > 0 ? reads : PLAN_FLAT_EMPTY;
        out->phase_unwritten_tail[0] = end - reads;
    }
}

/* The shared file after the prepare phase: it ends at the end of the
 * last read of any process, before the replay's writes may reach
 * further. */
static void trace_prepare_end(const struct trace_input *in, struct plan *out)
{
    int64_t reads = 0;
    for (int k = 0; k < in->nfiles; k++)
        if (in->files[k].read_end > 0)
            reads = in->files[k].base + in->files[k].read_end;
    if (reads < out->flat_bytes) {
        out->phase_flat_bytes[0] = reads;
        out->phase_unwritten_tail[0] = out->flat_bytes - reads;
    }
}

static bool trace_reads(const struct trace_input *in)
{
    for (int k = 0; k < in->nfiles; k++)
        if (in->files[k].calls[0] > 0)
            return true;
    return false;
}

/* The buffer of process p: two regions of a period and its largest
 * call. */
static int64_t trace_region(const struct trace_input *in, int p)
{
    return TRACE_PERIOD + in->procs[p].largest;
}

static int trace_plan(const struct config *c, const struct run_point *pt, int rank, int it,
                      struct plan *out)
{
    _Static_assert(sizeof(struct trace_state) <= PLAN_STATE_BYTES, "state fits in a plan");
    const struct trace_input *in = pt->input;
    if (!in || rank != in->rank)
        return -1;
    struct trace_state st = {.in = in,
                             .prepare = trace_reads(in),
                             .gaps = trace_of(c)->gaps != TRACE_GAPS_DROP,
                             .flat = (api_desc(pt->api)->caps & API_CAP_FLAT_FILE) != 0,
                             .region = trace_region(in, rank)};
    memset(out, 0, sizeof *out);
    out->ops = &trace_ops;
    out->nprocs = pt->nprocs;
    out->exec_rank = out->data_rank = rank;
    out->iteration = it;
    out->nfiles = 1;
    out->nvars = st.flat ? 1 : in->nfiles;
    out->nphases = st.prepare ? 2 : 1;
    for (int ph = 0; ph < out->nphases; ph++) {
        bool replay = !st.prepare || ph == 1;
        snprintf(out->phases[ph].name, sizeof out->phases[ph].name, "%s",
                 replay ? "replay" : "prepare");
        out->phases[ph].write = true;
        out->phases[ph].slot = ph;
        out->measures[ph] = 1u << TIMER_WRITES | 1u << TIMER_FINE | 1u << TIMER_GROSS |
                            (replay ? 1u << TIMER_READS | 1u << TIMER_BUSY : 0);
    }
    out->buffer_bytes = 2 * st.region;
    out->flat_bytes = trace_flat_end(in, &out->unwritten_tail);
    out->per_process = pt->layout == LAYOUT_FPP;
    if (out->per_process)
        trace_own_ends(in, out);
    else if (st.prepare)
        trace_prepare_end(in, out);
    out->exact_source = true;
    memcpy(out->state.bytes, &st, sizeof st);
    return 0;
}

static int trace_grid_dims(const struct config *c)
{
    (void)c;
    return 0;
}

static int trace_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
                        struct run_point *out, int max)
{
    static const int none[MODEL_MAX_DIMS] = {0, 0, 0};
    (void)grid;
    return app_points(c, nprocs, none, out, max);
}

static int64_t trace_largest(const struct trace_input *in, int64_t *size)
{
    int64_t most = 0;
    *size = 0;
    for (int p = 0; p < in->nprocs; p++)
        most = in->procs[p].largest > most ? in->procs[p].largest : most;
    for (int k = 0; k < in->nfiles; k++)
        *size = in->files[k].size > *size ? in->files[k].size : *size;
    return most;
}

static int trace_validate(const struct config *c, const struct run_point *pts, int n,
                          struct cli_msg *m)
{
    char opt[1100];
    trace_option_text(c, opt, sizeof opt);
    for (int i = 0; i < n; i++) {
        const struct trace_input *in = pts[i].input;
        if (!in)
            return cli_fail(m, "h5perf: %s: the trace was not read", opt);
        if (pts[i].nprocs != in->nprocs)
            return cli_fail(m,
                            "h5perf: %s: is a trace for %d process%s, and the run has %d; start "
                            "%d (mpiexec -n), with -p and -P left out or %d",
                            opt, in->nprocs, in->nprocs == 1 ? "" : "es", pts[i].nprocs, in->nprocs,
                            in->nprocs);
        int64_t size = 0, call = trace_largest(in, &size);
        if (app_call_limit(c, &pts[i], call, opt, "a recorded call is",
                           "replay a trace of smaller calls", m) < 0)
            return -1;
        bool flat = (api_desc(pts[i].api)->caps & API_CAP_FLAT_FILE) != 0;
        struct extent_file f = {flat ? 1 : in->nfiles,
                                flat       ? trace_flat_size(in)
                                : size > 0 ? size
                                           : 1,
                                0};
        if (pattern_validate_extent(c, pts[i].nprocs, &f, m) < 0)
            return -1;
    }
    return 0;
}

static void trace_measure(const struct config *c, const struct run_point *p,
                          struct pattern_measure *m, int64_t *buffers)
{
    const struct trace_input *in = p->input;
    (void)c;
    memset(m, 0, sizeof *m);
    if (!in)
        return;
    for (int k = 0; k < in->nfiles; k++)
        m->phase_bytes += in->files[k].bytes[0] + in->files[k].bytes[1];
    for (int r = 0; r < in->nprocs; r++) {
        int64_t buf = 2 * trace_region(in, r);
        if (buffers)
            buffers[r] = buf;
        m->max_buffer = buf > m->max_buffer ? buf : m->max_buffer;
        m->phase_runs = in->procs[r].calls > m->phase_runs ? in->procs[r].calls : m->phase_runs;
    }
    int64_t size = 0;
    m->max_call = trace_largest(in, &size);
    int64_t tail = 0;
    m->flat_bytes = trace_flat_end(in, &tail);
    bool flat = (api_desc(p->api)->caps & API_CAP_FLAT_FILE) != 0;
    m->max_dim = flat ? trace_flat_size(in) : size > 0 ? size : 1;
    m->call_runs = 1;
    m->plan_bytes = trace_held_bytes(in);
    m->nvars = flat ? 1 : in->nfiles;
    m->var_bytes = m->max_dim;
}

static void trace_lead(const struct config *c, const struct run_point *p, char *buf, size_t len)
{
    char opt[1100];
    trace_option_text(c, opt, sizeof opt);
    app_lead(opt, p, buf, len);
}

static void trace_memory_lead(const struct config *c, int nprocs, char *buf, size_t len)
{
    char opt[1100];
    trace_option_text(c, opt, sizeof opt);
    app_memory_lead(opt, nprocs, buf, len);
}

static void trace_file_lead(const struct config *c, char *buf, size_t len)
{
    trace_option_text(c, buf, len);
}

/* Each process reads what it wrote in the prepare phase; a trace
 * without reads reads nothing. */
static int trace_read_source(const struct config *c, int nprocs, int rank)
{
    (void)c, (void)nprocs;
    const struct trace_totals *t = trace_summary();
    return t && t->calls[0] == 0 ? PATTERN_READS_NONE : rank;
}

const struct pattern_desc pattern_trace = {
    .key = "trace",
    .title = "--pattern trace",
    .gloss = "(an application's calls, replayed)",
    .rows = trace_rows,
    .help_heading = "--pattern trace (an application's calls from a trace, docs/trace.md) takes",
    .help_note = "Each recorded file is a byte variable of one data file (--layout\n"
                 "shared, the default) or of each process's own (fpp); each process\n"
                 "makes its own calls in recorded order, independently.",
    .layouts = 1u << LAYOUT_SHARED | 1u << LAYOUT_FPP,
    .finish = trace_finish,
    .load = trace_load,
    .input_parts = trace_input_parts,
    .adopt = trace_adopt,
    .input_release = trace_input_release,
    .grid_dims = trace_grid_dims,
    .points = trace_points,
    .validate = trace_validate,
    .measure = trace_measure,
    .plan = trace_plan,
    .label = app_label,
    .lead = trace_lead,
    .smaller_chunks = "more processes",
    .read_source = trace_read_source,
    .cache_advice = "replay a trace whose files are larger than the hosts' memory",
    .memory_lead = trace_memory_lead,
    .buffer_name = "call buffers",
    .buffer_remedy = "a trace of smaller calls",
    .file_lead = trace_file_lead,
    .var_word = "variable",
    .report = &trace_report,
    .json_config = trace_json_config,
    .json_run = trace_json_run,
};
