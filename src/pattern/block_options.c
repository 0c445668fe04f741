/* The block pattern's own rows of the option table (cli/option.h): the
 * array, its process grids and its elements, and how the results echo
 * them; with the rows it shares with the particles pattern, its list.
 * Pure. */
#include <stdio.h>

#include "cli/dims.h"
#include "pattern/app_finish.h"
#include "pattern/block.h"
#include "base/jsonw.h"

static void block_json_global(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_ints(w, r->json_key, c->ndims, c->global);
}

static void block_json_grid(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_grid(w, r->json_key, c->ndims, r->id == OPT_GRID ? c->grid : c->read_grid);
}

static const struct opt_row block_global =
    OPT_OTHER(OPT_GLOBAL, NULL, "--global", "DIMS", "the array's dimensions", dims_option,
              .help = "the array, 1 to 3 dimensions in elements,\n"
                      "slowest first: 1024, 512x512, 256x256x256",
              .json_key = "global", .json = block_json_global);
static const struct opt_row block_grid = OPT_OTHER(
    OPT_GRID, NULL, "--grid", "DIMS", "the process grid", dims_option,
    .help = "the process grid, as many dimensions as\n"
            "--global; it fixes the process count",
    .dflt = "[MPI_Dims_create at each process count]", .json_key = "grid", .json = block_json_grid);
static const struct opt_row block_read_grid =
    OPT_OTHER(OPT_READ_GRID, NULL, "--read-grid", "DIMS", "the process grid", dims_option,
              .help = "read the shared file back with this grid, of\n"
                      "as many processes as --grid",
              .dflt = "[--grid]", .json_key = "read_grid", .json = block_json_grid);

/* --chunk-shape: 1 to 3 extents; block_finish() checks them against
 * --global. */
static int block_chunk_option(void *dest, const struct opt_row *row, const char *spelled,
                              const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    int64_t d[MODEL_MAX_DIMS];
    int n = dims_scan(value, INT64_MAX, d);
    if (n < 0)
        return cli_fail(msg,
                        "h5perf: %s '%s': expected 1 to 3 whole numbers of elements separated by "
                        "x, e.g. 64x64x1",
                        spelled, value);
    for (int i = 0; i < MODEL_MAX_DIMS; i++)
        cfg->chunk_shape[i] = i < n ? d[i] : 0;
    return 0;
}

static void block_json_chunk(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    int n = 0;
    while (n < MODEL_MAX_DIMS && c->chunk_shape[n] > 0)
        n++;
    if (n) {
        jsonw_key_ints(w, r->json_key, n, c->chunk_shape);
        return;
    }
    jsonw_key(w, r->json_key);
    jsonw_null(w);
}

static const struct opt_row block_chunk_shape =
    OPT_OTHER(OPT_CHUNK_SHAPE, NULL, "--chunk-shape", "DIMS", "a chunk shape", block_chunk_option,
              .help = "the chunk of the chunked layout's HDF5\n"
                      "datasets in elements, as many dimensions as\n"
                      "--global, each from 1 to its extent",
              .dflt = "[each process's block]", .apis = API_BIT(API_PHDF5),
              .json_key = "chunk_shape", .json = block_json_chunk);

const struct opt_row *const block_rows[] = {
    &block_global,       &block_grid,    &app_elem_row,
    &block_read_grid,    &app_vars_row,  &app_layout_row,
    &app_align_data_row, &app_shift_row, &app_transfer_size_row,
    &block_chunk_shape,  NULL,
};
