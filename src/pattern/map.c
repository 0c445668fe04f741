/* The map pattern (docs/map.md) as a pattern of the table: the
 * decompositions of a map file, each with --vars variables, every process
 * moving its selection of each variable in one call (map_plan.c); the map
 * read by process 0 (map_e3sm.c, map_text.c) and kept by every process
 * (map_build.c); its run points are the application patterns' layouts,
 * its report their table. Pure. */
#include "pattern/map.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "api/file_model.h"
#include "pattern/app_check.h"
#include "pattern/app_points.h"
#include "report/table.h"

/* "--map 'g.nc'" */
static void map_option_text(const struct config *c, char *buf, size_t len)
{
    const struct pattern_settings *s = map_own(c);
    snprintf(buf, len, "%s '%s'", map_file_spelled(s) ? map_file_spelled(s) : "--map",
             map_file_raw(s) ? map_file_raw(s) : "");
}

static int map_grid_dims(const struct config *c)
{
    (void)c;
    return 0;
}

static int map_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
                      struct run_point *out, int max)
{
    static const int none[MODEL_MAX_DIMS] = {0, 0, 0};
    (void)grid;
    return app_points(c, nprocs, none, out, max);
}

/* The sizes of a point: per phase, in a shared file and in the largest
 * file per process; the most one process holds and moves in a call. */
struct map_sizes {
    int nvars;
    int64_t phase, shared, fpp, buffer, call, var_bytes;
    int64_t tail; /* bytes no process writes at the end of a shared file */
    /* The most pieces (or contiguous runs, if more) of one process's
     * selection of one variable, and the most bytes of one process's plan
     * (map_plan.c: per piece a box, and in a shared file a slab and a run
     * per variable) with the map it holds (its boxes and every process's
     * figures). */
    int64_t pieces, plan_shared, plan_fpp;
    bool overflow;
};

/* Process p's pieces of decomposition k (boxes, cut at the calls' bounds:
 * each cut adds at most MODEL_RANGE_BOXES) and their calls. */
static int64_t map_pieces(const struct config *c, const struct map_decomp *d, int p, int64_t *calls)
{
    int64_t per = c->transfer_size / c->elem, n = d->first[p + 1] - d->first[p];
    *calls = per > 0 ? d->count[p] / per + 1 : 1;
    return per > 0 ? n + *calls * MODEL_RANGE_BOXES : n;
}

/* The plan's bytes of process p (map_plan.c, map_pdecomp()), and the
 * map it holds (map_adopt.c). */
static void map_plan_bytes(const struct config *c, const struct map_input *in, int p,
                           struct map_sizes *s)
{
    int64_t held = map_held_bytes(in, p), shared = held, fpp = held;
    for (int k = 0; k < in->ndecomps; k++) {
        int v = map_vars_of(c, k);
        int64_t calls = 0, n = map_pieces(c, &in->d[k], p, &calls);
        if (v == 0 || in->d[k].count[p] == 0)
            continue;
        int64_t box = n * (int64_t)sizeof(struct model_box) + (calls + 1) * 8;
        fpp += box;
        shared +=
            box + n * ((int64_t)sizeof(struct model_slab) + v * (int64_t)sizeof(struct model_runs));
        int64_t rows = in->d[k].runs[p];
        rows = rows > n ? rows : n;
        s->pieces = rows > s->pieces ? rows : s->pieces;
    }
    s->plan_shared = shared > s->plan_shared ? shared : s->plan_shared;
    s->plan_fpp = fpp > s->plan_fpp ? fpp : s->plan_fpp;
}

static bool map_add(int64_t *sum, int64_t a, int64_t b, int64_t c)
{
    int64_t x;
    return __builtin_mul_overflow(a, b, &x) || __builtin_mul_overflow(x, c, &x) ||
           __builtin_add_overflow(*sum, x, sum);
}

/* The sizes; once the shared file's fits in 64 bits (else only overflow
 * is set), every other figure is at most it. */
static void map_sizes(const struct config *c, const struct map_input *in, struct map_sizes *s,
                      int64_t *buffers)
{
    memset(s, 0, sizeof *s);
    int64_t e = c->elem, per = c->transfer_size / c->elem;
    for (int k = 0; k < in->ndecomps && !s->overflow; k++)
        s->overflow = map_add(&s->shared, map_vars_of(c, k), in->d[k].elems, e);
    for (int k = 0; k < in->ndecomps && !s->overflow; k++) {
        const struct map_decomp *d = &in->d[k];
        int v = map_vars_of(c, k);
        if (v == 0)
            continue;
        s->nvars += v;
        s->phase += v * d->total * e;
        int64_t most = d->most * e, call = per > 0 && per < d->most ? per * e : most;
        s->tail = (d->elems - d->end) * e;
        s->buffer = most > s->buffer ? most : s->buffer;
        s->call = call > s->call ? call : s->call;
        s->var_bytes = d->elems * e > s->var_bytes ? d->elems * e : s->var_bytes;
    }
    for (int p = 0; p < in->nprocs && !s->overflow; p++) {
        int64_t own = 0, buf = 0;
        for (int k = 0; k < in->ndecomps; k++) {
            int v = map_vars_of(c, k);
            own += v * in->d[k].count[p] * e;
            if (v > 0 && in->d[k].count[p] * e > buf)
                buf = in->d[k].count[p] * e;
        }
        s->fpp = own > s->fpp ? own : s->fpp;
        map_plan_bytes(c, in, p, s);
        if (buffers)
            buffers[p] = buf;
    }
}

