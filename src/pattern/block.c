/* The block pattern (docs/block.md) as a pattern of the table: an array of
 * 1 to 3 dimensions decomposed in blocks over a process grid, each process
 * moving its block of each variable (app.h), stored shared, chunked or a
 * file per process; its report is the application patterns' table. Its
 * options' finish is block_finish.c, its validation app_check.c. */
#include "pattern/block.h"

#include <stdio.h>
#include <string.h>

#include "cli/dims.h"
#include "pattern/app_points.h"
#include "pattern/block_options.h"
#include "report/table.h"

#define BLOCK_MB 1048576.0

void block_params(const struct config *c, const struct run_point *p, bool read,
                  struct app_params *out)
{
    const struct block_settings *b = block_of(c);
    *out = (struct app_params){.nprocs = p->nprocs,
                               .ndims = b->ndims,
                               .elem = c->elem,
                               .nvars = c->nvars,
                               .layout = p->layout,
                               .align = p->align,
                               .shift = p->shift};
    for (int d = 0; d < MODEL_MAX_DIMS; d++) {
        out->global[d] = b->global[d];
        out->grid[d] = read && b->read_grid[0] > 0 ? b->read_grid[d] : p->grid[d];
        out->chunk[d] = b->chunk_shape[d];
    }
}

static void block_name(const struct app_state *st, int v, char *buf, size_t len)
{
    (void)st;
    snprintf(buf, len, "v%d", v);
}

static enum plan_kind block_kind(int v)
{
    (void)v;
    return PLAN_UNSIGNED;
}

/* Does a box of the shared array need several runs (a file view)? The
 * same for every box of a grid that divides the array. */
static bool block_runs(const struct app_geom *g)
{
    return g->run_disp < 0;
}

static int block_state(const struct config *c, const struct run_point *p, int rank,
                       struct app_state *st)
{
    memset(st, 0, sizeof *st);
    for (int ph = 0; ph < 2; ph++) {
        struct app_params a;
        struct model_box box;
        block_params(c, p, ph == 1, &a);
        if (app_check_block(&a) != PATTERN_OK)
            return -1;
        model_block(a.ndims, a.global, a.grid, rank, &box);
        app_place(&st->geom[ph], &a, rank, &box);
        st->nsteps[ph] = app_calls(st->geom[ph].rank_bytes, a.elem, c->transfer_size);
        st->view_any[ph] = block_runs(&st->geom[ph]);
    }
    st->xfer_elems = c->transfer_size / c->elem;
    st->name = block_name;
    st->kind = block_kind;
    return 0;
}

static int block_plan(const struct config *c, const struct run_point *p, int rank, int it,
                      struct plan *out)
{
    struct app_state st;
    if (block_state(c, p, rank, &st) < 0)
        return -1;
    st.iteration = it;
    app_plan(out, &st, p->nprocs, rank, 1);
    return 0;
}

static int block_grid_dims(const struct config *c)
{
    return block_of(c)->grid[0] > 0 ? 0 : block_of(c)->ndims;
}

static int block_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
                        struct run_point *out, int max)
{
    const struct block_settings *b = block_of(c);
    return app_points(c, nprocs, b->grid[0] > 0 ? b->grid : grid, out, max);
}

/* The runs of phase ph of a process's box, in one call and in the phase
 * (each step boundary may split a run); the same for every box of a grid
 * that divides the array. */
static void block_runs_of(const struct app_state *st, int ph, int nvars, int64_t *call,
                          int64_t *phase)
{
    const struct app_geom *g = &st->geom[ph];
    struct model_runs r;
    int64_t runs = 1, len = g->rank_bytes;
    if (g->run_disp < 0 && model_box_runs(&g->storage, &g->box, &r) == 0) {
        runs = r.count[0] * r.count[1];
        len = r.len * g->a.elem;
    }
    int64_t per = app_step_bytes(st, ph), steps = st->nsteps[ph];
    int64_t in_call = len > 0 ? per / len + 1 : 1;
    *call = runs < in_call ? runs : in_call;
    *phase = nvars * (runs + steps - 1);
}

/* Every block of a grid that divides the array has the same size: each
 * process holds the largest of its write and read blocks. */
static void block_measure(const struct config *c, const struct run_point *p,
                          struct pattern_measure *m, int64_t *buffers)
{
    struct app_state st;
    memset(m, 0, sizeof *m);
    if (block_state(c, p, 0, &st) < 0)
        return;
    const struct app_geom *w = &st.geom[0], *r = &st.geom[1];
    const struct block_settings *b = block_of(c);
    m->phase_bytes = model_product(b->ndims, b->global) * c->elem * c->nvars;
    m->max_buffer = w->rank_bytes > r->rank_bytes ? w->rank_bytes : r->rank_bytes;
    for (int ph = 0; ph < 2; ph++) {
        int64_t call = app_step_bytes(&st, ph);
        m->max_call = call > m->max_call ? call : m->max_call;
        m->views |= st.view_any[ph];
        int64_t runs_call, runs_phase;
        block_runs_of(&st, ph, c->nvars, &runs_call, &runs_phase);
        m->call_runs = runs_call > m->call_runs ? runs_call : m->call_runs;
        m->phase_runs = runs_phase > m->phase_runs ? runs_phase : m->phase_runs;
    }
    m->nvars = c->nvars;
    m->var_bytes = model_product(b->ndims, b->global) * c->elem;
    if (p->layout == LAYOUT_CHUNKED)
        m->max_chunk = b->chunk_shape[0] > 0 ? model_product(b->ndims, b->chunk_shape) * c->elem
                                             : w->rank_bytes;
    m->flat_bytes = app_file_end(w, c->nvars);
    for (int d = 0; d < b->ndims; d++)
        m->max_dim = b->global[d] > m->max_dim ? b->global[d] : m->max_dim;
    for (int k = 0; buffers && k < p->nprocs; k++)
        buffers[k] = m->max_buffer;
}

