/* The map pattern's rows of the option table (cli/option.h): --map, of its
 * own settings (map_options.h), with the rows it shares with the block and
 * particles patterns; its defaults and refusals after parsing. Pure. */
#include <stdio.h>

#include "pattern/app_finish.h"
#include "pattern/app_options.h"
#include "pattern/map.h"
#include "base/jsonw.h"

_Static_assert(sizeof(struct map_settings) <= PATTERN_SETTINGS_BYTES,
               "cli/config.h: PATTERN_SETTINGS_BYTES");

const struct pattern_settings *map_own(const struct config *c)
{
    return pattern_settings_of(c, &pattern_map);
}

const struct map_settings *map_of(const struct config *c)
{
    return map_settings_of(map_own(c));
}

const char *map_file_spelled(const struct pattern_settings *s)
{
    return pattern_row_spelled(s, &pattern_map, &map_file_row);
}

const char *map_file_raw(const struct pattern_settings *s)
{
    return pattern_row_raw(s, &pattern_map, &map_file_row);
}

static int map_option(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                      struct cli_msg *msg)
{
    struct map_settings *s = dest;
    (void)row;
    if (value[0] == '\0')
        return cli_fail(msg, "h5perf: %s '': expected the name of a map file", spelled);
    s->file = value;
    return 0;
}

static void map_json_file(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct map_settings *s = src;
    jsonw_key_string(w, r->json_key, s->file);
}

const struct opt_row map_file_row =
    OPT_PATTERN_OTHER("--map", "FILE", "a file name", map_option,
                      .help = "the decompositions: an E3SM-IO map (netCDF\n"
                              "or HDF5 form) or a text map (docs/map.md),\n"
                              "read by process 0 before any data file exists",
                      .json_key = "map", .json = map_json_file);

const struct opt_row *const map_rows[] = {
    &map_file_row, &app_vars_row, &app_elem_row, &app_layout_row, &app_transfer_size_row, NULL,
};

int map_vars_of(const struct config *c, int k)
{
    if (c->nvar_counts == 0)
        return c->nvars;
    return k < c->nvar_counts ? c->var_counts[k] : 0;
}

int map_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg)
{
    (void)w;
    if (app_finish_debug(cfg, msg) < 0)
        return -1;
    if (!map_of(cfg)->file)
        return cli_fail(msg,
                        "h5perf: %s map: give the decompositions with --map FILE (an E3SM-IO "
                        "map, or a text map: docs/map.md)",
                        cfg->spelled[OPT_PATTERN]);
    if (!cfg->elem)
        cfg->elem = 8;
    if (app_finish_transfer(cfg, cfg->elem, msg) < 0)
        return -1;
    if (!cfg->nvars && !cfg->nvar_counts)
        cfg->nvars = 1;
    /* The map fixes the process count: the run is the one count started
     * (or -P), checked against the map once it is read. */
    if (!cfg->spelled[OPT_MIN_PROCS])
        cfg->min_procs = cfg->max_procs ? cfg->max_procs : world_size;
    return app_finish_shared_fpp(cfg,
                                 "the map pattern stores shared or fpp (its selections are "
                                 "not blocks, so no chunk fits every process)",
                                 msg);
}
