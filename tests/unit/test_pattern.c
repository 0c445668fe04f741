/* Unit tests of the access-pattern module (no MPI). Exhaustive over small
 * geometries with a brute-force oracle: every byte of every dataset is
 * written exactly once, by the process the guide's figures say, and the HDF5
 * hyperslab selects the same elements as the physical runs. Plus the exact
 * bytes of the guide's figures, every violation and the 64-bit limits. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "pattern/guide_geom.h"

/* The file offset (relative to the dataset) of byte mem_off of transfer k,
 * from its physical run (guide_file_vec()); -1 outside the transfer. */
static int64_t file_offset(const struct guide_geom *g, int64_t k, int64_t mem_off)
{
    struct guide_vec v = guide_file_vec(g, k);
    if (mem_off < 0 || mem_off >= g->xfer_bytes)
        return -1;
    return v.disp + mem_off / v.len * v.stride + mem_off % v.len;
}

static struct guide_params params(int geometry, bool interleaved, bool chunked, int64_t e,
                                  int64_t b, int64_t x, int nprocs)
{
    struct guide_params pp = {geometry, interleaved, chunked, e, b, x, nprocs};
    return pp;
}

/* --- the oracle ---------------------------------------------------------- */

/* Logical (row, col) of physical byte f of a 2D dataset; with the chunking
 * emulation chunk (R,C) is stored at (R*(S/B)+C)*B*B, row-major inside. */
static void logical_of(const struct guide_params *pp, int64_t s, int64_t f, int64_t *row,
                       int64_t *col)
{
    int64_t b = pp->block, bb = pp->block * pp->block, nc = s / pp->block;
    if (!pp->chunked) {
        *row = f / s;
        *col = f % s;
        return;
    }
    *row = f / bb / nc * b + f % bb / b;
    *col = f / bb % nc * b + f % bb % b;
}

static int64_t physical_of(const struct guide_params *pp, int64_t s, int64_t row, int64_t col)
{
    int64_t b = pp->block, nc = s / pp->block;
    if (pp->geometry == 1 || !pp->chunked)
        return row * s + col;
    return (row / b * nc + col / b) * b * b + row % b * b + col % b;
}

/* The process the guide's figures give byte f (1D) or element (row, col) (2D). */
static int owner_logical(const struct guide_params *pp, int64_t row, int64_t col)
{
    if (pp->geometry == 1)
        return (int)(pp->interleaved ? col / pp->block % pp->nprocs : col / pp->bytes);
    if (pp->interleaved)
        return (int)(col / pp->block % pp->nprocs);
    return (int)(row / pp->bytes);
}

static int owner_physical(const struct guide_params *pp, int64_t s, int64_t f)
{
    int64_t row = 0, col = f;
    if (pp->geometry == 2)
        logical_of(pp, s, f, &row, &col);
    return owner_logical(pp, row, col);
}

/* Independent statement of docs/original.md §3.5 (+ B | e in 2D), for small values. */
static enum pattern_violation expected_violation(const struct guide_params *pp)
{
    if ((pp->geometry != 1 && pp->geometry != 2) || pp->bytes <= 0 || pp->block <= 0 ||
        pp->xfer <= 0 || pp->nprocs <= 0)
        return PATTERN_BAD_VALUE;
    if (pp->xfer % pp->block != 0)
        return PATTERN_BLOCK_XFER;
    if ((pp->geometry == 1 ? pp->bytes : pp->bytes * pp->nprocs) % pp->xfer != 0)
        return PATTERN_XFER_BYTES;
    if (pp->geometry == 2 && pp->bytes % pp->block != 0)
        return PATTERN_BLOCK_BYTES;
    return PATTERN_OK;
}

/* guide_init that must succeed: false (and a failed check) if it did not,
 * so that a rejected plan is never walked. */
static bool init_ok(struct guide_geom *pt, const struct guide_params *pp, int exec, int data)
{
    enum pattern_violation why = PATTERN_OVERFLOW;
    int rc = guide_init(pt, pp, exec, data, &why);
    CHECK_I64(rc, 0);
    CHECK_I64(why, PATTERN_OK);
    return rc == 0;
}

