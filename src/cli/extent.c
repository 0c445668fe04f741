/* extent_hdf5(), extent_pnetcdf() (extent.h). The sizes come from the
 * pattern (variable and chunk bytes), never recomputed here. */
#include "cli/extent.h"

/* Metadata blocks below this size are what HDF5 1.10 allocates for a file's
 * objects (its default metadata block size); a threshold above it aligns
 * the data alone (measured: none aligned from -T 1024 on). */
#define EXTENT_META_BLOCK 2048
/* Room for the metadata that is not aligned, after the aligned data. */
#define EXTENT_SLACK (INT64_C(64) << 10)

/* a * b + c, or -1 when it does not fit (all operands >= 0). */
static int64_t extent_mul_add(int64_t a, int64_t b, int64_t c)
{
    if (a < 0 || b < 0 || c < 0 || (b != 0 && a > (INT64_MAX - c) / b))
        return -1;
    return a * b + c;
}

int64_t extent_hdf5(const struct extent_file *f, int64_t align, int64_t threshold, bool upper)
{
    int ndsets = f->nvars;
    bool chunked = f->chunk_bytes > 0;
    int64_t data = extent_mul_add(ndsets, f->var_bytes, 0);
    /* One allocation per dataset, or one per chunk. */
    int64_t size = f->var_bytes, per_dset = 1;
    if (chunked) {
        size = f->chunk_bytes;
        per_dset = f->var_bytes / size;
    }
    if (align <= 1 || size < threshold || data < 0)
        return data;
    int64_t a = align, each = size / a + (size % a != 0); /* multiples per allocation */
    int64_t allocs = extent_mul_add(ndsets, per_dset, 0);
    int64_t multiples = extent_mul_add(allocs, each, 0);
    if (multiples < 0)
        return -1;
    if (upper && threshold < EXTENT_META_BLOCK) {
        /* The metadata blocks, and a whole multiple for the last block
         * (measured: up to 8 KiB after the last multiple). */
        int64_t meta = extent_mul_add(ndsets, chunked ? 2 : 1, 4);
        if (meta < 0 || multiples > INT64_MAX - meta - 1)
            return -1;
        return extent_mul_add(multiples + meta + 1, a, 0);
    }
    /* Offset 0 holds the superblock: the first multiple used is 1, and the
     * last allocation starts at the last multiple it does not fill; the
     * metadata not aligned follows it (EXTENT_SLACK at most). */
    int64_t end = extent_mul_add(multiples - each + 1, a, size);
    return !upper || end < 0 || end > INT64_MAX - EXTENT_SLACK ? end : end + EXTENT_SLACK;
}

/* A CDF-5 header: 12 bytes, the dimensions' list (24 bytes per dimension
 * with its name), the empty attributes' list and the variables' list (below
 * 136 bytes per variable of up to 64 characters and 3 dimensions): 1 KiB
 * plus 256 bytes per variable bounds it. PnetCDF pads it to 512 bytes. */
#define EXTENT_CDF_HEADER  1024
#define EXTENT_CDF_PER_VAR 256
#define EXTENT_CDF_ALIGN   512

/* n rounded up to a multiple of a, or -1 when it does not fit. */
static int64_t extent_round_up(int64_t n, int64_t a)
{
    int64_t q = n / a + (n % a != 0);
    return extent_mul_add(q, a, 0);
}

int64_t extent_pnetcdf(const struct extent_file *f, int64_t align)
{
    int64_t n = f->nvars;
    int64_t a = align > 1 ? align : EXTENT_CDF_ALIGN;
    int64_t header = extent_round_up(extent_mul_add(n, EXTENT_CDF_PER_VAR, EXTENT_CDF_HEADER), a);
    int64_t var = extent_round_up(f->var_bytes, a);
    return header < 0 || var < 0 ? -1 : extent_mul_add(n, var, header);
}
