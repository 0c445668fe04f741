/* Access-pattern arithmetic of docs/original.md §5: validation, the physical
 * run of every transfer (POSIX/MPI-IO, with the 2D chunking emulation) and the
 * HDF5 hyperslab. One small table of plan kinds, one function per kind. Pure:
 * no MPI, no I/O, no floating point; every product is bounded by the dataset
 * size N, which pattern_check() proves fits in int64. */
#include "pattern/pattern.h"

#include <stdio.h>
#include <string.h>

#include "pattern/block.h"
#include "pattern/particles.h"

/* Why the run-time arithmetic cannot overflow once pattern_check() passed:
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
static bool dataset_sizes(const struct pattern_params *pp, int64_t *side, int64_t *n)
{
    if (__builtin_mul_overflow(pp->bytes, (int64_t)pp->nprocs, side))
        return false;
    int64_t dims[2] = {*side, *side};
    *n = model_product(pp->geometry, dims);
    return *n >= 0;
}

static enum pattern_violation guide_check(const struct pattern_params *pp)
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

const char *pattern_violation_text(enum pattern_violation v)
{
    switch (v) {
    case PATTERN_OK:
        return "no violation";
    case PATTERN_BAD_VALUE:
        return "a size or the number of processes is not positive, or the geometry is not 1 or 2";
    case PATTERN_BLOCK_XFER:
        return "the transfer size is not a multiple of the block size";
    case PATTERN_XFER_BYTES:
        return "the bytes per process (in 2d the dataset side) is not a multiple of the "
               "transfer size";
    case PATTERN_BLOCK_BYTES:
        return "the bytes per process is not a multiple of the block size";
    case PATTERN_OVERFLOW:
        return "the dataset size does not fit in a signed 64-bit integer";
    case PATTERN_GRID_PROCS:
        return "the process grid does not have as many processes as the run";
    case PATTERN_GRID_SPLIT:
        return "a dimension of the process grid does not divide the array's";
    case PATTERN_NO_PARTICLES:
        return "no process has any particles";
    case PATTERN_ALIGN:
        return "the alignment or shift is out of range or does not apply to the layout";
    }
    return "unknown violation";
}

/* --- physical runs, one shape per plan kind (docs/original.md §5.1-5.2) --- */

/* Every transfer of a kind has the same shape (pieces, their length and
 * stride); where it starts is where the model's storage places its first
 * element (pattern_file_vec()): the logical array in C order, or, with the
 * 2D chunking emulation, B x B tiles one after another. */
static struct pattern_vec vec_make(int64_t count, int64_t len, int64_t stride)
{
    struct pattern_vec v = {0, count, len, stride};
    return v;
}

/* 1D contiguous: X bytes. */
static struct pattern_vec vec_1d_contig(const struct pattern *pt)
{
    return vec_make(1, pt->p.xfer, pt->p.xfer);
}

/* 1D interleaved: X/B blocks of B, one every B*P. */
static struct pattern_vec vec_1d_inter(const struct pattern *pt)
{
    int64_t b = pt->p.block;
    return vec_make(pt->p.xfer / b, b, b * pt->p.nprocs);
}

/* 2D contiguous: B rows of X bytes, bands of B rows filled left to right. */
static struct pattern_vec vec_2d_contig(const struct pattern *pt)
{
    return vec_make(pt->p.block, pt->p.xfer, pt->side);
}

/* 2D interleaved: X rows of B bytes, column blocks r, r+P, ... */
static struct pattern_vec vec_2d_inter(const struct pattern *pt)
{
    return vec_make(pt->p.xfer, pt->p.block, pt->side);
}

/* 2D contiguous, chunk-emulated: X/B horizontally adjacent chunks, one run. */
static struct pattern_vec vec_2d_contig_chunk(const struct pattern *pt)
{
    int64_t bx = pt->p.block * pt->p.xfer;
    return vec_make(1, bx, bx);
}

/* 2D interleaved, chunk-emulated: X/B vertically stacked chunks of B*B. */
static struct pattern_vec vec_2d_inter_chunk(const struct pattern *pt)
{
    int64_t b = pt->p.block;
    return vec_make(pt->p.xfer / b, b * b, pt->side * b);
}

