/* guide_geom.h: the arithmetic of docs/original.md §5: validation, the
 * physical run of every transfer (POSIX/MPI-IO, with the 2D chunking
 * emulation) and the HDF5 hyperslab. One small table of plan kinds, one
 * function per kind. Pure: no MPI, no I/O, no floating point; every product
 * is bounded by the dataset size N, which guide_check() proves fits in
 * int64. */
#include "pattern/guide_geom.h"

#include <string.h>

/* Why the run-time arithmetic cannot overflow once guide_check() passed:
 * every offset is that of a byte of the dataset, so < N, and every
 * intermediate product below is evaluated left to right with each partial
 * product <= N (k < ntransfers, X <= e or X <= S, B <= X, P <= S):
 *   1D        k*X <= e, k*X*P <= N, B*P <= N, r*e < N
 *   2D c/c    k*X < S*e/B, (k*X/S)*B*S <= S*e, r*e*S < N
 *   2D i/c    k*B*P < S*S/X, (q/S)*X*S <= N
 *   2D c/chk  k*B*X < S*e
 *   2D i/chk  k*B*B*P < S*S*B/X <= N, S*B <= N, (q/(S*B))*X*S <= N
 * so the only products that need a check are S = e*P and N = S*S. */

/* --- validation ------------------------------------------------------- */

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b != 0) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* X | e*P without forming e*P (which may overflow before the overflow check
 * is due): with g = gcd(e, X), X | e*P iff X/g | P. */
static bool divides_product(int64_t x, int64_t e, int64_t nprocs)
{
    return nprocs % (x / gcd64(e, x)) == 0;
}

/* S = e*P and N (1D e*P, 2D S*S); false if either overflows. */
static bool dataset_sizes(const struct guide_params *pp, int64_t *side, int64_t *n)
{
    if (__builtin_mul_overflow(pp->bytes, (int64_t)pp->nprocs, side))
        return false;
    int64_t dims[2] = {*side, *side};
    *n = model_product(pp->geometry, dims);
    return *n >= 0;
}

static enum pattern_violation guide_params_check(const struct guide_params *pp)
{
    int64_t side, n;

    if (pp == NULL || (pp->geometry != 1 && pp->geometry != 2) || pp->bytes <= 0 ||
        pp->block <= 0 || pp->xfer <= 0 || pp->nprocs <= 0)
        return PATTERN_BAD_VALUE;
    if (pp->xfer % pp->block != 0)
        return PATTERN_BLOCK_XFER;
    if (pp->geometry == 1 ? pp->bytes % pp->xfer != 0
                          : !divides_product(pp->xfer, pp->bytes, pp->nprocs))
        return PATTERN_XFER_BYTES;
    if (pp->geometry == 2 && pp->bytes % pp->block != 0)
        return PATTERN_BLOCK_BYTES;
    if (!dataset_sizes(pp, &side, &n))
        return PATTERN_OVERFLOW;
    return PATTERN_OK;
}

/* --- physical runs, one shape per plan kind (docs/original.md §5.1-5.2) --- */

/* Every transfer of a kind has the same shape (pieces, their length and
 * stride); where it starts is where the model's storage places its first
 * element (guide_file_vec()): the logical array in C order, or, with the
 * 2D chunking emulation, B x B tiles one after another. */
static struct guide_vec vec_make(int64_t count, int64_t len, int64_t stride)
{
    struct guide_vec v = {0, count, len, stride};
    return v;
}

/* 1D contiguous: X bytes. */
static struct guide_vec vec_1d_contig(const struct guide_geom *g)
{
    return vec_make(1, g->p.xfer, g->p.xfer);
}

/* 1D interleaved: X/B blocks of B, one every B*P. */
static struct guide_vec vec_1d_inter(const struct guide_geom *g)
{
    int64_t b = g->p.block;
    return vec_make(g->p.xfer / b, b, b * g->p.nprocs);
}

/* 2D contiguous: B rows of X bytes, bands of B rows filled left to right. */
static struct guide_vec vec_2d_contig(const struct guide_geom *g)
{
    return vec_make(g->p.block, g->p.xfer, g->side);
}

/* 2D interleaved: X rows of B bytes, column blocks r, r+P, ... */
static struct guide_vec vec_2d_inter(const struct guide_geom *g)
{
    return vec_make(g->p.xfer, g->p.block, g->side);
}

/* 2D contiguous, chunk-emulated: X/B horizontally adjacent chunks, one run. */
static struct guide_vec vec_2d_contig_chunk(const struct guide_geom *g)
{
    int64_t bx = g->p.block * g->p.xfer;
    return vec_make(1, bx, bx);
}

