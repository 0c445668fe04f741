/* app.h: the application patterns' arrays, boxes, placement, steps and
 * content. A process's box of variable v holds, at global element index i
 * (C order), (i + v*N) mod 2^(8*elem) in elem little-endian bytes, N the
 * array's elements (docs/block.md), whatever the layout. */
#include "pattern/app.h"

#include <stdio.h>
#include <string.h>

enum pattern_violation app_check_block(const struct app_params *a)
{
    if (a->ndims < 1 || a->ndims > MODEL_MAX_DIMS || a->nprocs <= 0 || a->nvars < 1 ||
        (a->elem != 1 && a->elem != 2 && a->elem != 4 && a->elem != 8) || a->layout < 0 ||
        a->layout >= LAYOUT_COUNT)
        return PATTERN_BAD_VALUE;
    int64_t grid[MODEL_MAX_DIMS];
    for (int d = 0; d < a->ndims; d++) {
        if (a->global[d] <= 0 || a->grid[d] <= 0)
            return PATTERN_BAD_VALUE;
        grid[d] = a->grid[d];
    }
    if (model_product(a->ndims, grid) != a->nprocs)
        return PATTERN_GRID_PROCS;
    for (int d = 0; d < a->ndims; d++)
        if (a->global[d] % a->grid[d] != 0)
            return PATTERN_GRID_SPLIT;
    if (a->align < 0 || a->shift < 0 || (a->layout == LAYOUT_FPP && (a->align > 0 || a->shift > 0)))
        return PATTERN_ALIGN;
    /* Every variable of the array, in bytes, must fit: offsets reach it,
     * padded and shifted. */
    int64_t n = model_product(a->ndims, a->global), bytes;
    if (n < 0 || __builtin_mul_overflow(n, (int64_t)a->elem * a->nvars, &bytes))
        return PATTERN_OVERFLOW;
    int64_t tiles = 1, tile_bytes = n * a->elem, stride, end;
    for (int d = 0; a->layout == LAYOUT_CHUNKED && d < a->ndims; d++) {
        tiles *= a->grid[d];
        tile_bytes /= a->grid[d];
    }
    int64_t padded = model_round_up(tile_bytes, a->align);
    if (padded < 0 || __builtin_mul_overflow(padded, tiles, &stride) ||
        __builtin_mul_overflow(stride, (int64_t)a->nvars, &end) ||
        __builtin_add_overflow(end, a->shift, &end))
        return PATTERN_OVERFLOW;
    return PATTERN_OK;
}

/* --align-data and --shift (docs/particles.md, "Alignment"): each
 * variable from a multiple of align, and in the chunked layout each block
 * too (padding after it); every offset moved by shift. The shared layout's
 * array keeps its C order: only its variables move. */
static void app_place_vars(struct app_geom *g)
{
    const struct app_params *a = &g->a;
    g->file_shift = a->shift;
    g->var_stride = g->var_end = g->dset_bytes;
    if (a->align <= 0)
        return;
    if (a->layout == LAYOUT_CHUNKED) {
        int64_t tile = g->rank_bytes, padded = model_round_up(tile, a->align);
        int64_t tiles = tile > 0 ? g->dset_bytes / tile : 0;
        g->run_disp = tile > 0 ? g->run_disp / tile * padded : 0;
        g->var_stride = tiles * padded;
        g->var_end = tiles > 0 ? (tiles - 1) * padded + tile : 0;
        return;
    }
    g->var_stride = model_round_up(g->dset_bytes, a->align);
}

