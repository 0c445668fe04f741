/* block.h: checks, plans, content. A process's block of variable v holds,
 * at global element index i (C order), (i + v*N) mod 2^(8*elem) in elem
 * little-endian bytes (docs/block.md), whatever the layout. */
#include "pattern/block.h"

#include <string.h>

/* An array of 1 to 3 dimensions seen as 3: leading dimensions of 1. */
struct block_3d {
    int64_t dims[3], start[3], count[3];
};

static void block_pad(const struct pattern *pt, struct block_3d *b)
{
    int lead = 3 - pt->b.ndims;
    for (int d = 0; d < 3; d++) {
        int s = d - lead;
        b->dims[d] = s < 0 ? 1 : pt->b.global[s];
        b->start[d] = s < 0 ? 0 : pt->box.start[s];
        b->count[d] = s < 0 ? 1 : pt->box.count[s];
    }
}

enum pattern_violation block_check(const struct block_params *pp)
{
    if (pp->ndims < 1 || pp->ndims > MODEL_MAX_DIMS || pp->nprocs <= 0 || pp->nvars < 1 ||
        (pp->elem != 1 && pp->elem != 2 && pp->elem != 4 && pp->elem != 8) || (int)pp->layout < 0 ||
        pp->layout >= LAYOUT_COUNT)
        return PATTERN_BAD_VALUE;
    int64_t grid[MODEL_MAX_DIMS];
    for (int d = 0; d < pp->ndims; d++) {
        if (pp->global[d] <= 0 || pp->grid[d] <= 0)
            return PATTERN_BAD_VALUE;
        grid[d] = pp->grid[d];
    }
    if (model_product(pp->ndims, grid) != pp->nprocs)
        return PATTERN_GRID_PROCS;
    for (int d = 0; d < pp->ndims; d++)
        if (pp->global[d] % pp->grid[d] != 0)
            return PATTERN_GRID_SPLIT;
    if (pp->align < 0 || pp->shift < 0 ||
        (pp->layout == LAYOUT_FPP && (pp->align > 0 || pp->shift > 0)))
        return PATTERN_ALIGN;
    /* Every variable of the array, in bytes, must fit: offsets reach it,
     * padded and shifted. */
    int64_t n = model_product(pp->ndims, pp->global), bytes;
    if (n < 0 || __builtin_mul_overflow(n, (int64_t)pp->elem * pp->nvars, &bytes))
        return PATTERN_OVERFLOW;
    int64_t tiles = 1, tile_bytes = n * pp->elem, stride, end;
    for (int d = 0; pp->layout == LAYOUT_CHUNKED && d < pp->ndims; d++) {
        tiles *= pp->grid[d];
        tile_bytes /= pp->grid[d];
    }
    int64_t padded = model_round_up(tile_bytes, pp->align);
    if (padded < 0 || __builtin_mul_overflow(padded, tiles, &stride) ||
        __builtin_mul_overflow(stride, (int64_t)pp->nvars, &end) ||
        __builtin_add_overflow(end, pp->shift, &end))
        return PATTERN_OVERFLOW;
    return PATTERN_OK;
}

/* The flat runs of the block in its layout's storage, in bytes. */
static void block_shape(struct pattern *pt, int64_t elems)
{
    int64_t e = pt->elem;
    struct model_runs r;
    if (pt->b.layout == LAYOUT_SHARED && model_box_runs(&pt->storage, &pt->box, &r) == 0) {
        pt->shape = (struct pattern_vec){r.disp * e, r.count[1], r.len * e, r.stride[1] * e};
        pt->outer = r.count[0];
        pt->outer_stride = r.stride[0] * e;
        return;
    }
    /* Chunked: the block is one tile; fpp: the block is the file; an empty
     * box of the shared layout (particles) is where its run would start. */
    int64_t disp = pt->b.layout != LAYOUT_FPP ? model_offset(&pt->storage, pt->box.start) : 0;
    pt->shape = (struct pattern_vec){disp * e, 1, elems * e, elems * e};
    pt->outer = 1;
    pt->outer_stride = 0;
}

int block_init(struct pattern *pt)
{
    model_block(pt->b.ndims, pt->b.global, pt->b.grid, pt->data_rank, &pt->box);
    return block_plan(pt);
}

/* --align-data and --shift (docs/particles.md, "Alignment"): each
 * variable from a multiple of align, and in the chunked layout each block
 * too (padding after it); every offset moved by shift. The shared layout's
 * array keeps its C order: only its variables move. */