/* 2D interleaved, chunk-emulated: X/B vertically stacked chunks of B*B. */
static struct guide_vec vec_2d_inter_chunk(const struct guide_geom *g)
{
    int64_t b = g->p.block;
    return vec_make(g->p.xfer / b, b * b, g->side * b);
}

/* --- HDF5 hyperslabs (docs/original.md §5.3) --------------------------- */

static void slab_1d(struct guide_geom *g, int64_t start, int64_t stride)
{
    struct guide_slab *sl = &g->slab;
    sl->ndims = 1;
    sl->dims[0] = g->dset_bytes;
    sl->chunk[0] = g->p.block;
    sl->mem_dims[0] = g->p.xfer;
    sl->start[0] = start;
    sl->stride[0] = stride;
    sl->count[0] = g->p.xfer / g->p.block;
    sl->block[0] = g->p.block;
}

static void slab_1d_contig(struct guide_geom *g)
{
    slab_1d(g, (int64_t)g->data_rank * g->p.bytes, g->p.block);
}

static void slab_1d_inter(struct guide_geom *g)
{
    slab_1d(g, (int64_t)g->data_rank * g->p.block, g->p.block * g->p.nprocs);
}

/* 2D: both patterns are (B,B) blocks; `rows`/`cols` are the memory dims. */
static void slab_2d(struct guide_geom *g, int64_t rows, int64_t cols)
{
    struct guide_slab *sl = &g->slab;
    sl->ndims = 2;
    sl->dims[0] = sl->dims[1] = g->side;
    sl->chunk[0] = sl->chunk[1] = g->p.block;
    sl->mem_dims[0] = rows;
    sl->mem_dims[1] = cols;
    sl->count[0] = rows / g->p.block;
    sl->count[1] = cols / g->p.block;
    sl->block[0] = sl->block[1] = g->p.block;
}

static void slab_2d_contig(struct guide_geom *g)
{
    int64_t b = g->p.block;
    slab_2d(g, b, g->p.xfer);
    g->slab.start[0] = (int64_t)g->data_rank * g->p.bytes;
    g->slab.start[1] = 0;
    g->slab.stride[0] = 1;
    g->slab.stride[1] = b;
}

static void slab_2d_inter(struct guide_geom *g)
{
    int64_t b = g->p.block;
    slab_2d(g, g->p.xfer, b);
    g->slab.start[0] = 0;
    g->slab.start[1] = (int64_t)g->data_rank * b;
    g->slab.stride[0] = b;
    g->slab.stride[1] = b * g->p.nprocs;
}

static void slab_off_1d_contig(const struct guide_geom *g, int64_t k, int64_t off[2])
{
    off[0] = k * g->p.xfer;
    off[1] = 0;
}

static void slab_off_1d_inter(const struct guide_geom *g, int64_t k, int64_t off[2])
{
    off[0] = k * g->p.xfer * g->p.nprocs;
    off[1] = 0;
}

static void slab_off_2d_contig(const struct guide_geom *g, int64_t k, int64_t off[2])
{
    int64_t c = k * g->p.xfer;
    off[0] = c / g->side * g->p.block;
    off[1] = c % g->side;
}

static void slab_off_2d_inter(const struct guide_geom *g, int64_t k, int64_t off[2])
{
    int64_t q = k * g->p.block * g->p.nprocs;
    off[0] = q / g->side * g->p.xfer;
    off[1] = q % g->side;
}

/* --- the table of plan kinds ------------------------------------------- */

struct guide_kind {
    struct guide_vec (*vec)(const struct guide_geom *g);
    void (*slab)(struct guide_geom *g);
    void (*slab_offset)(const struct guide_geom *g, int64_t k, int64_t off[2]);
    int64_t (*rank_begin)(const struct guide_geom *g);
    bool tiles; /* transfer k is transfer 0 moved by k * (disp(1) - disp(0)) */
};

static int64_t begin_contig(const struct guide_geom *g)
{
    /* 1D r*e; 2D the first byte of row r*e (docs/original.md §7.4 prints (r*e, 0)) */
    return (int64_t)g->data_rank * g->rank_bytes;
}

static int64_t begin_inter(const struct guide_geom *g)
{
    /* 1D r*B; 2D column r*B of row 0 (docs/original.md §7.4 prints (0, r*B)) */
    return (int64_t)g->data_rank * g->p.block;
}

enum {
    KIND_1D_CONTIG,
    KIND_1D_INTER,
    KIND_2D_CONTIG,
    KIND_2D_INTER,
    KIND_2D_CONTIG_CHUNK,
    KIND_2D_INTER_CHUNK
};