/* --- the exhaustive walk ------------------------------------------------- */

struct canvas {
    int64_t n, side;
    int *writer;      /* data rank + 1 that wrote each byte, 0 if none */
    int64_t *xfer_of; /* transfer index that wrote each byte */
    int64_t *mem_map; /* file offset of each byte of the current transfer buffer */
};

static void check_fields(const struct guide_geom *pt, const struct guide_params *pp, int r)
{
    int64_t s = pp->bytes * pp->nprocs, g2 = pp->geometry == 2;
    CHECK_I64(pt->side, s);
    CHECK_I64(pt->dset_bytes, g2 ? s * s : s);
    CHECK_I64(pt->xfer_bytes, g2 ? pp->xfer * pp->block : pp->xfer);
    CHECK_I64(pt->rank_bytes, g2 ? s * pp->bytes : pp->bytes);
    CHECK_I64(pt->ntransfers * pt->xfer_bytes, pt->rank_bytes);
    /* docs/original.md §7.4: 1D r*e or r*B; 2D (r*e, 0) or (0, r*B) as row*S + col */
    CHECK_I64(pt->rank_begin, pp->interleaved ? r * pp->block : r * pp->bytes * (g2 ? s : 1));
    CHECK_I64(pt->exec_rank, (r + 1) % pp->nprocs);
    CHECK_I64(pt->data_rank, r);
    CHECK(guide_fill_value(pt) == (unsigned char)(r + 1));
}

/* The HDF5 selection of transfer k against the physical walk: same element set
 * (every element was written by this transfer) and, except where the emulation
 * deliberately stores the B x X buffer untransposed (docs/original.md §5.2),
 * the same memory order. */
static void check_slab(const struct guide_geom *pt, int64_t k, const struct canvas *cv)
{
    const struct guide_slab *sl = &pt->slab;
    const struct guide_params *pp = &pt->p;
    bool ordered = !(pp->geometry == 2 && pp->chunked && !pp->interleaved);
    int64_t off[2], n = 0, rows = sl->ndims == 2 ? sl->count[0] * sl->block[0] : 1;
    int64_t cols = sl->count[sl->ndims - 1] * sl->block[sl->ndims - 1];

    guide_slab_offset(pt, k, off);
    CHECK_I64(rows * cols, pt->xfer_bytes);
    if (rows * cols != pt->xfer_bytes)
        return;
    for (int64_t i = 0; i < rows; i++) {
        int64_t row = 0;
        if (sl->ndims == 2)
            row = sl->start[0] + off[0] + i / sl->block[0] * sl->stride[0] + i % sl->block[0];
        CHECK(row >= 0 && row < (sl->ndims == 2 ? sl->dims[0] : 1));
        for (int64_t j = 0; j < cols; j++, n++) {
            int d = sl->ndims - 1;
            int64_t col =
                sl->start[d] + off[d] + j / sl->block[d] * sl->stride[d] + j % sl->block[d];
            int64_t f;
            CHECK(col >= 0 && col < sl->dims[d]);
            f = physical_of(pp, cv->side, row, col);
            if (f < 0 || f >= cv->n)
                continue;
            CHECK_I64(owner_logical(pp, row, col), pt->data_rank);
            CHECK_I64(cv->xfer_of[f], k);
            if (ordered)
                CHECK_I64(cv->mem_map[n], f);
        }
    }
}

static void check_slab_dims(const struct guide_geom *pt)
{
    const struct guide_slab *sl = &pt->slab;
    const struct guide_params *pp = &pt->p;
    bool g2 = pp->geometry == 2;

    CHECK_I64(sl->ndims, pp->geometry);
    CHECK_I64(sl->dims[0], g2 ? pt->side : pt->dset_bytes);
    CHECK_I64(sl->chunk[0], pp->block);
    CHECK_I64(sl->mem_dims[0], g2 && !pp->interleaved ? pp->block : pp->xfer);
    if (g2) {
        CHECK_I64(sl->dims[1], pt->side);
        CHECK_I64(sl->chunk[1], pp->block);
        CHECK_I64(sl->mem_dims[1], pp->interleaved ? pp->block : pp->xfer);
    }
    for (int d = 0; d < sl->ndims; d++)
        CHECK_I64(sl->count[d] * sl->block[d], sl->mem_dims[d]);
}

