/* Pure access-pattern arithmetic: who touches which bytes of a dataset.
 * Given the geometry, the pattern, the sizes, the number of processes, the
 * process that executes and the process whose data it is, it answers every
 * offset a backend needs. It must never call MPI or do I/O (it is linked into
 * a library without MPI). All arithmetic is 64-bit and overflow-checked. */
#ifndef H5PERF_PATTERN_H
#define H5PERF_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pattern_params {
    int geometry;     /* 1 or 2 */
    bool interleaved; /* -I */
    bool chunked;     /* -c: 2D POSIX/MPI-IO use the chunking emulation */
    int64_t bytes;    /* e: bytes per process per dataset (1D), side share (2D) */
    int64_t block;    /* B */
    int64_t xfer;     /* X: transfer buffer size (1D bytes; 2D one side) */
    int nprocs;       /* P */
};

/* Why a parameter set is unusable; pattern_check() returns the first. */
enum pattern_violation {
    PATTERN_OK = 0,
    PATTERN_BAD_VALUE,   /* a size <= 0, nprocs <= 0, geometry not 1/2 */
    PATTERN_BLOCK_XFER,  /* X is not a multiple of B */
    PATTERN_XFER_BYTES,  /* 1D: e is not a multiple of X; 2D: S not a multiple of X */
    PATTERN_BLOCK_BYTES, /* 2D: e is not a multiple of B (SPEC 3.5) */
    PATTERN_OVERFLOW     /* a dataset size or offset does not fit in int64 */
};

/* The physical run of one transfer in a flat file: `count` pieces of `len`
 * bytes, piece i at disp + i*stride (relative to the dataset's first byte).
 * Memory is consumed sequentially: piece i is at buffer offset i*len. */
struct pattern_vec {
    int64_t disp;
    int64_t count;
    int64_t len;
    int64_t stride;
};

/* The logical (HDF5) description: dataspace, chunk and memory dims and the
 * hyperslab of transfer 0; transfer k is that slab moved by
 * pattern_slab_offset(). Units are elements (bytes). */
struct pattern_slab {
    int ndims;
    int64_t dims[2];     /* file dataspace: (N) or (S, S) */
    int64_t chunk[2];    /* (B) or (B, B) */
    int64_t mem_dims[2]; /* (X), (B, X) or (X, B) */
    int64_t start[2];
    int64_t stride[2];
    int64_t count[2];
    int64_t block[2];
};

struct pattern {
    struct pattern_params p;
    int exec_rank;            /* the process that performs the transfers */
    int data_rank;            /* the process whose data is moved (offsets, fill value) */
    int64_t side;             /* S = e*P (both geometries) */
    int64_t dset_bytes;       /* N: 1D e*P, 2D S*S */
    int64_t xfer_bytes;       /* bytes per transfer: X (1D), X*B (2D) */
    int64_t ntransfers;       /* transfers per dataset per process */
    int64_t rank_bytes;       /* bytes per dataset per process */
    int64_t rank_begin;       /* first logical offset of the data rank (SPEC 7.4 -D 4) */
    struct pattern_vec shape; /* count/len/stride of every transfer (disp of k=0) */
    /* When transfer k is transfer 0 moved by k * xfer_step, and xfer_step is
     * at least the span of one transfer (so transfers neither overlap nor
     * interleave): the step; else 0. One MPI-IO file view then serves every
     * transfer of a dataset (1D; 2D chunk-emulated contiguous). */
    int64_t xfer_step;
    struct pattern_slab slab;
};

/* Checks a parameter set without building anything. Local, pure. */
enum pattern_violation pattern_check(const struct pattern_params *pp);

/* Builds the plan for data_rank's data, executed by exec_rank (both in
 * [0, nprocs)). Returns 0, or -1 (and the violation in *why if not NULL). */
int pattern_init(struct pattern *pt, const struct pattern_params *pp, int exec_rank, int data_rank,
                 enum pattern_violation *why);

/* Physical run of transfer k (0 <= k < ntransfers), relative to the dataset. */
struct pattern_vec pattern_file_vec(const struct pattern *pt, int64_t k);

/* H5Soffset_simple offsets of transfer k. */
void pattern_slab_offset(const struct pattern *pt, int64_t k, int64_t off[2]);

/* File offset (relative to the dataset) of byte `mem_off` of transfer k. */
int64_t pattern_file_offset(const struct pattern *pt, int64_t k, int64_t mem_off);

/* The byte value of data_rank's data: (data_rank + 1) mod 256. */
unsigned char pattern_fill_value(const struct pattern *pt);

/* Text of a violation, for messages ("the transfer size is not a multiple of
 * the block size", ...). */
const char *pattern_violation_text(enum pattern_violation v);

#endif
