/* Pure access-pattern arithmetic: who touches which bytes of a dataset, as the
 * plan every backend consumes (docs/design.md). Three kinds: the guide's 1D
 * and 2D patterns (docs/original.md §5), the block decomposition of an array
 * of up to three dimensions (docs/block.md), and particle arrays with uneven
 * counts per process (docs/particles.md), all placed through the model
 * (model.h). Given the parameters, the number of processes, the process that
 * executes and the process whose data it is, it answers every offset a backend
 * needs. It must never call MPI or do I/O (it is linked into a library without
 * MPI). All arithmetic is 64-bit and overflow-checked. */
#ifndef H5PERF_PATTERN_H
#define H5PERF_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pattern/model.h"

enum pattern_kind { PATTERN_GUIDE = 0, PATTERN_BLOCK, PATTERN_PARTICLES };

/* Where the block pattern stores the array: one file in its C order, one
 * file of the processes' blocks in rank order (each in C order), or a file
 * per process. */
enum pattern_layout { LAYOUT_SHARED = 0, LAYOUT_CHUNKED, LAYOUT_FPP, LAYOUT_COUNT };

/* The guide's patterns. */
struct pattern_params {
    int geometry;     /* 1 or 2 */
    bool interleaved; /* -I */
    bool chunked;     /* -c: 2D POSIX/MPI-IO use the chunking emulation */
    int64_t bytes;    /* e: bytes per process per dataset (1D), side share (2D) */
    int64_t block;    /* B */
    int64_t xfer;     /* X: transfer buffer size (1D bytes; 2D one side) */
    int nprocs;       /* P */
};

/* The block pattern. */
struct block_params {
    int nprocs;                     /* P */
    int ndims;                      /* 1 to 3 */
    int64_t global[MODEL_MAX_DIMS]; /* the array, in elements */
    int grid[MODEL_MAX_DIMS];       /* the process grid (product P) */
    int elem;                       /* bytes per element: 1, 2, 4 or 8 */
    int nvars;                      /* variables: one dataset each */
    enum pattern_layout layout;
    int64_t align; /* --align-data: variables and runs at multiples (0: packed) */
    int64_t shift; /* --shift: every offset moved by this many bytes */
};

/* How many particles each process holds (docs/particles.md): the same
 * count everywhere, a linear spread from (1-F)N to (1+F)N, a deterministic
 * draw around N, or a list of one count per process. */
enum particle_dist_kind { DIST_UNIFORM = 0, DIST_IMBALANCE, DIST_NORMAL, DIST_LIST };

struct particle_dist {
    enum particle_dist_kind kind;
    int64_t mean;  /* N, per process */
    double param;  /* F (imbalance) or SD in particles (normal) */
    uint64_t seed; /* normal */
    int nlist;     /* list: one count per process */
    const int64_t *list;
};

/* The particles pattern: a 1D array per variable, uneven counts, offsets by
 * an exclusive scan of the counts; laid out like the block pattern's 1D
 * array (shared or fpp). */
struct particle_params {
    int nprocs;
    struct particle_dist dist;
    int nvars; /* the first nvars of x, y, z, px, py, pz, id_1, id_2 */
    enum pattern_layout layout;
    int64_t align, shift; /* as in struct block_params */
};

/* Why a parameter set is unusable; pattern_check() returns the first. */
enum pattern_violation {
    PATTERN_OK = 0,
    PATTERN_BAD_VALUE,    /* a size <= 0, nprocs <= 0, geometry not 1/2 */
    PATTERN_BLOCK_XFER,   /* X is not a multiple of B */
    PATTERN_XFER_BYTES,   /* 1D: e is not a multiple of X; 2D: S not a multiple of X */
    PATTERN_BLOCK_BYTES,  /* 2D: e is not a multiple of B (docs/original.md §3.5) */
    PATTERN_OVERFLOW,     /* a dataset size or offset does not fit in int64 */
    PATTERN_GRID_PROCS,   /* block: the grid's product is not P */
    PATTERN_GRID_SPLIT,   /* block: a grid dimension does not divide the array's */
    PATTERN_NO_PARTICLES, /* particles: every process has none */
    PATTERN_ALIGN         /* --align-data or --shift out of range, or on a file per process */
};

/* The physical run of one transfer in a flat file: `count` pieces of `len`
 * bytes, piece i at disp + i*stride (relative to the dataset's first byte).
 * Memory is consumed sequentially: piece i is at buffer offset i*len. A
 * transfer may repeat it (struct pattern's outer, outer_stride: a 3D
 * block's planes). */
struct pattern_vec {
    int64_t disp;
    int64_t count;
    int64_t len;
    int64_t stride;
};

/* The logical description (HDF5 hyperslab, MPI-IO subarray, netCDF
 * start/count): dataspace, chunk and memory dims and the hyperslab of
 * transfer 0; transfer k is that slab moved by pattern_slab_offset().
 * Units are elements (bytes in the guide's patterns). */
struct pattern_slab {
    int ndims;
    int64_t dims[MODEL_MAX_DIMS];     /* file dataspace: (N), (S, S), the array */
    int64_t chunk[MODEL_MAX_DIMS];    /* (B), (B, B), the block */
    int64_t mem_dims[MODEL_MAX_DIMS]; /* (X), (B, X), (X, B), the block */
    int64_t start[MODEL_MAX_DIMS];
    int64_t stride[MODEL_MAX_DIMS];
    int64_t count[MODEL_MAX_DIMS];
    int64_t block[MODEL_MAX_DIMS];
};