/* Walks every transfer of data rank r, painting the canvas. */
static void walk_rank(const struct guide_params *pp, int r, struct canvas *cv)
{
    struct guide_geom pt;
    int64_t total = 0;

    if (!init_ok(&pt, pp, (r + 1) % pp->nprocs, r))
        return;
    check_fields(&pt, pp, r);
    check_slab_dims(&pt);
    for (int64_t k = 0; k < pt.ntransfers; k++) {
        struct guide_vec v = guide_file_vec(&pt, k);
        int64_t mem = 0;
        if (k == 0)
            CHECK(memcmp(&v, &pt.shape, sizeof v) == 0);
        CHECK(v.count == pt.shape.count && v.len == pt.shape.len && v.stride == pt.shape.stride);
        CHECK_I64(v.count * v.len, pt.xfer_bytes);
        for (int64_t i = 0; i < v.count; i++) {
            for (int64_t j = 0; j < v.len; j++, mem++) {
                int64_t f = v.disp + i * v.stride + j;
                CHECK(f >= 0 && f < cv->n);
                if (f < 0 || f >= cv->n || mem >= pt.xfer_bytes)
                    continue;
                CHECK(cv->writer[f] == 0);
                cv->writer[f] = r + 1;
                cv->xfer_of[f] = k;
                cv->mem_map[mem] = f;
                CHECK_I64(owner_physical(pp, cv->side, f), r);
                CHECK_I64(file_offset(&pt, k, mem), f);
            }
        }
        total += mem;
        check_slab(&pt, k, cv);
    }
    CHECK_I64(total, pt.rank_bytes);
}

/* One valid configuration: every rank's plan, then every byte written once. */
/* xfer_step: when set, every transfer is transfer 0 moved by k steps and a
 * step is at least one transfer's span (what lets MPI-IO keep one file view
 * per dataset); 1D always tiles, 2D non-emulated never does. */
static void check_step(const struct guide_params *pp, int r)
{
    struct guide_geom pt;
    if (!init_ok(&pt, pp, r, r))
        return;
    int64_t span = (pt.shape.count - 1) * pt.shape.stride + pt.shape.len;
    if (pp->geometry == 1)
        CHECK(pt.xfer_step != 0);
    if (pp->geometry == 2 && !pp->chunked)
        CHECK_I64(pt.xfer_step, 0);
    if (pt.xfer_step == 0)
        return;
    CHECK(pt.xfer_step >= span);
    for (int64_t k = 0; k < pt.ntransfers; k++)
        CHECK_I64(guide_file_vec(&pt, k).disp, pt.shape.disp + k * pt.xfer_step);
}

static void check_config(const struct guide_params *pp)
{
    struct canvas cv;
    int64_t s = pp->bytes * pp->nprocs;

    cv.side = s;
    cv.n = pp->geometry == 2 ? s * s : s;
    cv.writer = calloc((size_t)cv.n, sizeof *cv.writer);
    cv.xfer_of = calloc((size_t)cv.n, sizeof *cv.xfer_of);
    cv.mem_map = calloc((size_t)cv.n, sizeof *cv.mem_map);
    if (cv.writer == NULL || cv.xfer_of == NULL || cv.mem_map == NULL) {
        CHECK(!"out of memory");
        return;
    }
    for (int r = 0; r < pp->nprocs; r++) {
        walk_rank(pp, r, &cv);
        check_step(pp, r);
    }
    for (int64_t f = 0; f < cv.n; f++)
        CHECK(cv.writer[f] != 0);
    free(cv.writer);
    free(cv.xfer_of);
    free(cv.mem_map);
}