static void block_option(const struct config *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s '%s'", block_spelled(c, &block_global_row),
             block_raw(c, &block_global_row));
}

static void block_lead(const struct config *c, const struct run_point *p, char *buf, size_t len)
{
    char opt[160];
    block_option(c, opt, sizeof opt);
    app_lead(opt, p, buf, len);
}

static void block_memory_lead(const struct config *c, int nprocs, char *buf, size_t len)
{
    char opt[160];
    block_option(c, opt, sizeof opt);
    app_memory_lead(opt, nprocs, buf, len);
}

static void block_file_lead(const struct config *c, char *buf, size_t len)
{
    char opt[160];
    block_option(c, opt, sizeof opt);
    app_file_lead(c, opt, buf, len);
}

/* With --read-grid a process reads parts of other processes' blocks. */
static int block_read_source(const struct config *c, int nprocs, int rank)
{
    (void)nprocs;
    return block_of(c)->read_grid[0] > 0 ? -1 : rank;
}

/* --- the report and the results ----------------------------------------- */

static void block_header(FILE *out, const struct config *c, int rank, const char *hdf5_version,
                         int max_info_val)
{
    const struct block_settings *b = block_of(c);
    char dims[96], line[256];
    (void)rank, (void)max_info_val;
    dims_text(dims, sizeof dims, b->ndims, b->global);
    int64_t n = model_product(b->ndims, b->global);
    double mb = (double)n * c->elem * c->nvars / BLOCK_MB;
    snprintf(line, sizeof line,
             "Block pattern: array %s of %d-byte elements, %d variable%s, %.2f MB per phase\n",
             dims, c->elem, c->nvars, c->nvars == 1 ? "" : "s", mb);
    if (b->chunk_shape[0] > 0) {
        char chunk[96];
        dims_text(chunk, sizeof chunk, b->ndims, b->chunk_shape);
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, "HDF5 chunks of the chunked layout: %s\n", chunk);
    }
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_header(out, &rs, hdf5_version, line);
}

static void block_nprocs_end(FILE *out, const struct config *c, const struct results_log *log,
                             int nprocs)
{
    int grid[MODEL_MAX_DIMS] = {0, 0, 0};
    for (int i = 0; i < log->count; i++)
        if (log->runs[i].nprocs == nprocs) {
            memcpy(grid, log->runs[i].grid, sizeof grid);
            break;
        }
    int64_t g[MODEL_MAX_DIMS] = {grid[0], grid[1], grid[2]};
    char gt[64], what[96];
    dims_text(gt, sizeof gt, block_of(c)->ndims, g);
    snprintf(what, sizeof what, "grid %s", gt);
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_write(out, &rs, log, nprocs, what);
}

static const struct pattern_report block_report = {
    .header = block_header,
    .nprocs_end = block_nprocs_end,
};

static void block_json_config(struct jsonw *w, const struct config *c)
{
    jsonw_key(w, "block");
    jsonw_object(w);
    pattern_json_rows(w, c, &pattern_block);
    jsonw_end(w);
}

static void block_json_run(struct jsonw *w, const struct config *c, const struct api_result *r)
{
    jsonw_key_grid(w, "grid", block_of(c)->ndims, r->grid);
}

const struct pattern_desc pattern_block = {
    .key = "block",
    .title = "--pattern block",
    .rows = block_rows,
    .help_heading = "--pattern block (an array decomposed in blocks, docs/block.md) takes",
    .layouts = 1u << LAYOUT_SHARED | 1u << LAYOUT_CHUNKED | 1u << LAYOUT_FPP,
    .finish = block_finish,
    .grid_dims = block_grid_dims,
    .points = block_points,
    .validate = block_validate,
    .measure = block_measure,
    .plan = block_plan,
    .label = app_label,
    .lead = block_lead,
    .smaller_chunks = "more processes",
    .read_source = block_read_source,
    .cache_advice = "use an array larger than the hosts' memory, or --read-grid with processes "
                    "on several hosts",
    .memory_lead = block_memory_lead,
    .buffer_name = "block",
    .buffer_remedy = "more processes, on more hosts",
    .file_lead = block_file_lead,
    .var_word = "variable",
    .report = &block_report,
    .json_config = block_json_config,
    .json_run = block_json_run,
};
