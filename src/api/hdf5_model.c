/* HDF5's model (file_model.h): an HDF5 file with -a > 1 places every
 * allocation of at least -T bytes at a multiple of -a (docs/differences.md,
 * "HDF5 alignment"), as measured with HDF5 1.10.8. The sizes come from the
 * pattern (variable and chunk bytes), never recomputed here. */
#include "api/file_model.h"

/* Metadata blocks below this size are what HDF5 1.10 allocates for a file's
 * objects (its default metadata block size); a threshold above it aligns
 * the data alone (measured: none aligned from -T 1024 on). */
#define EXTENT_META_BLOCK 2048
/* Room for the metadata that is not aligned, after the aligned data. */
#define EXTENT_SLACK (INT64_C(64) << 10)

/* The end of an HDF5 file. With -a 1 its data bytes. With alignment: lower
 * (upper false) is where the data must end at the least (each aligned
 * allocation at its own nonzero multiple of -a); upper bounds it from above
 * for HDF5 1.10 as measured: also the metadata blocks it aligns when -T is
 * small (one per dataset, two per chunked dataset, and four more) and a
 * whole multiple for the last block; with a larger -T, 64 KiB of metadata
 * after the data. */
static int64_t hdf5_extent(const struct extent_file *f, int64_t align, int64_t threshold,
                           bool upper)
{
    int ndsets = f->nvars;
    bool chunked = f->chunk_bytes > 0;
    int64_t data = api_mul_add(ndsets, f->var_bytes, 0);
    /* One allocation per dataset, or one per chunk. */
    int64_t size = f->var_bytes, per_dset = 1;
    if (chunked) {
        size = f->chunk_bytes;
        per_dset = f->var_bytes / size;
    }
    if (align <= 1 || size < threshold || data < 0)
        return data;
    int64_t a = align, each = size / a + (size % a != 0); /* multiples per allocation */
    int64_t allocs = api_mul_add(ndsets, per_dset, 0);
    int64_t multiples = api_mul_add(allocs, each, 0);
    if (multiples < 0)
        return -1;
    if (upper && threshold < EXTENT_META_BLOCK) {
        /* The metadata blocks, and a whole multiple for the last block
         * (measured: up to 8 KiB after the last multiple). */
        int64_t meta = api_mul_add(ndsets, chunked ? 2 : 1, 4);
        if (meta < 0 || multiples > INT64_MAX - meta - 1)
            return -1;
        return api_mul_add(multiples + meta + 1, a, 0);
    }
    /* Offset 0 holds the superblock: the first multiple used is 1, and the
     * last allocation starts at the last multiple it does not fill; the
     * metadata not aligned follows it (EXTENT_SLACK at most). */
    int64_t end = api_mul_add(multiples - each + 1, a, size);
    return !upper || end < 0 || end > INT64_MAX - EXTENT_SLACK ? end : end + EXTENT_SLACK;
}

/* HDF5's metadata block when --hdf5.metadata-block-size is not given, and
 * bounds from above of the metadata a file's objects take besides, from
 * files written by HDF5 1.10.8 (docs/hdf5.md, "Limits"): 2 KiB for 1 to 5
 * datasets, about 400 bytes per dataset from there, 6 KiB for the
 * particles' 8 datasets in a group, 3 KiB per chunked dataset of a few
 * chunks (its chunk index) and 40 bytes per chunk from there. */
#define HDF5_META_BLOCK   2048
#define HDF5_META_PER_SET 1024
#define HDF5_META_CHUNKED 4096
#define HDF5_META_CHUNK   64

int64_t hdf5_file_end(const struct extent_file *f, int64_t meta_block)
{
    int64_t block = meta_block > 0 ? meta_block : HDF5_META_BLOCK;
    int64_t data = api_mul_add(f->nvars, f->var_bytes, 0);
    int64_t chunks = 0, per_set = HDF5_META_PER_SET;
    if (f->chunk_bytes > 0) {
        chunks = api_mul_add(f->nvars, f->var_bytes / f->chunk_bytes + 1, 0);
        per_set += HDF5_META_CHUNKED;
    }
    int64_t meta = api_mul_add(f->nvars, per_set, HDF5_META_BLOCK);
    meta = chunks < 0 || meta < 0 ? -1 : api_mul_add(chunks, HDF5_META_CHUNK, meta);
    if (data < 0 || meta < 0)
        return -1;
    /* The first block holds the superblock and comes before the data; the
     * metadata that does not fit in it takes whole blocks after. */
    int64_t room = api_mul_add(meta / block + (meta % block != 0), block, 0);
    return room < 0 || data > API_MAX_FILE_END - room ? -1 : data + room;
}

const struct api_model hdf5_model = {
    .extent = hdf5_extent,
    .unit = "dataset",
    .places = "HDF5 places every allocation of at least %t at a multiple of the alignment",
    .remedy = "use a smaller %a (or a larger %T, to align the data alone)",
    .probe_how = "HDF5 places data and metadata at multiples",
};