static void test_exhaustive(int geometry, int64_t max_bytes, int *nconfigs)
{
    static const int procs[] = {1, 2, 3, 5};

    for (size_t ip = 0; ip < sizeof procs / sizeof procs[0]; ip++) {
        int np = procs[ip];
        for (int64_t e = 1; e <= max_bytes; e++) {
            int64_t xmax = (geometry == 2 ? e * np : e) + 1;
            for (int64_t b = 1; b <= e + 1; b++) {
                for (int64_t x = 1; x <= xmax; x++) {
                    struct guide_params pp = params(geometry, false, false, e, b, x, np);
                    enum pattern_violation want = expected_violation(&pp);
                    CHECK_I64(guide_check(&pp), want);
                    if (want != PATTERN_OK)
                        continue;
                    for (int v = 0; v < 4; v++) {
                        pp.interleaved = v & 1;
                        pp.chunked = v & 2;
                        CHECK_I64(guide_check(&pp), PATTERN_OK);
                        check_config(&pp);
                        ++*nconfigs;
                    }
                }
            }
        }
    }
}

/* --- the guide's figures (docs/original.md §8) -------------------------- */

/* The dataset's bytes as digits of the fill values, through the public API. */
static void render(const struct guide_params *pp, char *out, int64_t n)
{
    memset(out, '.', (size_t)n);
    out[n] = '\0';
    for (int r = 0; r < pp->nprocs; r++) {
        struct guide_geom pt;
        if (!init_ok(&pt, pp, r, r))
            return;
        CHECK_I64(pt.dset_bytes, n);
        for (int64_t k = 0; k < pt.ntransfers; k++)
            for (int64_t m = 0; m < pt.xfer_bytes; m++) {
                int64_t f = file_offset(&pt, k, m);
                CHECK(f >= 0 && f < n);
                if (f >= 0 && f < n)
                    out[f] = (char)('0' + guide_fill_value(&pt));
            }
    }
}

static void check_figure(const struct guide_params *pp, const char *const *rows, int nrows)
{
    char got[256], want[256] = "";
    for (int i = 0; i < nrows; i++)
        strcat(want, rows[i]);
    render(pp, got, (int64_t)strlen(want));
    CHECK_STR(got, want);
}

static void check_shape(const struct guide_params *pp, int r, int64_t ntransfers,
                        struct guide_vec want)
{
    struct guide_geom pt;
    if (!init_ok(&pt, pp, r, r))
        return;
    CHECK_I64(pt.ntransfers, ntransfers);
    CHECK_I64(pt.shape.disp, want.disp);
    CHECK_I64(pt.shape.count, want.count);
    CHECK_I64(pt.shape.len, want.len);
    CHECK_I64(pt.shape.stride, want.stride);
}

static void test_figures(void)
{
    static const char *const fig2[] = {"111111112222222233333333"};
    static const char *const fig3[] = {"112233112233112233112233"};
    static const char *const fig3_e4[] = {"112233112233"};
    static const char *const fig5[] = {"111111111111", "111111111111", "111111111111",
                                       "111111111111", "222222222222", "222222222222",
                                       "222222222222", "222222222222", "333333333333",
                                       "333333333333", "333333333333", "333333333333"};
    static const char *const fig7[] = {"112233112233", "112233112233", "112233112233",
                                       "112233112233", "112233112233", "112233112233",
                                       "112233112233", "112233112233", "112233112233",
                                       "112233112233", "112233112233", "112233112233"};
    static const char *const fig10[] = {"11111111", "11111111", "11111111", "11111111",
                                        "22222222", "22222222", "22222222", "22222222"};
    struct guide_params pp;

    pp = params(1, false, false, 8, 2, 4, 3); /* figure 2 */
    check_figure(&pp, fig2, 1);
    check_shape(&pp, 1, 2, (struct guide_vec){8, 1, 4, 4});
    pp = params(1, true, false, 8, 2, 4, 3); /* figure 3 as drawn (-e 8) */
    check_figure(&pp, fig3, 1);
    check_shape(&pp, 2, 2, (struct guide_vec){4, 2, 2, 6});
    pp = params(1, true, false, 4, 2, 4, 3); /* figure 3's command (-e 4) */
    check_figure(&pp, fig3_e4, 1);
    pp = params(2, false, false, 4, 2, 12, 3); /* figure 5 */
    check_figure(&pp, fig5, 12);
    check_shape(&pp, 1, 2, (struct guide_vec){48, 2, 12, 12});
    pp = params(2, true, false, 4, 2, 12, 3); /* figure 7 */
    check_figure(&pp, fig7, 12);
    check_shape(&pp, 1, 2, (struct guide_vec){2, 12, 2, 12});
    pp = params(2, false, false, 4, 4, 4, 2); /* figure 10: 4 writes of 4 B */
    check_figure(&pp, fig10, 8);
    check_shape(&pp, 1, 2, (struct guide_vec){32, 4, 4, 8});
    pp = params(2, false, true, 4, 4, 4, 2); /* figure 11: 1 write of 16 B */
    check_figure(&pp, fig10, 8);
    check_shape(&pp, 1, 2, (struct guide_vec){32, 1, 16, 16});
}

