/* The two sweeps of docs/original.md §3.2-3.3, defined once for validation and
 * the engine: process counts from -P halving down to -p, transfer sizes from
 * -x doubling up to -X. Pure. */
#ifndef H5PERF_SWEEP_H
#define H5PERF_SWEEP_H

#include <stdint.h>

#include "cli/config.h"
#include <stdbool.h>

#include "pattern/pattern.h"

/* for (int P = sweep_procs_first(c); P != 0; P = sweep_procs_next(c, P)) */
static inline int sweep_procs_first(const struct config *c)
{
    return c->max_procs >= c->min_procs ? c->max_procs : 0;
}

static inline int sweep_procs_next(const struct config *c, int nprocs)
{
    int next = nprocs / 2;
    return next >= c->min_procs && next > 0 ? next : 0;
}

/* for (int64_t X = sweep_xfer_first(c); X != 0; X = sweep_xfer_next(c, X)) */
static inline int64_t sweep_xfer_first(const struct config *c)
{
    return c->xfer_min <= c->xfer_max ? c->xfer_min : 0;
}

static inline int64_t sweep_xfer_next(const struct config *c, int64_t xfer)
{
    if (xfer > c->xfer_max / 2)
        return 0;
    return xfer * 2;
}

static inline struct pattern_params sweep_pattern_params(const struct config *c, int nprocs,
                                                         int64_t xfer)
{
    struct pattern_params pp = {
        .geometry = c->geometry_2d ? 2 : 1,
        .interleaved = c->interleaved,
        .chunked = c->chunk,
        .bytes = c->bytes,
        .block = c->block,
        .xfer = xfer,
        .nprocs = nprocs,
    };
    return pp;
}

/* One run of the sweep: a process count, a transfer size (the guide's
 * patterns) or a layout (the block pattern), and an API. */
struct run_point {
    int nprocs;
    int64_t xfer;               /* the guide's patterns; 0 in the block pattern */
    enum pattern_layout layout; /* the block pattern */
    enum api_id api;
    int64_t align, shift; /* --align-data, --shift (0, 0: packed) */
};

/* The run points of a finished configuration, in run order
 * (docs/original.md §3.2-3.3: process counts from -P down, transfer sizes up,
 * the APIs; the block pattern: process counts, the layouts in the order given,
 * the APIs): the first max into out. Returns how many there are. */
int sweep_points(const struct config *c, struct run_point *out, int max);

/* Do --align-data and --shift place the files of this layout and API (the
 * POSIX and MPI-IO files of the shared and chunked layouts)? */
bool sweep_placeable(enum pattern_layout layout, enum api_id api);

/* All the run points, in a malloc'd array of *n (free() it); NULL if out
 * of memory. */
struct run_point *sweep_points_all(const struct config *c, int *n);

/* The block pattern's grid for a process count: --grid, or the one
 * MPI_Dims_create gave (c->auto_grid, filled before validation). */
void sweep_grid(const struct config *c, int nprocs, int grid[MODEL_MAX_DIMS]);

/* The plan of a run point for data_rank's data, executed by exec_rank;
 * read: the read phase's (the block pattern's --read-grid). Returns 0, or
 * -1 with the violation in *why (if not NULL). */
int sweep_plan(const struct config *c, const struct run_point *p, int exec_rank, int data_rank,
               bool read, struct pattern *pt, enum pattern_violation *why);

/* The datasets of one file: -d, or the block pattern's variables. */
static inline int sweep_datasets(const struct config *c)
{
    return c->pattern != PATTERN_GUIDE ? c->nvars : c->num_dsets;
}

/* The bytes one phase of one file's datasets moves at a process count,
 * all processes together (the largest transfer size's plan; the block
 * pattern's shared layout); -1 if invalid. */
int64_t sweep_file_bytes(const struct config *c, int nprocs);

#endif