/* --- HDF5 hyperslabs (docs/original.md §5.3) --------------------------- */

static void slab_1d(struct pattern *pt, int64_t start, int64_t stride)
{
    struct pattern_slab *sl = &pt->slab;
    sl->ndims = 1;
    sl->dims[0] = pt->dset_bytes;
    sl->chunk[0] = pt->p.block;
    sl->mem_dims[0] = pt->p.xfer;
    sl->start[0] = start;
    sl->stride[0] = stride;
    sl->count[0] = pt->p.xfer / pt->p.block;
    sl->block[0] = pt->p.block;
}

static void slab_1d_contig(struct pattern *pt)
{
    slab_1d(pt, (int64_t)pt->data_rank * pt->p.bytes, pt->p.block);
}

static void slab_1d_inter(struct pattern *pt)
{
    slab_1d(pt, (int64_t)pt->data_rank * pt->p.block, pt->p.block * pt->p.nprocs);
}

/* 2D: both patterns are (B,B) blocks; `rows`/`cols` are the memory dims. */
static void slab_2d(struct pattern *pt, int64_t rows, int64_t cols)
{
    struct pattern_slab *sl = &pt->slab;
    sl->ndims = 2;
    sl->dims[0] = sl->dims[1] = pt->side;
    sl->chunk[0] = sl->chunk[1] = pt->p.block;
    sl->mem_dims[0] = rows;
    sl->mem_dims[1] = cols;
    sl->count[0] = rows / pt->p.block;
    sl->count[1] = cols / pt->p.block;
    sl->block[0] = sl->block[1] = pt->p.block;
}

static void slab_2d_contig(struct pattern *pt)
{
    int64_t b = pt->p.block;
    slab_2d(pt, b, pt->p.xfer);
    pt->slab.start[0] = (int64_t)pt->data_rank * pt->p.bytes;
    pt->slab.start[1] = 0;
    pt->slab.stride[0] = 1;
    pt->slab.stride[1] = b;
}

static void slab_2d_inter(struct pattern *pt)
{
    int64_t b = pt->p.block;
    slab_2d(pt, pt->p.xfer, b);
    pt->slab.start[0] = 0;
    pt->slab.start[1] = (int64_t)pt->data_rank * b;
    pt->slab.stride[0] = b;
    pt->slab.stride[1] = b * pt->p.nprocs;
}

static void slab_off_1d_contig(const struct pattern *pt, int64_t k, int64_t off[2])
{
    off[0] = k * pt->p.xfer;
    off[1] = 0;
}

static void slab_off_1d_inter(const struct pattern *pt, int64_t k, int64_t off[2])
{
    off[0] = k * pt->p.xfer * pt->p.nprocs;
    off[1] = 0;
}

static void slab_off_2d_contig(const struct pattern *pt, int64_t k, int64_t off[2])
{
    int64_t c = k * pt->p.xfer;
    off[0] = c / pt->side * pt->p.block;
    off[1] = c % pt->side;
}

static void slab_off_2d_inter(const struct pattern *pt, int64_t k, int64_t off[2])
{
    int64_t q = k * pt->p.block * pt->p.nprocs;
    off[0] = q / pt->side * pt->p.xfer;
    off[1] = q % pt->side;
}

/* --- the table of plan kinds ------------------------------------------- */

struct plan_kind {
    struct pattern_vec (*vec)(const struct pattern *pt);
    void (*slab)(struct pattern *pt);
    void (*slab_offset)(const struct pattern *pt, int64_t k, int64_t off[2]);
    int64_t (*rank_begin)(const struct pattern *pt);
    bool tiles; /* transfer k is transfer 0 moved by k * (disp(1) - disp(0)) */
};

static int64_t begin_contig(const struct pattern *pt)
{
    /* 1D r*e; 2D the first byte of row r*e (docs/original.md §7.4 prints (r*e, 0)) */
    return (int64_t)pt->data_rank * pt->rank_bytes;
}

static int64_t begin_inter(const struct pattern *pt)
{
    /* 1D r*B; 2D column r*B of row 0 (docs/original.md §7.4 prints (0, r*B)) */
    return (int64_t)pt->data_rank * pt->p.block;
}

