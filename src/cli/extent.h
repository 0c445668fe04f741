/* How far a data file reaches: a flat file (POSIX, MPI-IO) holds its
 * datasets back to back; an HDF5 file with -a > 1 places every allocation of
 * at least -T bytes at a multiple of -a (docs/differences.md, "HDF5
 * alignment"); a PnetCDF file each variable (docs/pnetcdf.md). Used to refuse, before any file
 * exists, files that cannot exist. Pure: no MPI, no I/O. */
#ifndef H5PERF_EXTENT_H
#define H5PERF_EXTENT_H

#include <stdbool.h>
#include <stdint.h>

/* What a data file holds: nvars variables of var_bytes each, stored in
 * chunks of chunk_bytes (HDF5; 0: contiguous). */
struct extent_file {
    int nvars;
    int64_t var_bytes;
    int64_t chunk_bytes;
};

/* The end of an HDF5 data file with nprocs processes. With -a 1 its data
 * bytes. With alignment: lower (upper false) is where the data must end at
 * the least (each aligned allocation at its own nonzero multiple of -a);
 * upper bounds it from above for HDF5 1.10 as measured: also the metadata
 * blocks it aligns when -T is small (one per dataset, two per chunked
 * dataset, and four more) and a whole multiple for the last block; with a
 * larger -T, 64 KiB of metadata after the data. Returns -1 beyond 64 bits. */
int64_t extent_hdf5(const struct extent_file *f, int64_t align, int64_t threshold, bool upper);

/* PnetCDF takes -a (nc_var_align_size) as a 32-bit value: 1.12.3 fails from
 * 2 GiB - 1 on and writes a file that is not netCDF above 2^62, so h5perf
 * allows at most this (docs/pnetcdf.md, "Alignment"). */
#define EXTENT_PNETCDF_ALIGN_MAX (INT64_C(1) << 30)

/* An upper bound of the end of a PnetCDF data file with nprocs processes:
 * its header, then each variable at a multiple of -a (of 512 bytes without
 * -a). Returns -1 beyond 64 bits. */
int64_t extent_pnetcdf(const struct extent_file *f, int64_t align);

#endif
