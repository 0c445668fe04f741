/* The block pattern's rows of the option table (cli/option.h): the array,
 * its process grids and its chunks, each one option of its own settings
 * (block_options.h), and how the results echo them; with the rows it
 * shares with the particles pattern, its list. Pure. */
#include <stdbool.h>
#include <stdio.h>

#include "cli/dims.h"
#include "pattern/app_options.h"
#include "pattern/block.h"
#include "pattern/block_options.h"
#include "base/jsonw.h"

_Static_assert(sizeof(struct block_settings) <= PATTERN_SETTINGS_BYTES,
               "cli/config.h: PATTERN_SETTINGS_BYTES");

const struct pattern_settings *block_own(const struct config *c)
{
    return pattern_settings_of(c, &pattern_block);
}

const struct block_settings *block_of(const struct config *c)
{
    return block_settings_of(block_own(c));
}

const char *block_spelled(const struct config *c, const struct opt_row *row)
{
    return pattern_row_spelled(block_own(c), &pattern_block, row);
}

const char *block_raw(const struct config *c, const struct opt_row *row)
{
    return pattern_row_raw(block_own(c), &pattern_block, row);
}

/* --global (elements), --grid and --read-grid (processes). */
static int block_dims_option(void *dest, const struct opt_row *row, const char *spelled,
                             const char *value, struct cli_msg *msg)
{
    struct block_settings *s = dest;
    int64_t d[MODEL_MAX_DIMS];
    bool global = row == &block_global_row;
    int n = dims_scan(value, global ? INT64_MAX : 2147483647, d);
    if (n < 0)
        return cli_fail(msg,
                        "h5perf: %s '%s': expected 1 to 3 whole numbers of %s separated by x, "
                        "e.g. %s",
                        spelled, value, global ? "elements" : "processes",
                        global ? "512x512x512" : "4x4x4");
    int *grid = row == &block_grid_row ? s->grid : s->read_grid;
    for (int i = 0; i < MODEL_MAX_DIMS; i++) {
        if (global)
            s->global[i] = i < n ? d[i] : 0;
        else
            grid[i] = i < n ? (int)d[i] : 0;
    }
    if (global)
        s->ndims = n;
    return 0;
}

static void block_json_global(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct block_settings *s = src;
    jsonw_key_ints(w, r->json_key, s->ndims, s->global);
}

static void block_json_grid(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct block_settings *s = src;
    jsonw_key_grid(w, r->json_key, s->ndims, r == &block_grid_row ? s->grid : s->read_grid);
}

const struct opt_row block_global_row =
    OPT_PATTERN_OTHER("--global", "DIMS", "the array's dimensions", block_dims_option,
                      .help = "the array, 1 to 3 dimensions in elements,\n"
                              "slowest first: 1024, 512x512, 256x256x256",
                      .json_key = "global", .json = block_json_global);
const struct opt_row block_grid_row = OPT_PATTERN_OTHER(
    "--grid", "DIMS", "the process grid", block_dims_option,
    .help = "the process grid, as many dimensions as\n"
            "--global; it fixes the process count",
    .dflt = "[MPI_Dims_create at each process count]", .json_key = "grid", .json = block_json_grid);
const struct opt_row block_read_grid_row =
    OPT_PATTERN_OTHER("--read-grid", "DIMS", "the process grid", block_dims_option,
                      .help = "read the shared file back with this grid, of\n"
                              "as many processes as --grid",
                      .dflt = "[--grid]", .json_key = "read_grid", .json = block_json_grid);

/* --chunk-shape: 1 to 3 extents; block_finish() checks them against
 * --global. */
static int block_chunk_option(void *dest, const struct opt_row *row, const char *spelled,
                              const char *value, struct cli_msg *msg)
{
    struct block_settings *s = dest;
    (void)row;
    int64_t d[MODEL_MAX_DIMS];
    int n = dims_scan(value, INT64_MAX, d);
    if (n < 0)
        return cli_fail(msg,
                        "h5perf: %s '%s': expected 1 to 3 whole numbers of elements separated by "
                        "x, e.g. 64x64x1",
                        spelled, value);
    for (int i = 0; i < MODEL_MAX_DIMS; i++)
        s->chunk_shape[i] = i < n ? d[i] : 0;
    return 0;
}

static void block_json_chunk(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct block_settings *s = src;
    int n = 0;
    while (n < MODEL_MAX_DIMS && s->chunk_shape[n] > 0)
        n++;
    if (n) {
        jsonw_key_ints(w, r->json_key, n, s->chunk_shape);
        return;
    }
    jsonw_key(w, r->json_key);
    jsonw_null(w);
}

const struct opt_row block_chunk_shape_row =
    OPT_PATTERN_OTHER("--chunk-shape", "DIMS", "a chunk shape", block_chunk_option,
                      .help = "the chunk of the chunked layout's HDF5\n"
                              "datasets in elements, as many dimensions as\n"
                              "--global, each from 1 to its extent",
                      .dflt = "[each process's block]", .apis = API_BIT(API_PHDF5),
                      .json_key = "chunk_shape", .json = block_json_chunk);

const struct opt_row *const block_rows[] = {
    &block_global_row,
    &block_grid_row,
    &app_elem_row,
    &block_read_grid_row,
    &app_vars_row,
    &app_layout_row,
    &app_align_data_row,
    &app_shift_row,
    &app_transfer_size_row,
    &block_chunk_shape_row,
    NULL,
};
