/* The guide's 1D and 2D patterns (docs/original.md) as a pattern of the
 * table: its run points (process counts, transfer sizes doubling, the
 * APIs), its plans (guide_geom.h: transfer k of dataset d is one step of
 * one piece), its content (one byte value per process), labels and report
 * sections. Its option handling is in guide_finish.c and guide_check.c. */
#include "pattern/guide.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pattern/guide_geom.h"
#include "pattern/guide_options.h"
#include "report/text.h"

/* What a guide plan keeps: the write and read phases' geometry (the read
 * phase's may be another process's data, --read-shift). */
struct guide_state {
    struct guide_geom geom[2];
    bool chunked; /* -c: chunked HDF5 datasets */
};

static const struct guide_state *guide_state_of(const struct plan *p)
{
    return (const struct guide_state *)p->state.bytes;
}

static struct guide_params guide_params_of(const struct config *c, int nprocs, int64_t xfer)
{
    const struct guide_settings *g = guide_of(c);
    return (struct guide_params){.geometry = g->geometry_2d ? 2 : 1,
                                 .interleaved = g->interleaved,
                                 .chunked = g->chunk,
                                 .bytes = g->bytes,
                                 .block = g->block,
                                 .xfer = xfer,
                                 .nprocs = nprocs};
}

/* --- the plan functions ------------------------------------------------- */

static void guide_var(const struct plan *p, int v, struct plan_var *out)
{
    const struct guide_state *st = guide_state_of(p);
    const struct guide_slab *s = &st->geom[0].slab;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "Dataset_%d", v + 1);
    out->kind = PLAN_UNSIGNED;
    out->elem = 1;
    out->ndims = s->ndims;
    for (int d = 0; d < s->ndims; d++) {
        out->dims[d] = s->dims[d];
        out->chunk[d] = st->chunked ? s->chunk[d] : 0;
    }
    out->library_fill = true;
}

static void guide_access(const struct plan *p, int phase, int v, struct plan_access *out)
{
    const struct guide_geom *g = &guide_state_of(p)->geom[phase];
    (void)v;
    memset(out, 0, sizeof *out);
    out->nsteps = g->ntransfers;
    out->tile = g->xfer_step;
    /* Every process's transfers have the same shape. */
    out->view_any = g->shape.count > 1;
    out->split_runs = true;
    out->array_base = -1;
}

/* Transfer k of dataset v: its hyperslab moved to k, and its runs. */
static void guide_step(const struct plan *p, int phase, int v, int64_t k, struct plan_step *out)
{
    const struct guide_geom *g = &guide_state_of(p)->geom[phase];
    const struct guide_slab *s = &g->slab;
    plan_step_empty(out, p->phases[phase].write, v, k);
    out->nslabs = out->nruns = 1;
    out->bytes = g->xfer_bytes;
    struct model_slab *sl = &out->local_slabs[0];
    int64_t off[2];
    guide_slab_offset(g, k, off);
    sl->ndims = s->ndims;
    for (int d = 0; d < s->ndims; d++) {
        sl->start[d] = s->start[d] + off[d];
        sl->stride[d] = s->stride[d];
        sl->count[d] = s->count[d];
        sl->block[d] = s->block[d];
    }
    struct guide_vec vec = guide_file_vec(g, k);
    out->local_runs[0] = (struct model_runs){.disp = (int64_t)v * g->dset_bytes + vec.disp,
                                             .len = vec.len,
                                             .count = {1, vec.count},
                                             .stride = {0, vec.stride}};
}

static void guide_fill(const struct plan *p, int phase, int v, unsigned char *buf, bool poison)
{
    const struct guide_geom *g = &guide_state_of(p)->geom[phase];
    unsigned char value = guide_fill_value(g);
    (void)v;
    memset(buf, poison ? (unsigned char)~value : value, (size_t)g->xfer_bytes);
}

static int64_t guide_verify(const struct plan *p, int phase, const struct plan_step *s,
                            const unsigned char *buf, int64_t *bad_off, unsigned char *expected,
                            unsigned char *found)
{
    unsigned char want = guide_fill_value(&guide_state_of(p)->geom[phase]);
    int64_t bad = 0;
    buf += s->mem_off;
    for (int64_t i = 0; i < s->bytes; i++) {
        if (buf[i] == want)
            continue;
        if (bad++ == 0) {
            *bad_off = i;
            *expected = want;
            *found = buf[i];
        }
    }
    return bad;
}

static const struct plan_ops guide_ops = {
    .var = guide_var,
    .access = guide_access,
    .step = guide_step,
    .fill = guide_fill,
    .verify = guide_verify,
};

/* --- the pattern's entry points ----------------------------------------- */

