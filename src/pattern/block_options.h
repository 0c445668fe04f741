/* The block pattern's own options (docs/block.md): the array and its
 * process grids (--global, --grid, --read-grid) and the chunks of its
 * chunked layout (--chunk-shape), one field per own row of
 * block_options.c, which store them in the configuration's block
 * pattern_settings (cli/config.h), opaque to every file but the
 * pattern's, the advisor's words of a workload (the rows' spelling) and
 * the fidelity harness's limit program (bench/limit.c: the array).
 * The options it shares with the other application patterns (--vars,
 * --element-size, --layout, --transfer-size, --align-data, --shift)
 * stay the core's. Pure. */
#ifndef H5PERF_BLOCK_OPTIONS_H
#define H5PERF_BLOCK_OPTIONS_H

#include <stdint.h>

#include "cli/config.h"

/* The block pattern's own settings; zeros until given. */
struct block_settings {
    int ndims;                           /* --global's dimensions, 0 = not given */
    int64_t global[MODEL_MAX_DIMS];      /* --global, in elements */
    int grid[MODEL_MAX_DIMS];            /* --grid, zeros = MPI_Dims_create's */
    int read_grid[MODEL_MAX_DIMS];       /* --read-grid, zeros = the write grid */
    int64_t chunk_shape[MODEL_MAX_DIMS]; /* --chunk-shape, zeros = each process's block */
};

/* Its settings in s, its pattern_settings. */
static inline const struct block_settings *block_settings_of(const struct pattern_settings *s)
{
    return (const struct block_settings *)(const void *)s->own.bytes;
}

static inline struct block_settings *block_settings_edit(struct pattern_settings *s)
{
    return (struct block_settings *)(void *)s->own.bytes;
}

/* The block pattern's pattern_settings in c, and its settings there. */
const struct pattern_settings *block_own(const struct config *c);
const struct block_settings *block_of(const struct config *c);

/* The spelling and raw value of its own row as given in c (NULL: not). */
const char *block_spelled(const struct config *c, const struct opt_row *row);
const char *block_raw(const struct config *c, const struct opt_row *row);

/* Its own rows, which its refusals name and the advisor's command lines
 * spell (opt_word()). */
extern const struct opt_row block_global_row, block_grid_row, block_read_grid_row,
    block_chunk_shape_row;

#endif
