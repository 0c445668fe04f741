/* Unit tests of the model (plan/model.h) and the block pattern's plans,
 * exhaustive on small arrays and grids, 1D to 3D, even, uneven and empty
 * blocks: every element is owned by exactly one process; a box's flat runs
 * cover exactly its elements, in C order; tiles place every element once;
 * every layout's steps (one call, or --transfer-size calls) cover the file
 * exactly once, at the bytes the slabs name through the storage; ranges of
 * a box split in C order; the content rule holds and verification finds a
 * flipped byte. Brute force oracles only. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "runs_bytes.h"
#include "plan/model.h"
#include "pattern/app.h"
#include "pattern/block.h"
#include "pattern/block_options.h"
#include "pattern/pattern.h"

#define MAXN 256 /* elements of the largest array walked */

/* The C-order linear index of idx in dims (the oracle's own). */
static int64_t linear(int n, const int64_t *dims, const int64_t *idx)
{
    int64_t i = 0;
    for (int d = 0; d < n; d++)
        i = i * dims[d] + idx[d];
    return i;
}

/* Calls f(ctx, linear index in dims) for every element of box b, in C order. */
static void each_element(int n, const int64_t *dims, const struct model_box *b,
                         void (*f)(void *, int64_t), void *ctx)
{
    int64_t idx[3] = {0, 0, 0}, c[3] = {1, 1, 1};
    for (int d = 0; d < n; d++)
        c[d] = b->count[d];
    for (idx[0] = 0; idx[0] < c[0]; idx[0]++)
        for (idx[1] = 0; idx[1] < c[1]; idx[1]++)
            for (idx[2] = 0; idx[2] < c[2]; idx[2]++) {
                int64_t g[3];
                for (int d = 0; d < n; d++)
                    g[d] = b->start[d] + idx[d];
                f(ctx, linear(n, dims, g));
            }
}

struct list {
    int64_t v[MAXN];
    int n;
};

static void list_add(void *ctx, int64_t v)
{
    struct list *l = ctx;
    if (l->n < MAXN)
        l->v[l->n] = v;
    l->n++;
}

/* The elements a model_runs names, in memory order. */
static void runs_list(const struct model_runs *r, struct list *l)
{
    l->n = 0;
    for (int64_t j = 0; j < r->count[0]; j++)
        for (int64_t i = 0; i < r->count[1]; i++)
            for (int64_t e = 0; e < r->len; e++)
                list_add(l, r->disp + j * r->stride[0] + i * r->stride[1] + e);
}

static int owners[MAXN];

static void own(void *ctx, int64_t i)
{
    (void)ctx;
    owners[i]++;
}

/* Decomposition, runs and ownership for one array and grid. */
static void check_decomposition(int n, const int64_t *dims, const int *grid)
{
    int64_t total = model_product(n, dims), g[3] = {grid[0], grid[1], grid[2]};
    int procs = (int)model_product(n, g);
    memset(owners, 0, sizeof owners);
    struct model_storage st = {n, {dims[0], dims[1], dims[2]}, {0, 0, 0}};
    for (int r = 0; r < procs; r++) {
        struct model_box b;
        model_block(n, dims, grid, r, &b);
        for (int d = 0; d < n; d++) {
            int64_t even = dims[d] / grid[d];
            CHECK(b.count[d] == even || b.count[d] == even + 1);
        }
        each_element(n, dims, &b, own, NULL);
        struct list want = {.n = 0}, got;
        each_element(n, dims, &b, list_add, &want);
        struct model_runs runs;
        if (model_box_runs(&st, &b, &runs) < 0) {
            CHECK(want.n == 0);
            continue;
        }
        runs_list(&runs, &got);
        CHECK(got.n == want.n && memcmp(got.v, want.v, sizeof(int64_t) * (size_t)want.n) == 0);
    }
    for (int64_t i = 0; i < total; i++)
        CHECK(owners[i] == 1);
}