/* --- exact table values (docs/original.md §5.2, §5.3) ------------------- */

static void check_slab_row(const struct guide_params *pp, int r, int64_t k,
                           const int64_t want[6][2])
{
    struct guide_geom pt;
    int64_t off[2] = {-1, -1};
    if (!init_ok(&pt, pp, r, r))
        return;
    guide_slab_offset(&pt, k, off);
    for (int d = 0; d < pp->geometry; d++) {
        CHECK_I64(pt.slab.start[d], want[0][d]);
        CHECK_I64(pt.slab.stride[d], want[1][d]);
        CHECK_I64(pt.slab.count[d], want[2][d]);
        CHECK_I64(pt.slab.block[d], want[3][d]);
        CHECK_I64(off[d], want[4][d]);
    }
    CHECK_I64(pt.rank_begin, want[5][0]);
}

static void test_tables(void)
{
    /* P=3 e=8 B=2 X=4 (1D) and P=3 e=4 B=2 X=6 (2D, S=12), rank 1 */
    static const int64_t c1[6][2] = {{8}, {2}, {2}, {2}, {4 * 1}, {8}};
    static const int64_t i1[6][2] = {{2}, {6}, {2}, {2}, {4 * 3}, {2}};
    static const int64_t c2[6][2] = {{4, 0}, {1, 2}, {1, 3}, {2, 2}, {2, 6}, {48}};
    static const int64_t i2[6][2] = {{0, 2}, {2, 6}, {3, 1}, {2, 2}, {6, 6}, {2}};
    struct guide_params pp = params(1, false, false, 8, 2, 4, 3);
    struct guide_geom pt;

    check_slab_row(&pp, 1, 1, c1);
    pp.interleaved = true;
    check_slab_row(&pp, 1, 1, i1);
    pp = params(2, false, false, 4, 2, 6, 3);
    check_slab_row(&pp, 1, 3, c2); /* c = 18: band 1, column 6 */
    pp.chunked = true;             /* -c does not change the selection */
    check_slab_row(&pp, 1, 3, c2);
    pp = params(2, true, false, 4, 2, 6, 3);
    check_slab_row(&pp, 1, 3, i2); /* q = 18: band 1 (rows 6..11), column 6 */

    /* docs/original.md §5.2 offsets of transfer k = 3 for rank 1 with S = 12 (c = q = 18) */
    static const struct {
        bool interleaved, chunked;
        struct guide_vec want;
    } rows[] = {
        {false, false, {1 * 4 * 12 + 1 * 2 * 12 + 6, 2, 6, 12}},
        {false, true, {1 * 4 * 12 + 3 * 2 * 6, 1, 12, 12}},
        {true, false, {1 * 2 + 1 * 6 * 12 + 6, 6, 2, 12}},
        {true, true, {1 * 2 * 2 + 1 * 6 * 12 + 12, 3, 4, 24}}, /* q = 36 = 1*S*B + 12 */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct guide_vec v;
        pp = params(2, rows[i].interleaved, rows[i].chunked, 4, 2, 6, 3);
        if (!init_ok(&pt, &pp, 1, 1))
            continue;
        v = guide_file_vec(&pt, 3);
        CHECK(memcmp(&v, &rows[i].want, sizeof v) == 0);
        CHECK_I64(file_offset(&pt, 3, -1), -1);
        CHECK_I64(file_offset(&pt, 3, pt.xfer_bytes), -1);
    }
}

