/* The block pattern's own rows of the option table (cli/option.h): the
 * array, its process grids and its elements, and how the results echo
 * them; with the rows it shares with the particles pattern, its list.
 * Pure. */
#include <stdio.h>

#include "cli/dims.h"
#include "pattern/app_finish.h"
#include "pattern/block.h"
#include "report/jsonw.h"

static void block_json_global(struct jsonw *w, const struct config *c, const struct opt_row *r)
{
    jsonw_key_ints(w, r->json_key, c->ndims, c->global);
}

static void block_json_grid(struct jsonw *w, const struct config *c, const struct opt_row *r)
{
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

const struct opt_row *const block_rows[] = {
    &block_global,   &block_grid,         &app_elem_row,  &block_read_grid,       &app_vars_row,
    &app_layout_row, &app_align_data_row, &app_shift_row, &app_transfer_size_row, NULL,
};