struct pattern {
    enum pattern_kind kind;
    struct pattern_params p;  /* PATTERN_GUIDE */
    struct block_params b;    /* PATTERN_BLOCK, and PATTERN_PARTICLES as a 1D array */
    struct particle_params q; /* PATTERN_PARTICLES */
    int step;                 /* particles: the iteration, 0-based (HDF5's Timestep_<step>) */
    int exec_rank;            /* the process that performs the transfers */
    int data_rank;            /* the process whose data is moved (offsets, fill value) */
    int64_t side;             /* S = e*P (both geometries) */
    int64_t dset_bytes;       /* N: 1D e*P, 2D S*S */
    int64_t xfer_bytes;       /* bytes per transfer: X (1D), X*B (2D) */
    int64_t ntransfers;       /* transfers per dataset per process */
    int64_t rank_bytes;       /* bytes per dataset per process */
    int64_t rank_begin;       /* data rank's first logical offset (-D 4, docs/original.md §7.4) */
    struct pattern_vec shape; /* count/len/stride of every transfer (disp of k=0) */
    /* When transfer k is transfer 0 moved by k * xfer_step, and xfer_step is
     * at least the span of one transfer (so transfers neither overlap nor
     * interleave): the step; else 0. One MPI-IO file view then serves every
     * transfer of a dataset (1D; 2D chunk-emulated contiguous). */
    int64_t xfer_step;
    struct pattern_slab slab;
    /* A transfer is `outer` runs of the shape, each outer_stride after the
     * previous (1 and 0 in the guide's patterns). */
    int64_t outer, outer_stride;
    int elem;                     /* bytes per element (1 in the guide's patterns) */
    int nvars;                    /* block: the variables (datasets) of a file */
    bool whole;                   /* block: one transfer moves the whole box (a view) */
    struct model_box box;         /* block: the data rank's box of the array */
    struct model_storage storage; /* how the file places the array */
    /* Where the variables (datasets) lie in a flat file: variable v from
     * byte file_shift + v*var_stride, its data (all processes') ending
     * var_end bytes after that; shape.disp is relative to the variable.
     * Packed: no shift, var_stride and var_end dset_bytes (docs/particles.md,
     * "Alignment"). */
    int64_t file_shift, var_stride, var_end;
};

/* Checks a parameter set without building anything. Local, pure. */
enum pattern_violation pattern_check(const struct pattern_params *pp);
enum pattern_violation pattern_check_block(const struct block_params *bp);
enum pattern_violation pattern_check_particles(const struct particle_params *qp);

/* Builds the plan for data_rank's data, executed by exec_rank (both in
 * [0, nprocs)). Returns 0, or -1 (and the violation in *why if not NULL). */
int pattern_init(struct pattern *pt, const struct pattern_params *pp, int exec_rank, int data_rank,
                 enum pattern_violation *why);
int pattern_init_block(struct pattern *pt, const struct block_params *bp, int exec_rank,
                       int data_rank, enum pattern_violation *why);
int pattern_init_particles(struct pattern *pt, const struct particle_params *qp, int exec_rank,
                           int data_rank, enum pattern_violation *why);

/* The first byte of variable (dataset) v in a flat file. */
int64_t pattern_var_base(const struct pattern *pt, int v);

/* The size of a flat file holding nvars variables: the end of the last
 * byte of data. */
int64_t pattern_file_end(const struct pattern *pt, int nvars);

/* Physical run of transfer k (0 <= k < ntransfers), relative to the dataset. */
struct pattern_vec pattern_file_vec(const struct pattern *pt, int64_t k);

/* H5Soffset_simple offsets of transfer k. */
void pattern_slab_offset(const struct pattern *pt, int64_t k, int64_t off[2]);

/* File offset (relative to the dataset) of byte `mem_off` of transfer k. */
int64_t pattern_file_offset(const struct pattern *pt, int64_t k, int64_t mem_off);

/* The byte value of data_rank's data in the guide's patterns: (data_rank +
 * 1) mod 256. */
unsigned char pattern_fill_value(const struct pattern *pt);

/* Fills buf (xfer_bytes) with what transfer 0 of dataset var holds: the
 * guide's byte, or the block pattern's elements (docs/block.md: element i
 * of variable v is (i + v*N) mod 2^(8*elem), little-endian). */
void pattern_fill(const struct pattern *pt, int var, unsigned char *buf);

/* Fills buf with bytes that all differ from what transfer 0 of dataset var
 * holds (before a verified read). */
void pattern_poison(const struct pattern *pt, int var, unsigned char *buf);

/* What a read found wrong in buf (xfer_bytes, transfer k of dataset var). */
struct pattern_mismatch {
    int64_t bad;     /* bytes that differ */
    int64_t mem_off; /* the first one's offset in buf */
    unsigned char expected, found;
};

/* Compares buf with what transfer k of dataset var must hold; returns the
 * number of bytes that differ (and the first in *m). */
int64_t pattern_verify(const struct pattern *pt, int var, int64_t k, const unsigned char *buf,
                       struct pattern_mismatch *m);

/* The name of dataset d (0-based) in an HDF5 file: the guide's "Dataset_1",
 * the block pattern's "v0", the particles pattern's "Timestep_0/x". */
void pattern_dataset_name(const struct pattern *pt, int d, char *buf, size_t len);

/* Text of a violation, for messages ("the transfer size is not a multiple of
 * the block size", ...). */
const char *pattern_violation_text(enum pattern_violation v);

#endif