static int guide_plan(const struct config *c, const struct run_point *pt, int rank, int it,
                      struct plan *out)
{
    _Static_assert(sizeof(struct guide_state) <= PLAN_STATE_BYTES, "guide_state fits in a plan");
    const struct guide_settings *gs = guide_of(c);
    struct guide_params pp = guide_params_of(c, pt->nprocs, pt->xfer);
    struct guide_state st = {.chunked = gs->chunk};
    int source = (int)(((int64_t)rank + c->read_shift) % pt->nprocs);
    if (guide_init(&st.geom[0], &pp, rank, rank, NULL) < 0 ||
        guide_init(&st.geom[1], &pp, rank, source, NULL) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->ops = &guide_ops;
    out->nprocs = pt->nprocs;
    out->exec_rank = rank;
    out->data_rank = rank;
    out->iteration = it;
    out->nfiles = gs->num_files;
    out->nvars = gs->num_dsets;
    out->nphases = 2;
    out->phases[0] = (struct plan_phase){"write", true, 0};
    out->phases[1] = (struct plan_phase){"read", false, 1};
    out->buffer_bytes = st.geom[0].xfer_bytes;
    out->flat_bytes = (int64_t)gs->num_dsets * st.geom[0].dset_bytes;
    memcpy(out->state.bytes, &st, sizeof st);
    return 0;
}

static int guide_grid_dims(const struct config *c)
{
    (void)c;
    return 0;
}

/* The transfer sizes of docs/original.md §3.3, from -x doubling up to -X:
 * for (int64_t x = guide_xfer_first(g); x != 0; x = guide_xfer_next(g, x)) */
static int64_t guide_xfer_first(const struct guide_settings *g)
{
    return g->xfer_min <= g->xfer_max ? g->xfer_min : 0;
}

static int64_t guide_xfer_next(const struct guide_settings *g, int64_t xfer)
{
    if (xfer > g->xfer_max / 2)
        return 0;
    return xfer * 2;
}

static int guide_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
                        struct run_point *out, int max)
{
    int n = 0;
    (void)grid;
    const struct guide_settings *g = guide_of(c);
    for (int64_t x = guide_xfer_first(g); x != 0; x = guide_xfer_next(g, x))
        for (int a = 0; a < API_COUNT; a++) {
            if (!(c->apis & API_BIT(a)))
                continue;
            if (n < max)
                out[n] = (struct run_point){
                    .nprocs = nprocs, .api = (enum api_id)a, .xfer = x, .layout = -1};
            n++;
        }
    return n;
}

/* Every process holds one transfer buffer; a call moves at most one piece
 * independently, or the transfer's pieces through a view collectively. */
static void guide_measure(const struct config *c, const struct run_point *pt,
                          struct pattern_measure *m, int64_t *buffers)
{
    const struct guide_settings *gs = guide_of(c);
    struct guide_params pp = guide_params_of(c, pt->nprocs, pt->xfer);
    struct guide_geom g;
    memset(m, 0, sizeof *m);
    if (guide_init(&g, &pp, 0, 0, NULL) < 0)
        return;
    m->phase_bytes = (int64_t)gs->num_files * gs->num_dsets * g.dset_bytes;
    m->max_buffer = g.xfer_bytes;
    m->max_call = g.xfer_bytes;
    m->max_chunk = gs->chunk ? model_product(g.slab.ndims, g.slab.chunk) : 0;
    m->flat_bytes = (int64_t)gs->num_dsets * g.dset_bytes;
    m->max_dim = g.slab.dims[0];
    m->views = g.shape.count > 1;
    /* Independent calls go piece by piece (split_runs): no view. */
    m->call_runs = c->collective ? g.shape.count : 1;
    int64_t xfers = g.dset_bytes / pt->nprocs / g.xfer_bytes;
    m->phase_runs = (int64_t)gs->num_files * gs->num_dsets * xfers * g.shape.count;
    m->nvars = gs->num_dsets;
    m->var_bytes = g.dset_bytes;
    for (int r = 0; buffers && r < pt->nprocs; r++)
        buffers[r] = g.xfer_bytes;
}

static void guide_label(const struct config *c, const struct run_point *pt, bool exact, char *buf,
                        size_t len)
{
    char size[32];
    (void)c;
    if (exact)
        snprintf(size, sizeof size, "%" PRId64, pt->xfer);
    else
        text_size(size, sizeof size, pt->xfer);
    snprintf(buf, len, "transfer size %s", size);
}

/* "transfer size 4 GiB with 2 processes" */
static void guide_lead(const struct config *c, const struct run_point *pt, char *buf, size_t len)
{
    char b[32];
    (void)c;
    cli_bytes(b, sizeof b, pt->xfer);
    snprintf(buf, len, "transfer size %s with %d process%s", b, pt->nprocs,
             pt->nprocs == 1 ? "" : "es");
}