static const struct guide_kind guide_kinds[] = {
    [KIND_1D_CONTIG] = {vec_1d_contig, slab_1d_contig, slab_off_1d_contig, begin_contig, true},
    [KIND_1D_INTER] = {vec_1d_inter, slab_1d_inter, slab_off_1d_inter, begin_inter, true},
    [KIND_2D_CONTIG] = {vec_2d_contig, slab_2d_contig, slab_off_2d_contig, begin_contig, false},
    [KIND_2D_INTER] = {vec_2d_inter, slab_2d_inter, slab_off_2d_inter, begin_inter, false},
    [KIND_2D_CONTIG_CHUNK] = {vec_2d_contig_chunk, slab_2d_contig, slab_off_2d_contig, begin_contig,
                              true},
    [KIND_2D_INTER_CHUNK] = {vec_2d_inter_chunk, slab_2d_inter, slab_off_2d_inter, begin_inter,
                             false},
};

/* -c changes nothing in 1D for POSIX/MPI-IO (docs/original.md §5.1), so it is ignored. */
static const struct guide_kind *guide_kind_of(const struct guide_params *pp)
{
    int kind;
    if (pp->geometry == 1)
        kind = pp->interleaved ? KIND_1D_INTER : KIND_1D_CONTIG;
    else if (pp->chunked)
        kind = pp->interleaved ? KIND_2D_INTER_CHUNK : KIND_2D_CONTIG_CHUNK;
    else
        kind = pp->interleaved ? KIND_2D_INTER : KIND_2D_CONTIG;
    return &guide_kinds[kind];
}

/* --- public entry points ----------------------------------------------- */

/* The guide's storage (model.h): the dataset in C order, or with the 2D
 * chunking emulation (-c) its B x B chunks one after another. */
static void guide_storage(struct guide_geom *g)
{
    struct model_storage *st = &g->storage;
    memset(st, 0, sizeof *st);
    st->ndims = g->slab.ndims;
    for (int d = 0; d < st->ndims; d++) {
        st->dims[d] = g->slab.dims[d];
        st->tile[d] = g->p.geometry == 2 && g->p.chunked ? g->p.block : 0;
    }
}

static void guide_build(struct guide_geom *g, const struct guide_params *pp)
{
    const struct guide_kind *kind = guide_kind_of(pp);
    dataset_sizes(pp, &g->side, &g->dset_bytes);
    if (pp->geometry == 1) {
        g->xfer_bytes = pp->xfer;
        g->rank_bytes = pp->bytes;
    } else {
        g->xfer_bytes = pp->xfer * pp->block; /* <= S*S */
        g->rank_bytes = g->side * pp->bytes;  /* = N/P */
    }
    g->ntransfers = g->rank_bytes / g->xfer_bytes;
    g->rank_begin = kind->rank_begin(g);
    kind->slab(g);
    guide_storage(g);
    g->shape = kind->vec(g);
    g->shape = guide_file_vec(g, 0);
    if (kind->tiles) {
        int64_t span = (g->shape.count - 1) * g->shape.stride + g->shape.len;
        g->xfer_step = g->ntransfers > 1 ? guide_file_vec(g, 1).disp - g->shape.disp : span;
        if (g->xfer_step < span)
            g->xfer_step = 0;
    }
}

enum pattern_violation guide_check(const struct guide_params *pp)
{
    return guide_params_check(pp);
}

int guide_init(struct guide_geom *g, const struct guide_params *pp, int exec_rank, int data_rank,
               enum pattern_violation *why)
{
    enum pattern_violation v = guide_check(pp);
    memset(g, 0, sizeof *g);
    if (v == PATTERN_OK &&
        (exec_rank < 0 || exec_rank >= pp->nprocs || data_rank < 0 || data_rank >= pp->nprocs))
        v = PATTERN_BAD_VALUE;
    if (why != NULL)
        *why = v;
    if (v != PATTERN_OK)
        return -1;
    g->exec_rank = exec_rank;
    g->data_rank = data_rank;
    g->p = *pp;
    guide_build(g, pp);
    return 0;
}

/* Transfer k: the kind's shape, starting where the storage places the
 * first element of its slab. */
struct guide_vec guide_file_vec(const struct guide_geom *g, int64_t k)
{
    struct guide_vec v = g->shape;
    int64_t off[2], idx[MODEL_MAX_DIMS];
    guide_slab_offset(g, k, off);
    for (int d = 0; d < g->slab.ndims; d++)
        idx[d] = g->slab.start[d] + off[d];
    v.disp = model_offset(&g->storage, idx);
    return v;
}

void guide_slab_offset(const struct guide_geom *g, int64_t k, int64_t off[2])
{
    guide_kind_of(&g->p)->slab_offset(g, k, off);
}

unsigned char guide_fill_value(const struct guide_geom *g)
{
    return (unsigned char)((g->data_rank + 1) % 256);
}