/* --vars against the map: one count, or one per decomposition, naming some
 * variable. */
static int map_check_vars(const struct config *c, const struct map_input *in, struct cli_msg *m)
{
    char opt[160];
    map_option_text(c, opt, sizeof opt);
    if (c->nvar_counts > 0 && c->nvar_counts != in->ndecomps)
        return cli_fail(m,
                        "h5perf: %s '%s': gives %d counts, and %s has %d decomposition%s (D1 to "
                        "D%d); give one count, or one per decomposition",
                        c->spelled[OPT_VARS], c->raw[OPT_VARS], c->nvar_counts, opt, in->ndecomps,
                        in->ndecomps == 1 ? "" : "s", in->ndecomps);
    int total = 0;
    for (int k = 0; k < in->ndecomps; k++)
        total = map_vars_of(c, k) > INT_MAX - total ? INT_MAX : total + map_vars_of(c, k);
    if (total == 0)
        return cli_fail(m, "h5perf: %s '%s': gives no decomposition a variable",
                        c->spelled[OPT_VARS], c->raw[OPT_VARS]);
    int64_t elems = 0;
    for (int k = 0; k < in->ndecomps; k++)
        elems += map_vars_of(c, k) > 0 ? in->d[k].total : 0;
    if (elems == 0)
        return cli_fail(m, "h5perf: %s: no process has an element of its decompositions%s", opt,
                        c->nvar_counts ? " with variables (--vars)" : "");
    return 0;
}

/* Every process's boxes of a decomposition, cut at --transfer-size, are
 * at most MAP_MAX_PIECES (what a plan keeps; within the int counts of one
 * call too). */
static int map_check_boxes(const struct config *c, const struct map_input *in, struct cli_msg *m)
{
    char opt[160];
    map_option_text(c, opt, sizeof opt);
    int64_t per = c->transfer_size / c->elem;
    for (int k = 0; k < in->ndecomps; k++)
        for (int p = 0; p < in->nprocs && map_vars_of(c, k) > 0; p++) {
            int64_t n = in->d[k].first[p + 1] - in->d[k].first[p], calls = 0;
            if (per > 0)
                calls = in->d[k].count[p] / per + 1;
            if (n <= MAP_MAX_PIECES && calls <= (MAP_MAX_PIECES - n) / MODEL_RANGE_BOXES)
                continue;
            if (calls > 0)
                return cli_fail(m,
                                "h5perf: %s '%s': cuts process %d's selection of %s (%" PRId64
                                " box%s) into %" PRId64 " calls, more pieces than h5perf plans "
                                "(%d); give a larger %s",
                                c->spelled[OPT_TRANSFER_SIZE], c->raw[OPT_TRANSFER_SIZE], p,
                                in->d[k].name, n, n == 1 ? "" : "es", calls, MAP_MAX_PIECES,
                                c->spelled[OPT_TRANSFER_SIZE]);
            return cli_fail(m,
                            "h5perf: %s: %s: process %d's selection has %" PRId64
                            " boxes, more than h5perf plans (%d)",
                            opt, in->d[k].name, p, n, MAP_MAX_PIECES);
        }
    return 0;
}

static int map_validate(const struct config *c, const struct run_point *pts, int n,
                        struct cli_msg *m)
{
    char opt[160];
    map_option_text(c, opt, sizeof opt);
    for (int i = 0; i < n; i++) {
        const struct map_input *in = pts[i].input;
        if (!in)
            return cli_fail(m, "h5perf: %s: the map was not read", opt);
        if (pts[i].nprocs != in->nprocs) {
            char why[256];
            map_procs_mismatch(in->nprocs, pts[i].nprocs, why, sizeof why);
            return cli_fail(m, "h5perf: %s: %s", opt, why);
        }
        if (map_check_vars(c, in, m) < 0 || map_check_boxes(c, in, m) < 0)
            return -1;
        struct map_sizes s;
        map_sizes(c, in, &s, NULL);
        if (s.overflow)
            return cli_fail(m,
                            "h5perf: %s: its variables of %d-byte elements do not fit in 64-bit "
                            "offsets",
                            opt, c->elem);
        if (app_call_limit(c, &pts[i], s.call, opt,
                           c->transfer_size ? "a process's call is"
                                            : "a process's selection of one variable is",
                           "give fewer bytes per process (--element-size)", m) < 0)
            return -1;
        struct extent_file f = {s.nvars, s.var_bytes, 0};
        if (pattern_validate_extent(c, pts[i].nprocs, &f, m) < 0)
            return -1;
    }
    return 0;
}