/* HDF5's chunks are -B (x -B): "-c with -B of 4 GiB". */
static void guide_chunk_lead(const struct config *c, const struct run_point *pt, char *buf,
                             size_t len)
{
    char b[32];
    (void)pt;
    cli_bytes(b, sizeof b, guide_of(c)->block);
    snprintf(buf, len, "%s with -B of %s",
             guide_spelled(c, &guide_chunk_row) ? guide_spelled(c, &guide_chunk_row) : "-c", b);
}

static int guide_read_source(const struct config *c, int nprocs, int rank)
{
    return (int)(((int64_t)rank + c->read_shift) % nprocs);
}

/* -D 4: the original labels both phases do_write (docs/original.md §7.4);
 * kept for parsers. */
static void guide_debug_line(const struct plan *p, int phase, int rank, char *buf, size_t len)
{
    const struct guide_geom *g = &guide_state_of(p)->geom[phase];
    if (g->p.geometry == 1)
        snprintf(buf, len,
                 "%d: Debug(do_write): buf_size=%" PRId64 ", bytes_begin=%" PRId64
                 ", bytes_count=%" PRId64 "\n",
                 rank, g->xfer_bytes, g->rank_begin, g->rank_bytes);
    else
        snprintf(buf, len,
                 "%d: Debug(do_write): linear buf_size=%" PRId64 ", bytes_begin=(%" PRId64
                 ",%" PRId64 "), bytes_count=%" PRId64 "\n",
                 rank, g->xfer_bytes, g->rank_begin / g->side, g->rank_begin % g->side,
                 g->rank_bytes);
}

/* --- the report and the results ----------------------------------------- */

static void guide_header(FILE *out, const struct config *c, int rank, const char *hdf5_version,
                         int max_info_val)
{
    struct report_settings rs;
    config_report_settings(c, &rs);
    text_header(out, &rs, rank, hdf5_version, max_info_val);
}

static void guide_nprocs_begin(FILE *out, const struct config *c, int nprocs)
{
    (void)c;
    text_nprocs(out, nprocs);
}

static void guide_point_begin(FILE *out, const struct config *c, const struct run_point *prev,
                              const struct run_point *p)
{
    if (!prev || prev->xfer != p->xfer || prev->buf_offset != p->buf_offset) {
        struct report_settings rs;
        config_report_settings(c, &rs);
        text_xfer(out, &rs, p->nprocs, p->xfer);
        if (c->nbuf_offset)
            text_buffer_offset(out, p->buf_offset);
    }
    text_api(out, p->api, p->variant);
}

static void guide_point_end(FILE *out, const struct config *c, const struct api_result *r)
{
    if (results_status(r) != RUN_IO_ERROR) {
        struct report_settings rs;
        config_report_settings(c, &rs);
        text_api_results(out, &rs, r);
    }
}

static void guide_footer(FILE *out, const struct config *c, const struct results_log *log)
{
    if (c->overhead) {
        struct report_settings rs;
        config_report_settings(c, &rs);
        text_overhead(out, &rs, log);
    }
}

static const struct pattern_report guide_report = {
    .header = guide_header,
    .nprocs_begin = guide_nprocs_begin,
    .point_begin = guide_point_begin,
    .point_end = guide_point_end,
    .footer = guide_footer,
};

/* The guide's options, at the top of the results' configuration. */
static void guide_json_config(struct jsonw *w, const struct config *c)
{
    pattern_json_rows(w, c, &pattern_guide);
}

const struct pattern_desc pattern_guide = {
    .key = "guide",
    .title = "the guide's patterns",
    .gloss = "(the guide's 1D and 2D patterns)",
    .rows = guide_rows,
    .help_heading = "The guide's patterns (--pattern guide, the default) take",
    .help_note = "A transfer size must be a multiple of -B and must divide -e (in 2D: the\n"
                 "dataset side, and -B must divide -e). Transfer sizes above -e (1D), -x\n"
                 "above -X, -B above -e and -p above -P are lowered with a warning.",
    .layouts = 0,
    .finish = guide_finish,
    .grid_dims = guide_grid_dims,
    .points = guide_points,
    .validate = guide_validate,
    .measure = guide_measure,
    .plan = guide_plan,
    .label = guide_label,
    .lead = guide_lead,
    .chunk_lead = guide_chunk_lead,
    .smaller_chunks = "a smaller -B",
    .read_source = guide_read_source,
    .cache_advice = "use --direct for POSIX, or --read-shift with processes on several hosts",
    .debug_line = guide_debug_line,
    .memory_lead = guide_memory_lead,
    .buffer_name = "transfer buffer",
    .buffer_remedy = "smaller transfer sizes or fewer processes per host",
    .file_lead = guide_file_lead,
    .files = guide_files,
    .var_word = "dataset",
    .report = &guide_report,
    .json_config = guide_json_config,
};