/* Tiles: a bijection of [0, N), each tile's elements contiguous. */
static void check_tiles(int n, const int64_t *dims, const int64_t *tile)
{
    struct model_storage st = {n, {dims[0], dims[1], dims[2]}, {tile[0], tile[1], tile[2]}};
    int64_t total = model_product(n, dims), per = model_product(n, tile);
    static int seen[MAXN];
    memset(seen, 0, sizeof seen);
    int64_t idx[3] = {0, 0, 0}, c[3] = {1, 1, 1};
    for (int d = 0; d < n; d++)
        c[d] = dims[d];
    for (idx[0] = 0; idx[0] < c[0]; idx[0]++)
        for (idx[1] = 0; idx[1] < c[1]; idx[1]++)
            for (idx[2] = 0; idx[2] < c[2]; idx[2]++) {
                int64_t off = model_offset(&st, idx), t = 0;
                for (int d = 0; d < n; d++)
                    t = t * (dims[d] / tile[d]) + idx[d] / tile[d];
                CHECK(off >= 0 && off < total);
                if (off >= 0 && off < total)
                    seen[off]++;
                CHECK(off / per == t); /* the tile's own span */
            }
    for (int64_t i = 0; i < total; i++)
        CHECK(seen[i] == 1);
}

static int bytes_seen[MAXN * 8 * 2];

/* A block pattern's configuration of the array dims, grid and elements. */
static void block_config(struct config *cfg, int n, const int64_t *dims, const int *grid, int elem,
                         int nvars, int64_t xfer)
{
    config_init(cfg);
    cfg->pattern = pattern_find("block", 5);
    struct block_settings *b = block_settings_edit(pattern_settings_edit(cfg, &pattern_block));
    b->ndims = n;
    cfg->elem = elem;
    cfg->nvars = nvars;
    cfg->transfer_size = xfer;
    for (int d = 0; d < n; d++) {
        b->global[d] = dims[d];
        b->grid[d] = grid[d];
    }
}

/* Every step of variable var of process r's plan: in the shared and
 * chunked layouts the bytes of the file of the whole array, in fpp its
 * own file; each element at the byte its slab names through the storage
 * (the layout's), in memory order. Returns the bytes moved. */
static int64_t check_steps(const struct plan *pl, int var, int elem, int layout,
                           const struct model_storage *st, int64_t base)
{
    struct plan_access acc;
    plan_access(pl, 0, var, &acc);
    int64_t moved = 0;
    for (int64_t k = 0; k < acc.nsteps; k++) {
        struct plan_step s;
        plan_step(pl, 0, var, k, &s);
        CHECK(s.kind == PLAN_STEP_IO && s.write && s.var == var && s.index == k);
        CHECK_I64(s.mem_off, moved);
        CHECK_I64(runs_bytes(plan_runs(&s), s.nruns), s.bytes);
        /* A block that is one run in its file (a chunk, a file of its own):
         * every call is one run, whatever its slabs. */
        if (layout != LAYOUT_SHARED)
            CHECK_I64(s.nruns, 1);
        for (int64_t m = 0; m < s.bytes; m++) {
            int64_t off = plan_step_file_offset(&s, m) - base;
            CHECK(off >= 0 && off < MAXN * 8);
            if (off >= 0 && off < MAXN * 8)
                bytes_seen[off]++;
        }
        /* The slabs through the storage name the same elements, in order. */
        int64_t mem = 0;
        const struct model_slab *all = plan_slabs(&s);
        for (int i = 0; i < s.nslabs; i++) {
            const struct model_slab *sl = &all[i];
            struct model_box sb = {sl->ndims, {0}, {0}};
            for (int d = 0; d < sl->ndims; d++) {
                sb.start[d] = sl->start[d];
                sb.count[d] = sl->count[d] * sl->block[d];
            }
            struct list want = {.n = 0};
            each_element(sl->ndims, st->dims, &sb, list_add, &want);
            for (int e = 0; e < want.n && e < MAXN; e++, mem += elem) {
                int64_t idx[3], rest = want.v[e];
                for (int d = sl->ndims - 1; d >= 0; d--) {
                    idx[d] = rest % st->dims[d];
                    rest /= st->dims[d];
                }
                CHECK_I64(model_offset(st, idx) * elem, plan_step_file_offset(&s, mem) - base);
            }
        }
        CHECK_I64(mem, s.bytes);
        moved += s.bytes;
    }
    return moved;
}

/* The block plans of every rank and layout, in one call or in calls of
 * xfer bytes: their steps cover the file once, at the bytes the slabs
 * name; the content rule; verification finds a flipped byte. */
