/* Unit tests of the model (pattern/model.h) and the block pattern's plans,
 * exhaustive on small arrays and grids, 1D to 3D, even, uneven and empty
 * blocks: every element is owned by exactly one process; a box's flat runs
 * cover exactly its elements, in C order; tiles place every element once;
 * every layout's transfers cover the file exactly once, at the bytes the
 * hyperslab (start, count) names through the storage; the content rule
 * holds and verification finds a flipped byte. Brute force oracles only. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pattern/model.h"
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

/* The block plans of every rank and layout: their transfers cover the file
 * once, at the bytes the slab names; the content rule; verification. */
static void check_plans(int n, const int64_t *dims, const int *grid, int elem, int nvars)
{
    struct block_params bp = {0};
    bp.ndims = n;
    bp.elem = elem;
    bp.nvars = nvars;
    int64_t g[3] = {grid[0], grid[1], grid[2]};
    bp.nprocs = (int)model_product(n, g);
    for (int d = 0; d < n; d++) {
        bp.global[d] = dims[d];
        bp.grid[d] = grid[d];
    }
    int64_t total = model_product(n, dims);
    for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
        bp.layout = (enum pattern_layout)layout;
        memset(bytes_seen, 0, sizeof bytes_seen);
        for (int r = 0; r < bp.nprocs; r++) {
            struct pattern pt;
            CHECK(pattern_init_block(&pt, &bp, r, r, NULL) == 0);
            if (layout == LAYOUT_FPP)
                memset(bytes_seen, 0, sizeof bytes_seen);
            struct pattern_vec v = pattern_file_vec(&pt, 0);
            CHECK(pt.xfer_bytes == pt.outer * v.count * v.len);
            for (int64_t m = 0; m < pt.xfer_bytes; m++) {
                int64_t off = pattern_file_offset(&pt, 0, m);
                CHECK(off >= 0 && off < pt.dset_bytes);
                if (off >= 0 && off < pt.dset_bytes)
                    bytes_seen[off]++;
            }
            /* The slab through the storage names the same elements, in order. */
            struct model_box sb = {n, {0}, {0}};
            for (int d = 0; d < n && d < MODEL_MAX_DIMS; d++) {
                sb.start[d] = pt.slab.start[d];
                sb.count[d] = pt.slab.count[d];
            }
            struct list want = {.n = 0};
            each_element(n, pt.storage.dims, &sb, list_add, &want);
            for (int i = 0; i < want.n && i < MAXN; i++) {
                int64_t idx[3], rest = want.v[i];
                for (int d = n - 1; d >= 0; d--) {
                    idx[d] = rest % pt.storage.dims[d];
                    rest /= pt.storage.dims[d];
                }
                CHECK(model_offset(&pt.storage, idx) * elem ==
                      pattern_file_offset(&pt, 0, (int64_t)i * elem));
            }
            /* Content: element i of variable v is (i + v*N) mod 2^(8*elem). */
            unsigned char *buf = malloc((size_t)pt.xfer_bytes + 1);
            int var = nvars - 1;
            pattern_fill(&pt, var, buf);
            struct list gl = {.n = 0};
            each_element(n, dims, &pt.box, list_add, &gl);
            for (int i = 0; i < gl.n && i < MAXN; i++) {
                uint64_t want_v = (uint64_t)(gl.v[i] + var * total), got_v = 0;
                for (int k = elem - 1; k >= 0; k--)
                    got_v = got_v << 8 | buf[i * elem + k];
                uint64_t mask = elem == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * elem)) - 1;
                CHECK(got_v == (want_v & mask));
            }
            struct pattern_mismatch mm;
            CHECK(pattern_verify(&pt, var, 0, buf, &mm) == 0);
            if (pt.xfer_bytes > 0) {
                buf[pt.xfer_bytes - 1] ^= 0x5a;
                CHECK(pattern_verify(&pt, var, 0, buf, &mm) == 1);
                CHECK(mm.mem_off == pt.xfer_bytes - 1);
            }
            free(buf);
            if (layout == LAYOUT_FPP)
                for (int64_t i = 0; i < pt.dset_bytes; i++)
                    CHECK(bytes_seen[i] == 1);
        }
        if (layout != LAYOUT_FPP)
            for (int64_t i = 0; i < total * elem; i++)
                CHECK(bytes_seen[i] == 1);
    }
}

/* The refusals of pattern_check_block(). */
static void check_refusals(void)
{
    struct block_params bp = {4, 2, {8, 8, 0}, {2, 2, 0}, 8, 1, LAYOUT_SHARED, 0, 0};
    CHECK(pattern_check_block(&bp) == PATTERN_OK);
    bp.nprocs = 3;
    CHECK(pattern_check_block(&bp) == PATTERN_GRID_PROCS);
    bp.nprocs = 4;
    bp.global[1] = 9;
    CHECK(pattern_check_block(&bp) == PATTERN_GRID_SPLIT);
    bp.global[1] = 8;
    bp.elem = 3;
    CHECK(pattern_check_block(&bp) == PATTERN_BAD_VALUE);
    bp.elem = 8;
    bp.global[0] = INT64_C(1) << 40;
    bp.global[1] = INT64_C(1) << 22;
    CHECK(pattern_check_block(&bp) == PATTERN_OVERFLOW);
    bp.global[1] = INT64_C(1) << 20; /* 2^60 elements of 8 bytes: 2^63 */
    CHECK(pattern_check_block(&bp) == PATTERN_OVERFLOW);
    bp.ndims = 4;
    CHECK(pattern_check_block(&bp) == PATTERN_BAD_VALUE);
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
                                    check_plans(n, dims, grid, elems[e], 1 + e % 2);
                            }
    check_refusals();
    printf("test_model: %d decompositions walked element by element\n", walked);
    return check_done("test_model");
}