void app_place(struct app_geom *g, const struct app_params *a, int data_rank,
               const struct model_box *b)
{
    memset(g, 0, sizeof *g);
    g->a = *a;
    g->data_rank = data_rank;
    g->box = *b;
    int n = a->ndims;
    g->elems = model_product(n, b->count);
    int64_t total = model_product(n, a->global);
    g->dset_bytes = (a->layout == LAYOUT_FPP ? g->elems : total) * a->elem;
    g->rank_bytes = g->elems * a->elem;
    g->c_order = a->layout == LAYOUT_SHARED;
    struct model_storage *st = &g->storage;
    st->ndims = n;
    for (int d = 0; d < n; d++)
        st->dims[d] = a->global[d];
    struct model_runs r;
    if (a->layout == LAYOUT_FPP) {
        g->run_disp = 0;
    } else if (a->layout == LAYOUT_CHUNKED) {
        struct model_storage tiled = *st;
        for (int d = 0; d < n; d++)
            tiled.tile[d] = a->global[d] / a->grid[d];
        g->run_disp = model_offset(&tiled, b->start) * a->elem;
    } else if (model_box_runs(st, b, &r) < 0 || (r.count[0] == 1 && r.count[1] == 1)) {
        /* One run (a 1D box, whole rows), or an empty box: where its run
         * would start. */
        g->run_disp = model_offset(st, b->start) * a->elem;
    } else {
        g->run_disp = -1;
    }
    app_place_vars(g);
}

int64_t app_var_base(const struct app_geom *g, int v)
{
    return g->file_shift + (int64_t)v * g->var_stride;
}

int64_t app_file_end(const struct app_geom *g, int nvars)
{
    return nvars > 0 ? app_var_base(g, nvars - 1) + g->var_end : 0;
}

int64_t app_calls(int64_t rank_bytes, int elem, int64_t xfer)
{
    int64_t per = xfer > 0 ? xfer / elem * elem : 0;
    if (per <= 0 || rank_bytes <= per)
        return 1;
    return rank_bytes / per + (rank_bytes % per != 0);
}

int64_t app_step_bytes(const struct app_state *st, int phase)
{
    const struct app_geom *g = &st->geom[phase];
    int64_t per = st->xfer_elems * g->a.elem;
    return per > 0 && per < g->rank_bytes ? per : g->rank_bytes;
}

/* --- the plan functions ------------------------------------------------- */

static const struct app_state *app_state_of(const struct plan *p)
{
    return (const struct app_state *)p->state.bytes;
}

static void app_var(const struct plan *p, int v, struct plan_var *out)
{
    const struct app_state *st = app_state_of(p);
    const struct app_geom *g = &st->geom[0];
    memset(out, 0, sizeof *out);
    st->name(st, v, out->name, sizeof out->name);
    out->kind = st->kind(v);
    out->elem = g->a.elem;
    out->ndims = g->a.ndims;
    for (int d = 0; d < g->a.ndims; d++) {
        out->dims[d] = g->a.layout == LAYOUT_FPP ? g->box.count[d] : g->a.global[d];
        if (g->a.layout == LAYOUT_CHUNKED)
            out->chunk[d] = g->a.chunk[0] > 0 ? g->a.chunk[d] : g->a.global[d] / g->a.grid[d];
    }
    out->library_fill = false;
}

/* The slab of a sub-box s of the process's box, in the file's element
 * space (a file per process holds the box alone). */
static void app_slab(const struct app_geom *g, const struct model_box *s, struct model_slab *out)
{
    model_slab_of_box(s, out);
    for (int d = 0; g->a.layout == LAYOUT_FPP && d < s->ndims; d++)
        out->start[d] -= g->box.start[d];
}

/* The runs of a sub-box s of the process's box in the shared array of
 * variable v (one C-order run of the array per row, or per plane of whole
 * rows). False where the box is one run (run_disp), which a range of it
 * is too. */
static bool app_box_runs(const struct app_geom *g, int v, const struct model_box *s,
                         struct model_runs *out)
{
    struct model_runs r;
    int64_t e = g->a.elem;
    if (g->run_disp >= 0 || model_box_runs(&g->storage, s, &r) < 0)
        return false;
    *out = (struct model_runs){.disp = app_var_base(g, v) + r.disp * e,
                               .len = r.len * e,
                               .count = {r.count[0], r.count[1]},
                               .stride = {r.stride[0] * e, r.stride[1] * e}};
    return true;
}

