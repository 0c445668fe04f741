/* The rows of the option table (cli/option.h) that the application
 * patterns share: their variables, layouts, placement of flat shared files
 * and the transfer size of their calls; and how the results echo them.
 * Pure. */
#include "pattern/app_finish.h"

#include "cli/dims.h"
#include "cli/places.h"
#include "report/jsonw.h"

static void app_json_layouts(struct jsonw *w, const struct config *c, const struct opt_row *r)
{
    jsonw_key(w, r->json_key);
    jsonw_array(w);
    for (int l = 0; l < c->nlayouts; l++)
        jsonw_string(w, layout_name(c->layouts[l]));
    jsonw_end(w);
}

static void app_json_align(struct jsonw *w, const struct config *c, const struct opt_row *r)
{
    jsonw_key_ints(w, r->json_key, c->nalign, c->align_data);
}

static void app_json_shift(struct jsonw *w, const struct config *c, const struct opt_row *r)
{
    jsonw_key_ints(w, r->json_key, c->nshift, c->shifts);
}

/* Only when given: files of runs without it stay as they were. */
static void app_json_transfer(struct jsonw *w, const struct config *c, const struct opt_row *r)
{
    if (c->transfer_size > 0)
        jsonw_key_int(w, r->json_key, c->transfer_size);
}

const struct opt_row app_vars_row =
    OPT_COUNT(OPT_VARS, NULL, "--vars", nvars,
              .help = "variables per file: --pattern block's arrays\n"
                      "[1], --pattern particles' first N of its 8",
              .json_key = "vars");
const struct opt_row app_layout_row = OPT_OTHER(
    OPT_LAYOUT, NULL, "--layout", "LIST", "a list of layouts", dims_option,
    .help = "comma-separated: shared (one array in C\n"
            "order), chunked (one array, each block a\n"
            "chunk, stored block after block; --pattern\n"
            "block only), fpp (a file per process)",
    .dflt = "[every layout the pattern stores]", .json_key = "layouts", .json = app_json_layouts);
const struct opt_row app_align_data_row =
    OPT_OTHER(OPT_ALIGN_DATA, NULL, "--align-data", "LIST", "a list of sizes", places_option,
              .help = "sizes, each in turn: every variable, and each\n"
                      "process's particles (each block of the\n"
                      "chunked layout), from a multiple of it, in the\n"
                      "shared POSIX and MPI-IO files",
              .dflt = "[packed]", .pattern_hint = "the guide's HDF5 alignment is -a and -T",
              .json_key = "align_data", .json = app_json_align);
const struct opt_row app_shift_row =
    OPT_OTHER(OPT_SHIFT, NULL, "--shift", "LIST", "a list of sizes", places_option,
              .help = "bytes, each in turn, added to every offset of\n"
                      "those files (unaligned on purpose)",
              .dflt = "[0]", .pattern_hint = "the guide's HDF5 alignment is -a and -T",
              .json_key = "shift", .json = app_json_shift);
const struct opt_row app_transfer_size_row = OPT_SIZE(
    OPT_TRANSFER_SIZE, NULL, "--transfer-size", transfer_size,
    .help = "each call moves at most S bytes (whole\n"
            "elements) of a process's part of a variable,\n"
            "in its C order",
    .dflt = "[the whole part in one call]", .json_key = "transfer_size", .json = app_json_transfer);