/* --- violations ---------------------------------------------------------- */

struct violation_case {
    struct guide_params pp;
    enum pattern_violation want;
};

static void test_violations(void)
{
    static const struct violation_case cases[] = {
        {{0, false, false, 8, 2, 4, 3}, PATTERN_BAD_VALUE},
        {{3, false, false, 8, 2, 4, 3}, PATTERN_BAD_VALUE},
        {{1, false, false, 0, 2, 4, 3}, PATTERN_BAD_VALUE},
        {{2, false, false, -8, 2, 4, 3}, PATTERN_BAD_VALUE},
        {{1, false, false, 8, 0, 4, 3}, PATTERN_BAD_VALUE},
        {{2, true, false, 8, -2, 4, 3}, PATTERN_BAD_VALUE},
        {{1, false, false, 8, 2, 0, 3}, PATTERN_BAD_VALUE},
        {{2, false, true, 8, 2, -4, 3}, PATTERN_BAD_VALUE},
        {{1, false, false, 8, 2, 4, 0}, PATTERN_BAD_VALUE},
        {{2, false, false, 8, 2, 4, -1}, PATTERN_BAD_VALUE},
        {{1, false, false, 0, 3, 5, 3}, PATTERN_BAD_VALUE},  /* first violation wins */
        {{1, false, false, 8, 3, 4, 3}, PATTERN_BLOCK_XFER}, /* also contiguous */
        {{2, true, false, 8, 3, 4, 3}, PATTERN_BLOCK_XFER},
        {{1, false, false, 8, 3, 5, 3}, PATTERN_BLOCK_XFER},  /* before e % X */
        {{1, false, false, 8, 2, 6, 3}, PATTERN_XFER_BYTES},  /* e % X */
        {{1, true, false, 4, 8, 8, 3}, PATTERN_XFER_BYTES},   /* X > e in 1D */
        {{2, false, false, 4, 2, 8, 3}, PATTERN_XFER_BYTES},  /* S % X */
        {{2, false, false, 4, 3, 9, 3}, PATTERN_XFER_BYTES},  /* before e % B */
        {{2, false, false, 4, 3, 6, 3}, PATTERN_BLOCK_BYTES}, /* the original forgets it */
        {{2, true, true, 4, 4, 12, 3}, PATTERN_OK},           /* X > e is fine in 2D */
        {{1, false, false, INT64_C(1) << 62, 1, 1, 2}, PATTERN_OVERFLOW}, /* N = 2^63 */
        {{1, false, false, INT64_C(1) << 33, 1, 1, INT_MAX}, PATTERN_OVERFLOW},
        {{1, false, false, INT64_C(1) << 62, 1, 1, 1}, PATTERN_OK},
        {{2, false, false, INT64_C(1) << 32, 1, 1, 1}, PATTERN_OVERFLOW}, /* S*S = 2^64 */
        {{2, false, false, INT64_C(1) << 31, 1, 1, 1}, PATTERN_OK},
        {{2, false, false, INT64_C(1) << 62, 1, 8, 4}, PATTERN_OVERFLOW}, /* S itself */
        /* S = e*P overflows, yet X | S is decided exactly: 3 does not divide 2^64 */
        {{2, false, false, INT64_C(1) << 62, 1, 3, 4}, PATTERN_XFER_BYTES},
        {{2, false, false, INT64_C(3) << 61, INT64_C(1) << 62, INT64_C(1) << 62, 2},
         PATTERN_BLOCK_BYTES}, /* before the overflow */
    };

    CHECK_I64(guide_check(NULL), PATTERN_BAD_VALUE);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct guide_geom pt;
        enum pattern_violation why = PATTERN_OK;
        int rc = guide_init(&pt, &cases[i].pp, 0, 0, &why);
        CHECK_I64(guide_check(&cases[i].pp), cases[i].want);
        CHECK_I64(rc, cases[i].want == PATTERN_OK ? 0 : -1);
        CHECK_I64(why, cases[i].want);
        CHECK_I64(guide_init(&pt, &cases[i].pp, 0, 0, NULL), rc);
    }
}

