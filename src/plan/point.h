/* A run point: the coordinates of one measurement of the sweep (a process
 * count, an API, and what the pattern varies: the guide's transfer size, an
 * application pattern's layout and placement), and the table of layouts.
 * Plain data, shared by the patterns, the session, the engine and the
 * writers. Pure. */
#ifndef H5PERF_POINT_H
#define H5PERF_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "plan/model.h"

/* How a pattern's logical files are stored (docs/block.md): one shared file
 * of the array in its logical order; one shared file of the processes'
 * blocks, each a chunk; or a file per process. */
enum plan_layout { LAYOUT_SHARED = 0, LAYOUT_CHUNKED, LAYOUT_FPP, LAYOUT_COUNT };

struct layout_desc {
    const char *name;  /* --layout's word, the report's and the results' */
    const char *gloss; /* after the name in --layout's help */
    bool per_process;  /* each process has a file of its own */
};

/* The layout l (0 <= l < LAYOUT_COUNT), or NULL. */
const struct layout_desc *layout_desc(int l);

/* The layout whose name is [s, s+len), any case; -1 if none. */
int layout_find(const char *s, size_t len);

/* "shared", "chunked", "fpp"; "unknown" for anything else. */
const char *layout_name(int l);

struct run_point {
    int nprocs;
    enum api_id api;
    /* The API's variant (api/api.h: HDF5's driver, its multi-dataset
     * calls); 0: its default. The session adds it to the pattern's points. */
    int variant;
    int64_t xfer;         /* the guide's transfer size; 0 where the pattern has none */
    int layout;           /* enum plan_layout; -1 where the pattern has none */
    int64_t align, shift; /* placement in flat shared files (0, 0: packed) */
    /* The process grid of a pattern that decomposes over one (MPI_Dims_create's
     * or the user's), as many dimensions as its array; zeros otherwise. */
    int grid[MODEL_MAX_DIMS];
    /* The pattern's input from outside the command line (a map file),
     * as its adopt() made it (pattern/pattern.h); NULL for none. */
    const void *input;
    /* --buffer-offset: bytes past a page boundary where this point's
     * transfer buffers start (0: page-aligned). */
    int64_t buf_offset;
};

#endif