static void map_measure(const struct config *c, const struct run_point *p,
                        struct pattern_measure *m, int64_t *buffers)
{
    const struct map_input *in = p->input;
    memset(m, 0, sizeof *m);
    if (!in)
        return;
    struct map_sizes s;
    map_sizes(c, in, &s, buffers);
    bool fpp = p->layout == LAYOUT_FPP;
    m->phase_bytes = s.phase;
    m->max_buffer = s.buffer;
    m->max_call = s.call;
    m->flat_bytes = fpp ? s.fpp : s.shared - s.tail;
    m->nvars = s.nvars;
    m->var_bytes = s.var_bytes;
    /* A call's selection: at most a variable's, in pieces and runs. */
    m->call_runs = s.pieces > 1 ? s.pieces : 1;
    m->plan_bytes = fpp ? s.plan_fpp : s.plan_shared;
    for (int k = 0; k < in->ndecomps; k++) {
        if (map_vars_of(c, k) == 0)
            continue;
        m->views |= !fpp && in->d[k].several;
        for (int d = 0; d < in->d[k].ndims; d++) {
            int64_t dim = fpp ? in->d[k].most : in->d[k].dims[d];
            m->max_dim = dim > m->max_dim ? dim : m->max_dim;
        }
    }
}

static void map_lead(const struct config *c, const struct run_point *p, char *buf, size_t len)
{
    char opt[160];
    map_option_text(c, opt, sizeof opt);
    app_lead(opt, p, buf, len);
}

static void map_memory_lead(const struct config *c, int nprocs, char *buf, size_t len)
{
    char opt[160];
    map_option_text(c, opt, sizeof opt);
    app_memory_lead(opt, nprocs, buf, len);
}

static void map_file_lead(const struct config *c, char *buf, size_t len)
{
    char opt[160];
    map_option_text(c, opt, sizeof opt);
    app_file_lead(c, opt, buf, len);
}

static int map_read_source(const struct config *c, int nprocs, int rank)
{
    (void)c, (void)nprocs;
    return rank;
}

/* --- the report and the results ----------------------------------------- */

/* "Map pattern: map 'g.nc', 8-byte elements, --vars 1 per decomposition" */
static void map_header(FILE *out, const struct config *c, int rank, const char *hdf5_version,
                       int max_info_val)
{
    char line[512], opt[160];
    (void)rank, (void)max_info_val;
    map_option_text(c, opt, sizeof opt);
    if (c->nvar_counts)
        snprintf(line, sizeof line,
                 "Map pattern: %s, %d-byte elements, variables per decomposition %s\n", opt,
                 c->elem, c->raw[OPT_VARS]);
    else
        snprintf(line, sizeof line,
                 "Map pattern: %s, %d-byte elements, %d variable%s per decomposition\n", opt,
                 c->elem, c->nvars, c->nvars == 1 ? "" : "s");
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_header(out, &rs, hdf5_version, line);
}

static void map_nprocs_end(FILE *out, const struct config *c, const struct results_log *log,
                           int nprocs)
{
    char what[192];
    snprintf(what, sizeof what, "map '%s'", map_of(c)->file);
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_write(out, &rs, log, nprocs, what);
}

static const struct pattern_report map_report = {
    .header = map_header,
    .nprocs_end = map_nprocs_end,
};

static void map_json_config(struct jsonw *w, const struct config *c)
{
    jsonw_key(w, "map");
    jsonw_object(w);
    pattern_json_rows(w, c, &pattern_map);
    jsonw_end(w);
}

const struct pattern_desc pattern_map = {
    .key = "map",
    .title = "--pattern map",
    .rows = map_rows,
    .help_heading = "--pattern map (decompositions read from a map file, E3SM-IO's or a "
                    "text map, docs/map.md) takes",
    .layouts = 1u << LAYOUT_SHARED | 1u << LAYOUT_FPP,
    .finish = map_finish,
    .load = map_load,
    .input_parts = map_input_parts,
    .adopt = map_adopt_part,
    .input_release = map_input_release,
    .grid_dims = map_grid_dims,
    .points = map_points,
    .validate = map_validate,
    .measure = map_measure,
    .plan = map_plan,
    .plan_release = map_plan_release,
    .label = app_label,
    .lead = map_lead,
    .smaller_chunks = "more processes",
    .read_source = map_read_source,
    .cache_advice = "use a map whose arrays, times --vars, are larger than the hosts' memory",
    .memory_lead = map_memory_lead,
    .buffer_name = "selection of one variable",
    .buffer_remedy = "a map with more processes, on more hosts",
    .file_lead = map_file_lead,
    .var_word = "variable",
    .report = &map_report,
    .json_config = map_json_config,
};