static void test_violation_texts(void)
{
    for (int v = PATTERN_OK; v <= PATTERN_OVERFLOW; v++) {
        const char *t = pattern_violation_text((enum pattern_violation)v);
        size_t n = t != NULL ? strlen(t) : 0;
        CHECK(n > 0);
        if (n == 0)
            continue;
        CHECK(t[0] >= 'a' && t[0] <= 'z');
        CHECK(t[n - 1] != '.' && t[n - 1] != '\n');
        for (int w = PATTERN_OK; w < v; w++)
            CHECK(strcmp(t, pattern_violation_text((enum pattern_violation)w)) != 0);
    }
    CHECK_STR(pattern_violation_text(PATTERN_BLOCK_XFER),
              "the transfer size is not a multiple of the block size");
    CHECK(pattern_violation_text((enum pattern_violation)99) != NULL);
}

/* --- executing process vs data process ---------------------------------- */

static void check_same_plan(const struct guide_geom *a, const struct guide_geom *b)
{
    int64_t oa[2], ob[2];
    CHECK(a->side == b->side && a->dset_bytes == b->dset_bytes);
    CHECK(a->ntransfers == b->ntransfers && a->rank_begin == b->rank_begin);
    for (int d = 0; d < 2; d++)
        CHECK(a->slab.start[d] == b->slab.start[d] && a->slab.stride[d] == b->slab.stride[d] &&
              a->slab.count[d] == b->slab.count[d] && a->slab.block[d] == b->slab.block[d]);
    for (int64_t k = 0; k < a->ntransfers; k++) {
        struct guide_vec va = guide_file_vec(a, k), vb = guide_file_vec(b, k);
        CHECK(memcmp(&va, &vb, sizeof va) == 0);
        guide_slab_offset(a, k, oa);
        guide_slab_offset(b, k, ob);
        CHECK(oa[0] == ob[0] && oa[1] == ob[1]);
    }
    CHECK(guide_fill_value(a) == guide_fill_value(b));
}

static void test_exec_rank(void)
{
    struct guide_params pp = params(1, false, false, 1, 1, 1, 256);
    struct guide_geom a, b;
    enum pattern_violation why = PATTERN_OK;

    if (init_ok(&a, &pp, 0, 255)) {
        CHECK(guide_fill_value(&a) == 0); /* (255 + 1) mod 256 */
        CHECK_I64(guide_file_vec(&a, 0).disp, 255);
        CHECK_I64(a.exec_rank, 0);
    }
    if (init_ok(&a, &pp, 255, 0)) {
        CHECK(guide_fill_value(&a) == 1);
        CHECK_I64(guide_file_vec(&a, 0).disp, 0);
        CHECK_I64(a.exec_rank, 255);
    }
    for (int v = 0; v < 8; v++) {
        pp = params(v & 4 ? 2 : 1, v & 1, v & 2, 4, 2, 4, 3);
        for (int data = 0; data < 3; data++) {
            if (!init_ok(&a, &pp, data, data))
                continue;
            for (int exec = 0; exec < 3; exec++) {
                if (!init_ok(&b, &pp, exec, data))
                    continue;
                CHECK_I64(b.exec_rank, exec);
                check_same_plan(&a, &b);
            }
        }
    }
    pp = params(1, false, false, 8, 2, 4, 3);
    CHECK(guide_init(&a, &pp, -1, 0, &why) == -1 && why == PATTERN_BAD_VALUE);
    CHECK(guide_init(&a, &pp, 3, 0, &why) == -1 && why == PATTERN_BAD_VALUE);
    CHECK(guide_init(&a, &pp, 0, -1, &why) == -1 && why == PATTERN_BAD_VALUE);
    CHECK(guide_init(&a, &pp, 0, 3, NULL) == -1);
}

/* --- the 64-bit limits --------------------------------------------------- */