static void check_plans(int n, const int64_t *dims, const int *grid, int elem, int nvars,
                        int64_t xfer)
{
    struct config cfg;
    block_config(&cfg, n, dims, grid, elem, nvars, xfer);
    const struct pattern_desc *pd = pattern_of(&cfg);
    int64_t g[3] = {grid[0], grid[1], grid[2]};
    int procs = (int)model_product(n, g);
    int64_t total = model_product(n, dims);
    for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
        struct run_point pt = {.nprocs = procs, .api = API_POSIX, .layout = layout};
        memcpy(pt.grid, grid, sizeof pt.grid);
        memset(bytes_seen, 0, sizeof bytes_seen);
        for (int r = 0; r < procs; r++) {
            struct plan pl;
            CHECK(pd->plan(&cfg, &pt, r, 0, &pl) == 0);
            struct plan_var v;
            plan_var(&pl, nvars - 1, &v);
            struct model_box box;
            model_block(n, dims, grid, r, &box);
            struct model_storage st = {n, {0}, {0}};
            for (int d = 0; d < n && d < MODEL_MAX_DIMS; d++) {
                st.dims[d] = v.dims[d];
                st.tile[d] = v.chunk[d];
            }
            if (layout == LAYOUT_FPP)
                memset(bytes_seen, 0, sizeof bytes_seen);
            int var = nvars - 1;
            int64_t base = (int64_t)var * total * elem * (layout == LAYOUT_FPP ? 0 : 1);
            if (layout == LAYOUT_FPP)
                base = (int64_t)var * model_product(n, box.count) * elem;
            int64_t moved = check_steps(&pl, var, elem, layout, &st, base);
            CHECK_I64(moved, model_product(n, box.count) * elem);
            /* Content: element i of variable v is (i + v*N) mod 2^(8*elem). */
            unsigned char *buf = malloc((size_t)pl.buffer_bytes + 1);
            pl.ops->fill(&pl, 0, var, buf, false);
            struct list gl = {.n = 0};
            each_element(n, dims, &box, list_add, &gl);
            for (int i = 0; i < gl.n && i < MAXN; i++) {
                uint64_t want_v = (uint64_t)(gl.v[i] + var * total), got_v = 0;
                for (int k = elem - 1; k >= 0; k--)
                    got_v = got_v << 8 | buf[i * elem + k];
                uint64_t mask = elem == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * elem)) - 1;
                CHECK(got_v == (want_v & mask));
            }
            struct plan_access acc;
            plan_access(&pl, 1, var, &acc);
            int64_t bad = 0, off = -1;
            unsigned char want = 0, found = 0;
            for (int64_t k = 0; k < acc.nsteps; k++) {
                struct plan_step s;
                plan_step(&pl, 1, var, k, &s);
                bad += pl.ops->verify(&pl, 1, &s, buf, &off, &want, &found);
            }
            CHECK(bad == 0);
            if (pl.buffer_bytes > 0) {
                struct plan_step s;
                buf[pl.buffer_bytes - 1] ^= 0x5a;
                plan_step(&pl, 1, var, acc.nsteps - 1, &s);
                CHECK(pl.ops->verify(&pl, 1, &s, buf, &off, &want, &found) == 1);
                CHECK(s.mem_off + off == pl.buffer_bytes - 1);
            }
            free(buf);
            if (layout == LAYOUT_FPP)
                for (int64_t i = 0; i < model_product(n, box.count) * elem; i++)
                    CHECK(bytes_seen[i] == 1);
        }
        if (layout != LAYOUT_FPP)
            for (int64_t i = 0; i < total * elem; i++)
                CHECK(bytes_seen[i] == 1);
    }
}

/* Ranges of a box in C order (--transfer-size's calls): the boxes
 * model_box_range() gives, one after another, hold exactly the elements
 * [first, first + n) of the box, in its C order, at most 2n-1 boxes. */
static void check_ranges(int n, const int64_t *dims)
{
    struct model_box b = {n, {0, 0, 0}, {1, 1, 1}};
    for (int d = 0; d < n; d++) {
        b.start[d] = d;
        b.count[d] = dims[d];
    }
    int64_t big[3] = {dims[0] + n, n > 1 ? dims[1] + n : 1, n > 2 ? dims[2] + n : 1};
    struct list all = {.n = 0};
    each_element(n, big, &b, list_add, &all);
    for (int64_t first = 0; first <= all.n; first++)
        for (int64_t len = 0; first + len <= all.n; len++) {
            struct model_box out[MODEL_RANGE_BOXES];
            int nb = model_box_range(&b, first, len, out);
            CHECK(nb >= 0 && nb <= 2 * n - 1);
            struct list got = {.n = 0};
            for (int i = 0; i < nb; i++) {
                CHECK(model_product(n, out[i].count) > 0);
                each_element(n, big, &out[i], list_add, &got);
            }
            CHECK(got.n == len && memcmp(got.v, all.v + first, sizeof(int64_t) * (size_t)len) == 0);
        }
}

