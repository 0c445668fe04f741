/* What h5perf knows of an API's files without calling its library: how
 * far a file reaches when the library places its data itself (HDF5's and
 * PnetCDF's alignment), and the words for the refusals that follow, so that
 * validation and the file-size probe ask every API alike (docs/design.md,
 * "Adding an API"). An API table entry points at its model (api.h); flat
 * APIs have none. Pure: no MPI, no I/O. */
#ifndef H5PERF_API_FILE_MODEL_H
#define H5PERF_API_FILE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* What a data file holds: nvars variables of var_bytes each, stored in
 * chunks of chunk_bytes (0: contiguous). */
struct extent_file {
    int nvars;
    int64_t var_bytes;
    int64_t chunk_bytes;
};

struct api_model {
    /* The end of a file of f with alignment align and threshold (-a, -T):
     * upper false, where the data must end at the least; upper true, a
     * bound from above (with its metadata). -1 beyond 64 bits. */
    int64_t (*extent)(const struct extent_file *f, int64_t align, int64_t threshold, bool upper);
    bool needs_align; /* the extent exceeds the data only with -a above 1 */
    const char *unit; /* what it calls a variable: "dataset" */
    /* The refusal of a file beyond 64-bit offsets: how the library places
     * the data, and the remedy; "%t" is the threshold that aligns
     * ("1 byte (-T '1')"), "%a" and "%T" how -a and -T were spelled. */
    const char *places;
    const char *remedy;
    /* The size probe's words: "HDF5 places data and metadata at multiples". */
    const char *probe_how;
    /* The largest -a the library takes (0: any), and why. */
    int64_t max_align;
    const char *max_align_why;
};

extern const struct api_model hdf5_model, pnetcdf_model;

/* The largest offset an MPI-IO file has (MPI_Offset's largest): a file of
 * HDF5 (MPI-IO driver) or PnetCDF must end at or below it. */
#define API_MAX_FILE_END INT64_MAX

/* Where a contiguous HDF5 file of f ends without alignment, as HDF5
 * (1.10.8, MPI-IO driver) lays it out: its first metadata block (meta_block
 * bytes, HDF5's 2048 when 0) before the data, the datasets' metadata in
 * more blocks of that size after it (docs/hdf5.md, "Limits"). -1 beyond
 * API_MAX_FILE_END. */
int64_t hdf5_file_end(const struct extent_file *f, int64_t meta_block);

/* The largest CDF-5 variable PnetCDF defines, in bytes: its size padded
 * to a multiple of 4 must fit in 64 bits (ncmpi_def_var fails with
 * NC_EVARSIZE above; docs/pnetcdf.md, "Limits"). */
#define PNETCDF_MAX_VAR_BYTES (INT64_MAX - 3)

/* Where a PnetCDF file of f ends without -a: its header, then each
 * variable padded to 4 bytes. -1 beyond API_MAX_FILE_END. */
int64_t pnetcdf_file_end(const struct extent_file *f);

/* a * b + c, or -1 when it does not fit (all operands >= 0). */
static inline int64_t api_mul_add(int64_t a, int64_t b, int64_t c)
{
    if (a < 0 || b < 0 || c < 0 || (b != 0 && a > (INT64_MAX - c) / b))
        return -1;
    return a * b + c;
}

#endif
