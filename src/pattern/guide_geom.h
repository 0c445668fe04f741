/* The guide's 1D and 2D geometry (docs/original.md §5): who touches which
 * bytes of a dataset in each transfer, as the physical runs of a flat file
 * (POSIX, MPI-IO, with the 2D chunking emulation) and as the HDF5
 * hyperslab. Given the parameters, the number of processes, the process
 * that executes and the process whose data it is, it answers every offset.
 * Used by the guide pattern (guide.c) only. Pure; all arithmetic 64-bit
 * and overflow-checked. */
#ifndef H5PERF_GUIDE_GEOM_H
#define H5PERF_GUIDE_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pattern/violation.h"
#include "plan/model.h"

struct guide_params {
    int geometry;     /* 1 or 2 */
    bool interleaved; /* -I */
    bool chunked;     /* -c: 2D POSIX/MPI-IO use the chunking emulation */
    int64_t bytes;    /* e: bytes per process per dataset (1D), side share (2D) */
    int64_t block;    /* B */
    int64_t xfer;     /* X: transfer buffer size (1D bytes; 2D one side) */
    int nprocs;       /* P */
};

/* The physical run of one transfer in a flat file: `count` pieces of `len`
 * bytes, piece i at disp + i*stride (relative to the dataset's first byte).
 * Memory is consumed sequentially: piece i is at buffer offset i*len. */
struct guide_vec {
    int64_t disp;
    int64_t count;
    int64_t len;
    int64_t stride;
};

/* The HDF5 description: dataspace, chunk and memory dims and the hyperslab
 * of transfer 0; transfer k is that slab moved by guide_slab_offset().
 * Units are bytes (the guide's elements). */
struct guide_slab {
    int ndims;
    int64_t dims[2];     /* file dataspace: (N), (S, S) */
    int64_t chunk[2];    /* (B), (B, B) */
    int64_t mem_dims[2]; /* (X), (B, X), (X, B) */
    int64_t start[2];
    int64_t stride[2];
    int64_t count[2];
    int64_t block[2];
};

struct guide_geom {
    struct guide_params p;
    int exec_rank;          /* the process that performs the transfers */
    int data_rank;          /* the process whose data is moved (offsets, fill value) */
    int64_t side;           /* S = e*P (both geometries) */
    int64_t dset_bytes;     /* N: 1D e*P, 2D S*S */
    int64_t xfer_bytes;     /* bytes per transfer: X (1D), X*B (2D) */
    int64_t ntransfers;     /* transfers per dataset per process */
    int64_t rank_bytes;     /* bytes per dataset per process */
    int64_t rank_begin;     /* data rank's first logical offset (-D 4, docs/original.md §7.4) */
    struct guide_vec shape; /* count/len/stride of every transfer (disp of k=0) */
    /* When transfer k is transfer 0 moved by k * xfer_step, and xfer_step is
     * at least the span of one transfer (so transfers neither overlap nor
     * interleave): the step; else 0. One MPI-IO file view then serves every
     * transfer of a dataset (1D; 2D chunk-emulated contiguous). */
    int64_t xfer_step;
    struct guide_slab slab;
    struct model_storage storage; /* the dataset in C order, or -c's B x B tiles */
};

/* Checks a parameter set without building anything. Local, pure. */
enum pattern_violation guide_check(const struct guide_params *pp);

/* Builds the geometry for data_rank's data, executed by exec_rank (both in
 * [0, nprocs)). Returns 0, or -1 (and the violation in *why if not NULL). */
int guide_init(struct guide_geom *g, const struct guide_params *pp, int exec_rank, int data_rank,
               enum pattern_violation *why);

/* Physical run of transfer k (0 <= k < ntransfers), relative to the dataset. */
struct guide_vec guide_file_vec(const struct guide_geom *g, int64_t k);

/* H5Soffset_simple offsets of transfer k. */
void guide_slab_offset(const struct guide_geom *g, int64_t k, int64_t off[2]);

/* The byte value of data_rank's data: (data_rank + 1) mod 256. */
unsigned char guide_fill_value(const struct guide_geom *g);

#endif