/* The refusals of app_check_block(). */
static void check_refusals(void)
{
    struct app_params bp = {4, 2, {8, 8, 0}, {2, 2, 0}, 8, 1, LAYOUT_SHARED, 0, 0, {0, 0, 0}};
    CHECK(app_check_block(&bp) == PATTERN_OK);
    bp.nprocs = 3;
    CHECK(app_check_block(&bp) == PATTERN_GRID_PROCS);
    bp.nprocs = 4;
    bp.global[1] = 9;
    CHECK(app_check_block(&bp) == PATTERN_GRID_SPLIT);
    bp.global[1] = 8;
    bp.elem = 3;
    CHECK(app_check_block(&bp) == PATTERN_BAD_VALUE);
    bp.elem = 8;
    bp.global[0] = INT64_C(1) << 40;
    bp.global[1] = INT64_C(1) << 22;
    CHECK(app_check_block(&bp) == PATTERN_OVERFLOW);
    bp.global[1] = INT64_C(1) << 20; /* 2^60 elements of 8 bytes: 2^63 */
    CHECK(app_check_block(&bp) == PATTERN_OVERFLOW);
    bp.ndims = 4;
    CHECK(app_check_block(&bp) == PATTERN_BAD_VALUE);
}

int main(void)
{
    int walked = 0;
    /* Decomposition (uneven and empty blocks) and runs: 1D to 3D. */
    for (int n = 1; n <= 3; n++)
        for (int64_t a = 1; a <= 6; a++)
            for (int64_t b = 1; b <= (n > 1 ? 5 : 1); b++)
                for (int64_t c = 1; c <= (n > 2 ? 4 : 1); c++)
                    for (int ga = 1; ga <= 4; ga++)
                        for (int gb = 1; gb <= (n > 1 ? 3 : 1); gb++)
                            for (int gc = 1; gc <= (n > 2 ? 3 : 1); gc++) {
                                int64_t dims[3] = {a, b, c};
                                int grid[3] = {ga, gb, gc};
                                check_decomposition(n, dims, grid);
                                walked++;
                            }
    /* Tiles that divide the array. */
    for (int n = 1; n <= 3; n++)
        for (int64_t a = 1; a <= 6; a++)
            for (int64_t b = 1; b <= (n > 1 ? 6 : 1); b++)
                for (int64_t c = 1; c <= (n > 2 ? 4 : 1); c++)
                    for (int64_t ta = 1; ta <= a; ta++)
                        for (int64_t tb = 1; tb <= b; tb++)
                            for (int64_t tc = 1; tc <= c; tc++) {
                                if (a % ta || b % tb || c % tc)
                                    continue;
                                int64_t dims[3] = {a, b, c}, tile[3] = {ta, tb, tc};
                                check_tiles(n, dims, tile);
                            }
    /* The block plans, every layout, grids that divide the array. */
    static const int elems[] = {1, 2, 4, 8};
    for (int n = 1; n <= 3; n++)
        for (int64_t a = 2; a <= 6; a += 2)
            for (int64_t b = 1; b <= (n > 1 ? 4 : 1); b++)
                for (int64_t c = 1; c <= (n > 2 ? 2 : 1); c++)
                    for (int ga = 1; ga <= 2; ga++)
                        for (int gb = 1; gb <= (n > 1 ? 2 : 1); gb++)
                            for (int gc = 1; gc <= (n > 2 ? 2 : 1); gc++) {
                                int64_t dims[3] = {a, b, c};
                                int grid[3] = {ga, gb, gc};
                                if (a % ga || b % gb || c % gc)
                                    continue;
                                for (int e = 0; e < 4; e++)
                                    for (int64_t x = 0; x <= 5; x += x ? 2 : 1)
                                        check_plans(n, dims, grid, elems[e], 1 + e % 2,
                                                    x * elems[e]);
                            }
    /* Ranges of boxes, 1D to 3D. */
    for (int n = 1; n <= 3; n++)
        for (int64_t a = 1; a <= 4; a++)
            for (int64_t b = 1; b <= (n > 1 ? 3 : 1); b++)
                for (int64_t c = 1; c <= (n > 2 ? 3 : 1); c++)
                    check_ranges(n, (int64_t[]){a, b, c});
    check_refusals();
    printf("test_model: %d decompositions walked element by element\n", walked);
    return check_done("test_model");
}