enum {
    KIND_1D_CONTIG,
    KIND_1D_INTER,
    KIND_2D_CONTIG,
    KIND_2D_INTER,
    KIND_2D_CONTIG_CHUNK,
    KIND_2D_INTER_CHUNK
};

static const struct plan_kind plan_kinds[] = {
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
static const struct plan_kind *plan_kind_of(const struct pattern_params *pp)
{
    int kind;
    if (pp->geometry == 1)
        kind = pp->interleaved ? KIND_1D_INTER : KIND_1D_CONTIG;
    else if (pp->chunked)
        kind = pp->interleaved ? KIND_2D_INTER_CHUNK : KIND_2D_CONTIG_CHUNK;
    else
        kind = pp->interleaved ? KIND_2D_INTER : KIND_2D_CONTIG;
    return &plan_kinds[kind];
}

/* --- public entry points ----------------------------------------------- */

/* The guide's storage (model.h): the dataset in C order, or with the 2D
 * chunking emulation (-c) its B x B chunks one after another. */
static void guide_storage(struct pattern *pt)
{
    struct model_storage *st = &pt->storage;
    memset(st, 0, sizeof *st);
    st->ndims = pt->slab.ndims;
    for (int d = 0; d < st->ndims; d++) {
        st->dims[d] = pt->slab.dims[d];
        st->tile[d] = pt->p.geometry == 2 && pt->p.chunked ? pt->p.block : 0;
    }
}

static int guide_init(struct pattern *pt, const struct pattern_params *pp)
{
    const struct plan_kind *kind = plan_kind_of(pp);
    dataset_sizes(pp, &pt->side, &pt->dset_bytes);
    pt->elem = 1;
    pt->outer = 1;
    if (pp->geometry == 1) {
        pt->xfer_bytes = pp->xfer;
        pt->rank_bytes = pp->bytes;
    } else {
        pt->xfer_bytes = pp->xfer * pp->block; /* <= S*S */
        pt->rank_bytes = pt->side * pp->bytes; /* = N/P */
    }
    pt->ntransfers = pt->rank_bytes / pt->xfer_bytes;
    pt->rank_begin = kind->rank_begin(pt);
    kind->slab(pt);
    guide_storage(pt);
    pt->shape = kind->vec(pt);
    pt->shape = pattern_file_vec(pt, 0);
    if (kind->tiles) {
        int64_t span = (pt->shape.count - 1) * pt->shape.stride + pt->shape.len;
        pt->xfer_step = pt->ntransfers > 1 ? pattern_file_vec(pt, 1).disp - pt->shape.disp : span;
        if (pt->xfer_step < span)
            pt->xfer_step = 0;
    }
    return 0;
}

enum pattern_violation pattern_check(const struct pattern_params *pp)
{
    return guide_check(pp);
}

enum pattern_violation pattern_check_block(const struct block_params *bp)
{
    return block_check(bp);
}

/* The common part of the two inits: ranks, the violation. */
static int pattern_begin(struct pattern *pt, enum pattern_violation v, int nprocs, int exec_rank,
                         int data_rank, enum pattern_violation *why)
{
    memset(pt, 0, sizeof *pt);
    if (v == PATTERN_OK &&
        (exec_rank < 0 || exec_rank >= nprocs || data_rank < 0 || data_rank >= nprocs))
        v = PATTERN_BAD_VALUE;
    if (why != NULL)
        *why = v;
    pt->exec_rank = exec_rank;
    pt->data_rank = data_rank;
    return v == PATTERN_OK ? 0 : -1;
}

int pattern_init(struct pattern *pt, const struct pattern_params *pp, int exec_rank, int data_rank,
                 enum pattern_violation *why)
{
    enum pattern_violation v = pattern_check(pp);
    if (pattern_begin(pt, v, v == PATTERN_OK ? pp->nprocs : 0, exec_rank, data_rank, why) < 0)
        return -1;
    pt->kind = PATTERN_GUIDE;
    pt->p = *pp;
    int rc = guide_init(pt, pp);
    pt->var_stride = pt->var_end = pt->dset_bytes; /* packed */
    return rc;
}

int pattern_init_block(struct pattern *pt, const struct block_params *bp, int exec_rank,
                       int data_rank, enum pattern_violation *why)
{
    enum pattern_violation v = pattern_check_block(bp);
    if (pattern_begin(pt, v, v == PATTERN_OK ? bp->nprocs : 0, exec_rank, data_rank, why) < 0)
        return -1;
    pt->kind = PATTERN_BLOCK;
    pt->b = *bp;
    return block_init(pt);
}

enum pattern_violation pattern_check_particles(const struct particle_params *qp)
{
    return particles_check(qp);
}

int pattern_init_particles(struct pattern *pt, const struct particle_params *qp, int exec_rank,
                           int data_rank, enum pattern_violation *why)
{
    enum pattern_violation v = pattern_check_particles(qp);
    if (pattern_begin(pt, v, v == PATTERN_OK ? qp->nprocs : 0, exec_rank, data_rank, why) < 0)
        return -1;
    pt->kind = PATTERN_PARTICLES;
    pt->q = *qp;
    return particles_init(pt);
}

int64_t pattern_var_base(const struct pattern *pt, int v)
{
    return pt->file_shift + (int64_t)v * pt->var_stride;
}

int64_t pattern_file_end(const struct pattern *pt, int nvars)
{
    return nvars > 0 ? pattern_var_base(pt, nvars - 1) + pt->var_end : 0;
}

/* Transfer k: the kind's shape, starting where the storage places the
 * first element of its slab. */
struct pattern_vec pattern_file_vec(const struct pattern *pt, int64_t k)
{
    if (pt->kind != PATTERN_GUIDE)
        return pt->shape;
    struct pattern_vec v = pt->shape;
    int64_t off[2], idx[MODEL_MAX_DIMS];
    pattern_slab_offset(pt, k, off);
    for (int d = 0; d < pt->slab.ndims; d++)
        idx[d] = pt->slab.start[d] + off[d];
    v.disp = model_offset(&pt->storage, idx);
    return v;
}

void pattern_slab_offset(const struct pattern *pt, int64_t k, int64_t off[2])
{
    if (pt->kind != PATTERN_GUIDE) {
        off[0] = off[1] = 0;
        return;
    }
    plan_kind_of(&pt->p)->slab_offset(pt, k, off);
}

int64_t pattern_file_offset(const struct pattern *pt, int64_t k, int64_t mem_off)
{
    struct pattern_vec v = pattern_file_vec(pt, k);

    if (mem_off < 0 || mem_off >= pt->xfer_bytes)
        return -1;
    int64_t piece = mem_off / v.len;
    return v.disp + piece / v.count * pt->outer_stride + piece % v.count * v.stride +
           mem_off % v.len;
}

unsigned char pattern_fill_value(const struct pattern *pt)
{
    return (unsigned char)((pt->data_rank + 1) % 256);
}

void pattern_fill(const struct pattern *pt, int var, unsigned char *buf)
{
    if (pt->kind != PATTERN_GUIDE)
        block_fill(pt, var, buf);
    else
        memset(buf, pattern_fill_value(pt), (size_t)pt->xfer_bytes);
}

void pattern_poison(const struct pattern *pt, int var, unsigned char *buf)
{
    pattern_fill(pt, var, buf);
    for (int64_t i = 0; i < pt->xfer_bytes; i++)
        buf[i] = (unsigned char)~buf[i];
}

int64_t pattern_verify(const struct pattern *pt, int var, int64_t k, const unsigned char *buf,
                       struct pattern_mismatch *m)
{
    (void)k;
    memset(m, 0, sizeof *m);
    if (pt->kind != PATTERN_GUIDE)
        return block_verify(pt, var, buf, m);
    unsigned char want = pattern_fill_value(pt);
    for (int64_t i = 0; i < pt->xfer_bytes; i++) {
        if (buf[i] == want)
            continue;
        if (m->bad++ == 0) {
            m->mem_off = i;
            m->expected = want;
            m->found = buf[i];
        }
    }
    return m->bad;
}

void pattern_dataset_name(const struct pattern *pt, int d, char *buf, size_t len)
{
    if (pt->kind == PATTERN_PARTICLES)
        snprintf(buf, len, "Timestep_%d/%s", pt->step, particles_var_name(d));
    else if (pt->kind == PATTERN_BLOCK)
        snprintf(buf, len, "v%d", d);
    else
        snprintf(buf, len, "Dataset_%d", d + 1);
}