/* The last element of the rank's last transfer in its hyperslab. */
static void check_slab_end(const struct guide_geom *pt, int64_t k, const int64_t want[2])
{
    const struct guide_slab *sl = &pt->slab;
    int64_t off[2];
    guide_slab_offset(pt, k, off);
    for (int d = 0; d < sl->ndims; d++)
        CHECK_I64(sl->start[d] + off[d] + (sl->count[d] - 1) * sl->stride[d] + sl->block[d] - 1,
                  want[d]);
}

/* Rank P-1 ends the dataset (physical N-1, logical bottom-right); rank 0's
 * last byte is where the oracle puts its last element. */
static void check_limit(const struct guide_params *pp, int64_t ntransfers)
{
    struct guide_geom pt;
    int64_t s = pp->bytes * pp->nprocs, n = pp->geometry == 2 ? s * s : s;
    int64_t b = pp->block, row0 = pp->interleaved ? s - 1 : pp->bytes - 1;
    int64_t col0 = pp->interleaved ? s - pp->nprocs * b + b - 1 : s - 1;
    int64_t end[2] = {pp->geometry == 2 ? s - 1 : n - 1, s - 1}, end0[2] = {row0, col0};
    struct guide_vec v;

    CHECK_I64(guide_check(pp), PATTERN_OK);
    if (!init_ok(&pt, pp, 0, pp->nprocs - 1))
        return;
    CHECK_I64(pt.dset_bytes, n);
    CHECK_I64(pt.ntransfers, ntransfers);
    v = guide_file_vec(&pt, ntransfers - 1);
    CHECK_I64(v.disp + (v.count - 1) * v.stride + v.len, n);
    CHECK_I64(file_offset(&pt, ntransfers - 1, pt.xfer_bytes - 1), n - 1);
    check_slab_end(&pt, ntransfers - 1, end);
    if (!init_ok(&pt, pp, 0, 0))
        return;
    CHECK_I64(file_offset(&pt, 0, 0), 0);
    if (pp->geometry == 1) {
        row0 = 0;
        col0 = pp->interleaved ? n - (pp->nprocs - 1) * b - 1 : pp->bytes - 1;
        end0[0] = col0;
    }
    CHECK_I64(file_offset(&pt, ntransfers - 1, pt.xfer_bytes - 1), physical_of(pp, s, row0, col0));
    check_slab_end(&pt, ntransfers - 1, end0);
}

static void test_limits(void)
{
    /* INT64_MAX = 7*7*73*127*337*92737*649657: N = e*7 = INT64_MAX exactly */
    const int64_t e1 = INT64_MAX / 7, x1 = 73 * 127;
    /* floor(sqrt(INT64_MAX)) = 3037000499 = 13*233615423 */
    const int64_t s2 = 3037000499, e2 = 233615423;
    struct guide_params pp;

    for (int v = 0; v < 2; v++) {
        pp = params(1, v, false, e1, 73, x1, 7);
        check_limit(&pp, e1 / x1);
        pp.nprocs = 8;
        CHECK_I64(guide_check(&pp), PATTERN_OVERFLOW);
    }
    for (int v = 0; v < 4; v++) {
        pp = params(2, v & 1, v & 2, e2, 1, 13, 13); /* N = S*S, 233615423^2 transfers */
        check_limit(&pp, e2 * e2);
        pp.bytes = e2 + 1; /* S = 3037000512 */
        CHECK_I64(guide_check(&pp), PATTERN_OVERFLOW);
        pp = params(2, v & 1, v & 2, s2, 13, s2, 1); /* one process, 13 x S buffers */
        check_limit(&pp, e2);
        pp = params(2, v & 1, v & 2, s2 + 1, 1, 1, 1);
        CHECK_I64(guide_check(&pp), PATTERN_OVERFLOW);
    }
}

int main(void)
{
    int nconfigs = 0;

    test_violations();
    test_violation_texts();
    test_figures();
    test_tables();
    test_exec_rank();
    test_limits();
    test_exhaustive(1, 24, &nconfigs);
    test_exhaustive(2, 16, &nconfigs); /* 2D: up to 80 x 80 bytes */
    printf("test_pattern: %d valid configurations walked byte by byte\n", nconfigs);
    return check_done("test_pattern");
}
