/* model.h: decomposition, placement and runs. Every offset is that of an
 * element of an array whose size model_product() proved to fit, so the
 * sums below cannot overflow. */
#include "plan/model.h"

int64_t model_round_up(int64_t x, int64_t a)
{
    if (a <= 1 || x % a == 0)
        return x;
    int64_t r;
    return __builtin_add_overflow(x - x % a, a, &r) ? -1 : r;
}

int64_t model_product(int n, const int64_t *v)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        if (v[i] < 0 || __builtin_mul_overflow(p, v[i], &p))
            return -1;
    return p;
}

void model_grid_coords(int ndims, const int *grid, int rank, int *coords)
{
    for (int d = ndims - 1; d >= 0; d--) {
        coords[d] = rank % grid[d];
        rank /= grid[d];
    }
}

void model_block(int ndims, const int64_t *dims, const int *grid, int rank, struct model_box *out)
{
    int coords[MODEL_MAX_DIMS];
    model_grid_coords(ndims, grid, rank, coords);
    out->ndims = ndims;
    for (int d = 0; d < ndims; d++) {
        int64_t base = dims[d] / grid[d], extra = dims[d] % grid[d], c = coords[d];
        out->count[d] = base + (c < extra);
        out->start[d] = c * base + (c < extra ? c : extra);
    }
}

/* C-order linear index of idx in dims. */
static int64_t model_linear(int ndims, const int64_t *dims, const int64_t *idx)
{
    int64_t i = 0;
    for (int d = 0; d < ndims; d++)
        i = i * dims[d] + idx[d];
    return i;
}

int64_t model_offset(const struct model_storage *s, const int64_t *idx)
{
    if (s->tile[0] == 0)
        return model_linear(s->ndims, s->dims, idx);
    int64_t tiles[MODEL_MAX_DIMS], which[MODEL_MAX_DIMS], within[MODEL_MAX_DIMS];
    for (int d = 0; d < s->ndims; d++) {
        tiles[d] = s->dims[d] / s->tile[d];
        which[d] = idx[d] / s->tile[d];
        within[d] = idx[d] % s->tile[d];
    }
    int64_t tile_elems = model_product(s->ndims, s->tile);
    return model_linear(s->ndims, tiles, which) * tile_elems +
           model_linear(s->ndims, s->tile, within);
}

int model_box_runs(const struct model_storage *s, const struct model_box *b, struct model_runs *out)
{
    int n = s->ndims;
    if (model_product(n, b->count) <= 0)
        return -1;
    /* The innermost dimension that the box does not span whole, from the
     * last: everything after it is one run. */
    int d = n - 1;
    int64_t len = b->count[d];
    while (d > 0 && b->count[d] == s->dims[d]) {
        d--;
        len *= b->count[d];
    }
    /* Dimensions before d repeat the run; at most two of them (3D). */
    int64_t stride[MODEL_MAX_DIMS];
    stride[n - 1] = 1;
    for (int k = n - 2; k >= 0; k--)
        stride[k] = stride[k + 1] * s->dims[k + 1];
    *out = (struct model_runs){
        .disp = model_linear(n, s->dims, b->start), .len = len, .count = {1, 1}, .stride = {0, 0}};
    for (int k = d - 1, slot = 1; k >= 0 && slot >= 0; k--, slot--) {
        out->count[slot] = b->count[k];
        out->stride[slot] = stride[k];
    }
    return 0;
}

void model_slab_of_box(const struct model_box *b, struct model_slab *out)
{
    out->ndims = b->ndims;
    for (int d = 0; d < b->ndims; d++) {
        out->start[d] = b->start[d];
        out->stride[d] = 1;
        out->count[d] = 1;
        out->block[d] = b->count[d];
    }
}

int64_t model_slab_elems(const struct model_slab *s)
{
    int64_t n = 1;
    for (int d = 0; d < s->ndims; d++)
        n *= s->count[d] * s->block[d];
    return n;
}

/* The box of the elements [first, first + n) of b that lie in one "layer":
 * dimensions before d fixed at the coordinates of first, dimension d from
 * first's coordinate for len elements of it, dimensions after d whole. */
static void model_layer(const struct model_box *b, const int64_t *at, int d, int64_t len,
                        struct model_box *out)
{
    out->ndims = b->ndims;
    for (int k = 0; k < b->ndims; k++) {
        out->start[k] = b->start[k] + (k <= d ? at[k] : 0);
        out->count[k] = k < d ? 1 : k == d ? len : b->count[k];
    }
}

int model_box_range(const struct model_box *b, int64_t first, int64_t n, struct model_box *out)
{
    int nd = b->ndims, count = 0;
    if (n <= 0)
        return 0;
    /* inner[d]: elements of one step along dimension d (the dimensions after d whole). */
    int64_t inner[MODEL_MAX_DIMS], at[MODEL_MAX_DIMS];
    inner[nd - 1] = 1;
    for (int d = nd - 2; d >= 0; d--)
        inner[d] = inner[d + 1] * b->count[d + 1];
    /* Up: from the innermost dimension, finish the partial layers that first
     * starts in, each as far as n allows. */
    for (int d = nd - 1; d >= 0 && n > 0; d--) {
        int64_t rest = first;
        for (int k = 0; k < nd; k++) {
            at[k] = rest / inner[k];
            rest %= inner[k];
        }
        if (first % (inner[d] * b->count[d]) == 0 && d > 0)
            continue; /* aligned on a whole layer of dimension d - 1: go up */
        int64_t room = b->count[d] - at[d], take = n / inner[d];
        take = take < room ? take : room;
        if (take == 0)
            break; /* less than one step of d left: finish on the way down */
        model_layer(b, at, d, take, &out[count++]);
        first += take * inner[d];
        n -= take * inner[d];
    }
    /* Down: what is left is aligned on dimension d's steps; the largest
     * whole steps first, then the remainder one dimension further in. */
    for (int d = 0; d < nd && n > 0; d++) {
        int64_t take = n / inner[d];
        if (take == 0)
            continue;
        int64_t rest = first;
        for (int k = 0; k < nd; k++) {
            at[k] = rest / inner[k];
            rest %= inner[k];
        }
        model_layer(b, at, d, take, &out[count++]);
        first += take * inner[d];
        n -= take * inner[d];
    }
    return count;
}