/* The one run of the elements [first, first + n) of a box that is one run
 * (or empty) in the file of variable v. */
static struct model_runs app_range_run(const struct app_geom *g, int v, int64_t first, int64_t n)
{
    int64_t e = g->a.elem, at = g->run_disp >= 0 ? g->run_disp : 0;
    return plan_run(app_var_base(g, v) + at + first * e, n * e);
}

static void app_access(const struct plan *p, int phase, int v, struct plan_access *out)
{
    const struct app_state *st = app_state_of(p);
    const struct app_geom *g = &st->geom[phase];
    memset(out, 0, sizeof *out);
    out->nsteps = st->nsteps[phase];
    out->nwhole = out->nwhole_runs = 1;
    app_slab(g, &g->box, &out->whole_local_slabs[0]);
    if (!app_box_runs(g, v, &g->box, &out->whole_local_runs[0]))
        out->whole_local_runs[0] = app_range_run(g, v, 0, g->elems);
    out->view_any = st->view_any[phase];
    out->array_base = g->c_order ? app_var_base(g, v) : -1;
}

static void app_step(const struct plan *p, int phase, int v, int64_t k, struct plan_step *out)
{
    const struct app_state *st = app_state_of(p);
    const struct app_geom *g = &st->geom[phase];
    int64_t per = st->xfer_elems > 0 ? st->xfer_elems : g->elems;
    int64_t first = k * per, n = g->elems - first < per ? g->elems - first : per;
    plan_step_empty(out, p->phases[phase].write, v, k);
    if (n <= 0 || first >= g->elems) {
        /* Past this process's data (uneven counts), or an empty box: the
         * call is still made, as the others' collective calls need it; it
         * starts where the data would. */
        struct model_box empty = g->box;
        empty.count[0] = 0;
        out->nslabs = out->nruns = 1;
        app_slab(g, &empty, &out->local_slabs[0]);
        out->local_runs[0] = app_range_run(g, v, g->elems, 0);
        out->mem_off = g->elems * g->a.elem;
        return;
    }
    struct model_box boxes[MODEL_RANGE_BOXES];
    int nb = model_box_range(&g->box, first, n, boxes);
    out->nslabs = nb;
    out->nruns = 0;
    for (int i = 0; i < nb; i++) {
        app_slab(g, &boxes[i], &out->local_slabs[i]);
        if (app_box_runs(g, v, &boxes[i], &out->local_runs[out->nruns]))
            out->nruns++;
    }
    /* A box that is one run: a range of it is one run too. */
    if (out->nruns == 0) {
        out->nruns = 1;
        out->local_runs[0] = app_range_run(g, v, first, n);
    }
    out->mem_off = first * g->a.elem;
    out->bytes = n * g->a.elem;
}

/* Calls visit(ctx, offset in the buffer, value) for each element of box s
 * of variable v, in C order, the first at buffer offset off. */
static void app_walk(const struct app_geom *g, int v, const struct model_box *s, int64_t off,
                     void (*visit)(void *ctx, int64_t off, uint64_t value), void *ctx)
{
    int64_t dims[3] = {1, 1, 1}, start[3] = {0, 0, 0}, count[3] = {1, 1, 1};
    int lead = 3 - g->a.ndims;
    for (int d = 0; d < g->a.ndims; d++) {
        dims[lead + d] = g->a.global[d];
        start[lead + d] = s->start[d];
        count[lead + d] = s->count[d];
    }
    uint64_t base = (uint64_t)v * (uint64_t)model_product(g->a.ndims, g->a.global);
    for (int64_t z = 0; z < count[0]; z++)
        for (int64_t y = 0; y < count[1]; y++) {
            int64_t i = ((start[0] + z) * dims[1] + start[1] + y) * dims[2] + start[2];
            for (int64_t x = 0; x < count[2]; x++, off += g->a.elem)
                visit(ctx, off, base + (uint64_t)(i + x));
        }
}

