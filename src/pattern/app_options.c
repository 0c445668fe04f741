/* The rows of the option table (cli/option.h) that the application
 * patterns share: their variables, layouts, placement of flat shared files
 * and the transfer size of their calls; and how the results echo them.
 * Pure. */
#include "pattern/app_options.h"

#include <string.h>

#include "cli/dims.h"
#include "cli/option.h"
#include "cli/places.h"
#include "cli/size.h"
#include "base/jsonw.h"

static void app_json_layouts(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key(w, r->json_key);
    jsonw_array(w);
    for (int l = 0; l < c->nlayouts; l++)
        jsonw_string(w, layout_name(c->layouts[l]));
    jsonw_end(w);
}

static void app_json_align(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_ints(w, r->json_key, c->nalign, c->align_data);
}

static void app_json_shift(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_ints(w, r->json_key, c->nshift, c->shifts);
}

/* Only when given: files of runs without it stay as they were. */
static void app_json_transfer(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    if (c->transfer_size > 0)
        jsonw_key_int(w, r->json_key, c->transfer_size);
}

/* --vars: a whole number; with --pattern map also a list, one count per
 * decomposition (finish() refuses a list elsewhere). */
static int app_vars_option(void *dest, const struct opt_row *row, const char *spelled,
                           const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    if (!strchr(value, ',')) {
        if (size_scan_count(value, &cfg->nvars) == SIZE_OK)
            return 0;
        return cli_fail(msg, "h5perf: %s '%s': expected a whole number from 1 to 2147483647",
                        spelled, value);
    }
    int n = 0;
    for (const char *p = value; n <= CONFIG_MAX_VAR_COUNTS; n++) {
        size_t len = strcspn(p, ",");
        char word[16];
        int v = 0;
        bool ok = len > 0 && len < sizeof word;
        if (ok) {
            memcpy(word, p, len);
            word[len] = '\0';
            ok = strcmp(word, "0") == 0 || size_scan_count(word, &v) == SIZE_OK;
        }
        if (!ok || n == CONFIG_MAX_VAR_COUNTS)
            return cli_fail(msg,
                            "h5perf: %s '%s': expected a list of at most %d whole numbers from 0 "
                            "to 2147483647, one per decomposition of --pattern map's map",
                            spelled, value, CONFIG_MAX_VAR_COUNTS);
        cfg->var_counts[n] = v;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    cfg->nvar_counts = n + 1;
    cfg->nvars = 0;
    return 0;
}

static void app_json_vars(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    if (c->nvar_counts == 0) {
        jsonw_key_int(w, r->json_key, c->nvars);
        return;
    }
    jsonw_key(w, r->json_key);
    jsonw_array(w);
    for (int i = 0; i < c->nvar_counts; i++)
        jsonw_int(w, c->var_counts[i]);
    jsonw_end(w);
}

static void app_json_elem(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_int(w, r->json_key, c->elem);
}

/* 1, 2, 4 or 8 bytes. */
static int app_element_size(void *dest, const struct opt_row *row, const char *spelled,
                            const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    int *e = &cfg->elem;
    (void)row;
    if (size_scan_count(value, e) == SIZE_OK && (*e == 1 || *e == 2 || *e == 4 || *e == 8))
        return 0;
    return cli_fail(msg, "h5perf: %s '%s': expected 1, 2, 4 or 8 (bytes per element)", spelled,
                    value);
}

const struct opt_row app_vars_row =
    OPT_OTHER(OPT_VARS, NULL, "--vars", "N", "a whole number", app_vars_option,
              .help = "variables per file: --pattern block's arrays\n"
                      "[1], --pattern particles' first N of its 8,\n"
                      "--pattern map's per decomposition [1], or\n"
                      "N1,N2,... one count (0 up) per decomposition",
              .json_key = "vars", .json = app_json_vars);
const struct opt_row app_elem_row =
    OPT_OTHER(OPT_ELEMENT_SIZE, NULL, "--element-size", "N", "1, 2, 4 or 8", app_element_size,
              .help = "bytes per element: 1, 2, 4 or 8", .dflt = "[8]", .json_key = "element_size",
              .json = app_json_elem);
/* --layout's choices: the table of layouts, each with its gloss. */
static void app_layout_choices(char *buf, size_t len)
{
    buf[0] = '\0';
    for (int l = 0; l < LAYOUT_COUNT; l++)
        opt_list_add(buf, len, l, LAYOUT_COUNT, layout_desc(l)->name, layout_desc(l)->gloss, ", ");
}

const struct opt_row app_layout_row = OPT_OTHER(
    OPT_LAYOUT, NULL, "--layout", "LIST", "a list of layouts", dims_option,
    .help = "comma-separated:", .choices = app_layout_choices,
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
