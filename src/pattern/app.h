/* What the application patterns (block, particles) share (docs/block.md,
 * docs/particles.md): an array of 1 to 3 dimensions per variable, each
 * process's box of it, its layout (shared in C order, chunked by blocks,
 * a file per process) and placement in flat files (--align-data,
 * --shift), its steps (the box in one call, or --transfer-size calls in its
 * C order), its content rule and the plan functions built on them. Used by
 * block.c and particles.c. Pure. */
#ifndef H5PERF_APP_H
#define H5PERF_APP_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern/violation.h"
#include "plan/plan.h"
#include "plan/point.h"

struct app_params {
    int nprocs;
    int ndims;                      /* 1 to 3 */
    int64_t global[MODEL_MAX_DIMS]; /* the array, in elements */
    int grid[MODEL_MAX_DIMS];       /* the process grid (product nprocs) */
    int elem;                       /* bytes per element: 1, 2, 4 or 8 */
    int nvars;                      /* variables: one dataset each */
    int layout;                     /* enum plan_layout */
    int64_t align;                  /* --align-data: variables and runs at multiples (0: packed) */
    int64_t shift;                  /* --shift: every offset moved by this many bytes */
    /* The chunked layout's HDF5 chunk in elements (--chunk-shape);
     * zeros: the process's block. */
    int64_t chunk[MODEL_MAX_DIMS];
};

/* One process's part of one phase: its box and where its bytes lie. */
struct app_geom {
    struct app_params a;
    int data_rank;        /* the process whose data is moved */
    struct model_box box; /* its box of the array */
    int64_t elems;        /* of the box */
    int64_t dset_bytes;   /* a variable in its file: the array, or the box (fpp) */
    int64_t rank_bytes;   /* the box's bytes */
    /* The box's bytes from its variable's first byte as one run (chunked,
     * fpp, and a 1D box), or -1: runs of the shared array in C order. */
    int64_t run_disp;
    /* Variable v from byte file_shift + v*var_stride of a flat file, its
     * data (all processes') ending var_end bytes after that. */
    int64_t file_shift, var_stride, var_end;
    struct model_storage storage; /* the shared array in C order */
    bool c_order; /* a flat file holds the array in C order from each variable's base */
};

/* Checks the parameters of the block decomposition (grid dividing the
 * array, sizes within 64 bits). */
enum pattern_violation app_check_block(const struct app_params *a);

/* The geometry of data_rank's box b (any size, empty too) of the array a
 * (checked). */
void app_place(struct app_geom *g, const struct app_params *a, int data_rank,
               const struct model_box *b);

/* The first byte of variable v in a flat file; the end of a file of
 * nvars variables. */
int64_t app_var_base(const struct app_geom *g, int v);
int64_t app_file_end(const struct app_geom *g, int nvars);

/* The calls that move a box of rank_bytes with --transfer-size xfer bytes
 * (0: one): at least 1. */
int64_t app_calls(int64_t rank_bytes, int elem, int64_t xfer);

/* The state app plans keep (plan.state): the write and read phases'
 * geometries, and what the plan functions need besides. */
struct app_state {
    struct app_geom geom[2]; /* phase 0 writes, phase 1 reads */
    int64_t nsteps[2];       /* calls per variable and phase, the same on every process */
    int64_t xfer_elems;      /* elements per call (0: the whole box) */
    bool view_any[2];        /* some process's box is several runs of the shared array */
    int iteration;
    /* The name of variable v (the pattern's), into buf. */
    void (*name)(const struct app_state *st, int v, char *buf, size_t len);
    enum plan_kind (*kind)(int v);
};

/* Fills the generic part of a plan of an application pattern: ops, files,
 * phases, buffer, from st (stored in the plan's state). */
void app_plan(struct plan *p, const struct app_state *st, int nprocs, int rank, int nfiles);

/* The run's flat size and largest call, for measures: nsteps' bytes. */
int64_t app_step_bytes(const struct app_state *st, int phase);

#endif