static void block_place(struct pattern *pt)
{
    const struct block_params *pp = &pt->b;
    pt->file_shift = pp->shift;
    pt->var_stride = pt->var_end = pt->dset_bytes;
    if (pp->align <= 0)
        return;
    if (pp->layout == LAYOUT_CHUNKED) {
        int64_t tile = pt->rank_bytes, padded = model_round_up(tile, pp->align);
        int64_t tiles = tile > 0 ? pt->dset_bytes / tile : 0;
        pt->shape.disp = tile > 0 ? pt->shape.disp / tile * padded : 0;
        pt->var_stride = tiles * padded;
        pt->var_end = tiles > 0 ? (tiles - 1) * padded + tile : 0;
        return;
    }
    pt->var_stride = model_round_up(pt->dset_bytes, pp->align);
}

int block_plan(struct pattern *pt)
{
    const struct block_params *pp = &pt->b;
    int n = pp->ndims;
    int64_t elems = model_product(n, pt->box.count), total = model_product(n, pp->global);
    pt->elem = pp->elem;
    pt->nvars = pp->nvars;
    pt->whole = true;
    struct model_storage *st = &pt->storage;
    memset(st, 0, sizeof *st);
    st->ndims = n;
    struct pattern_slab *sl = &pt->slab;
    sl->ndims = n;
    for (int d = 0; d < n; d++) {
        bool fpp = pp->layout == LAYOUT_FPP;
        st->dims[d] = fpp ? pt->box.count[d] : pp->global[d];
        st->tile[d] = pp->layout == LAYOUT_CHUNKED ? pp->global[d] / pp->grid[d] : 0;
        sl->dims[d] = st->dims[d];
        sl->chunk[d] = pp->global[d] / pp->grid[d];
        sl->mem_dims[d] = sl->count[d] = pt->box.count[d];
        sl->start[d] = fpp ? 0 : pt->box.start[d];
        sl->stride[d] = sl->block[d] = 1;
    }
    pt->dset_bytes = (pp->layout == LAYOUT_FPP ? elems : total) * pp->elem;
    pt->xfer_bytes = pt->rank_bytes = elems * pp->elem;
    /* An empty box still makes its one call: collective calls must match. */
    pt->ntransfers = 1;
    block_shape(pt, elems);
    block_place(pt);
    return 0;
}

/* Walks the block's elements in C order; calls visit(ctx, offset of the
 * element in the block's buffer, its value). */
static void block_walk(const struct pattern *pt, int var,
                       void (*visit)(void *ctx, int64_t off, uint64_t value), void *ctx)
{
    struct block_3d b;
    block_pad(pt, &b);
    uint64_t base = (uint64_t)var * (uint64_t)model_product(pt->b.ndims, pt->b.global);
    int64_t off = 0;
    for (int64_t z = 0; z < b.count[0]; z++)
        for (int64_t y = 0; y < b.count[1]; y++) {
            int64_t i = ((b.start[0] + z) * b.dims[1] + b.start[1] + y) * b.dims[2] + b.start[2];
            for (int64_t x = 0; x < b.count[2]; x++, off += pt->elem)
                visit(ctx, off, base + (uint64_t)(i + x));
        }
}

struct block_fill_ctx {
    int elem;
    unsigned char *buf;
};

static void block_put(void *ctx, int64_t off, uint64_t value)
{
    struct block_fill_ctx *c = ctx;
    for (int k = 0; k < c->elem; k++, value >>= 8)
        c->buf[off + k] = (unsigned char)value;
}

void block_fill(const struct pattern *pt, int var, unsigned char *buf)
{
    struct block_fill_ctx c = {pt->elem, buf};
    block_walk(pt, var, block_put, &c);
}

struct block_check_ctx {
    int elem;
    const unsigned char *buf;
    struct pattern_mismatch *m;
};

static void block_compare(void *ctx, int64_t off, uint64_t value)
{
    struct block_check_ctx *c = ctx;
    for (int k = 0; k < c->elem; k++, value >>= 8) {
        unsigned char want = (unsigned char)value, got = c->buf[off + k];
        if (got == want)
            continue;
        if (c->m->bad++ == 0) {
            c->m->mem_off = off + k;
            c->m->expected = want;
            c->m->found = got;
        }
    }
}

int64_t block_verify(const struct pattern *pt, int var, const unsigned char *buf,
                     struct pattern_mismatch *m)
{
    struct block_check_ctx c = {pt->elem, buf, m};
    block_walk(pt, var, block_compare, &c);
    return m->bad;
}