struct app_fill_ctx {
    int elem;
    unsigned char *buf;
    bool poison;
};

static void app_put(void *ctx, int64_t off, uint64_t value)
{
    struct app_fill_ctx *c = ctx;
    for (int k = 0; k < c->elem; k++, value >>= 8)
        c->buf[off + k] = (unsigned char)(c->poison ? ~value : value);
}

static void app_fill(const struct plan *p, int phase, int v, unsigned char *buf, bool poison)
{
    const struct app_geom *g = &app_state_of(p)->geom[phase];
    struct app_fill_ctx c = {g->a.elem, buf, poison};
    app_walk(g, v, &g->box, 0, app_put, &c);
}

struct app_check_ctx {
    int elem;
    const unsigned char *buf;
    int64_t bad, bad_off;
    unsigned char expected, found;
};

static void app_compare(void *ctx, int64_t off, uint64_t value)
{
    struct app_check_ctx *c = ctx;
    for (int k = 0; k < c->elem; k++, value >>= 8) {
        unsigned char want = (unsigned char)value, got = c->buf[off + k];
        if (got == want)
            continue;
        if (c->bad++ == 0) {
            c->bad_off = off + k;
            c->expected = want;
            c->found = got;
        }
    }
}

static int64_t app_verify(const struct plan *p, int phase, const struct plan_step *s,
                          const unsigned char *buf, int64_t *bad_off, unsigned char *expected,
                          unsigned char *found)
{
    const struct app_geom *g = &app_state_of(p)->geom[phase];
    struct app_check_ctx c = {g->a.elem, buf + s->mem_off, 0, 0, 0, 0};
    const struct model_slab *sl = plan_slabs(s);
    int64_t off = 0;
    for (int i = 0; i < s->nslabs; i++) {
        struct model_box b = {sl[i].ndims, {0}, {0}};
        for (int d = 0; d < b.ndims; d++) {
            b.start[d] = sl[i].start[d] + (g->a.layout == LAYOUT_FPP ? g->box.start[d] : 0);
            b.count[d] = sl[i].count[d] * sl[i].block[d];
        }
        app_walk(g, s->var, &b, off, app_compare, &c);
        off += model_product(b.ndims, b.count) * g->a.elem;
    }
    *bad_off = c.bad_off;
    *expected = c.expected;
    *found = c.found;
    return c.bad;
}

static const struct plan_ops app_ops = {
    .var = app_var,
    .access = app_access,
    .step = app_step,
    .fill = app_fill,
    .verify = app_verify,
};

void app_plan(struct plan *p, const struct app_state *st, int nprocs, int rank, int nfiles)
{
    _Static_assert(sizeof(struct app_state) <= PLAN_STATE_BYTES, "app_state fits in a plan");
    memset(p, 0, sizeof *p);
    p->ops = &app_ops;
    p->nprocs = nprocs;
    p->exec_rank = p->data_rank = rank;
    p->iteration = st->iteration;
    p->nfiles = nfiles;
    p->per_process = layout_desc(st->geom[0].a.layout)->per_process;
    p->nvars = st->geom[0].a.nvars;
    p->nphases = 2;
    p->phases[0] = (struct plan_phase){"write", true, 0};
    p->phases[1] = (struct plan_phase){"read", false, 1};
    int64_t w = st->geom[0].rank_bytes, r = st->geom[1].rank_bytes;
    p->buffer_bytes = w > r ? w : r;
    p->fill_per_var = true;
    p->flat_bytes = app_file_end(&st->geom[0], p->nvars);
    p->exact_source = true;
    memcpy(p->state.bytes, st, sizeof *st);
}
