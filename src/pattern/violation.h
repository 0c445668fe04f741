/* Why a pattern's parameters are unusable: the first violation its check
 * finds. Shared by the guide's and the application patterns' geometry.
 * Pure. */
#ifndef H5PERF_VIOLATION_H
#define H5PERF_VIOLATION_H

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

/* Text of a violation, for messages ("the transfer size is not a multiple
 * of the block size", ...). */
const char *pattern_violation_text(enum pattern_violation v);

#endif
