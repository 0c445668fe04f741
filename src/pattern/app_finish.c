/* What the application patterns (block, particles, map, madbench) refuse
 * and default alike after parsing (app_finish.h). Pure. */
#include "pattern/app_finish.h"

#include <stdio.h>

#include "cli/cli.h"
#include "pattern/pattern.h"

int app_finish_shared_fpp(struct config *cfg, const char *why, struct cli_msg *msg)
{
    if (!cfg->nlayouts) {
        cfg->nlayouts = 2;
        cfg->layouts[0] = LAYOUT_SHARED;
        cfg->layouts[1] = LAYOUT_FPP;
    }
    for (int l = 0; l < cfg->nlayouts; l++)
        if (cfg->layouts[l] == LAYOUT_CHUNKED)
            return cli_fail(msg, "h5perf: %s '%s': %s", cfg->spelled[OPT_LAYOUT],
                            cfg->raw[OPT_LAYOUT], why);
    if (cfg->read_only && (cfg->nlayouts != 1 || cfg->layouts[0] != LAYOUT_SHARED))
        return cli_fail(msg,
                        "h5perf: %s: reads a kept shared file (the fpp layout's files follow "
                        "the writer's processes); give --layout shared",
                        cfg->spelled[OPT_READ_ONLY]);
    return 0;
}

int app_finish_transfer(const struct config *cfg, int elem, struct cli_msg *msg)
{
    if (!cfg->spelled[OPT_TRANSFER_SIZE] || cfg->transfer_size >= elem)
        return 0;
    return cli_fail(msg,
                    "h5perf: %s '%s': below one %d-byte element, the least a call moves; give at "
                    "least %d",
                    cfg->spelled[OPT_TRANSFER_SIZE], cfg->raw[OPT_TRANSFER_SIZE], elem, elem);
}

int64_t app_call_bytes(const struct config *cfg, int64_t rank_bytes, int elem)
{
    int64_t per = cfg->transfer_size / elem * elem;
    return per > 0 && per < rank_bytes ? per : rank_bytes;
}

int app_finish_debug(const struct config *cfg, struct cli_msg *msg)
{
    if (cfg->debug_level || cfg->debug_raw || cfg->debug_times)
        return cli_fail(msg, "h5perf: %s '%s': with %s %s only v (verify the data read) applies",
                        cfg->spelled[OPT_DEBUG], cfg->raw[OPT_DEBUG], cfg->spelled[OPT_PATTERN],
                        pattern_of(cfg)->key);
    return 0;
}

int app_finish_common(const struct config *cfg, struct cli_msg *msg)
{
    if (cfg->nvar_counts > 0)
        return cli_fail(msg,
                        "h5perf: %s '%s': a list of counts (one per decomposition) applies to "
                        "--pattern map; give one count",
                        cfg->spelled[OPT_VARS], cfg->raw[OPT_VARS]);
    return app_finish_debug(cfg, msg);
}

/* The APIs whose files hold exactly their data (API_CAP_FLAT_FILE), by
 * their error names: "POSIX and MPI-IO". Their bits in *bits. */
static void app_flat_apis(char *buf, size_t len, unsigned *bits)
{
    int n = 0, count = 0;
    *bits = 0;
    for (int a = 0; a < API_COUNT; a++)
        if (api_desc(a)->caps & API_CAP_FLAT_FILE) {
            *bits |= API_BIT(a);
            count++;
        }
    buf[0] = '\0';
    for (int a = 0, i = 0; a < API_COUNT; a++)
        if (*bits & API_BIT(a))
            n += snprintf(buf + n, len - (size_t)n, "%s%s",
                          i++ == 0     ? ""
                          : i == count ? " and "
                                       : ", ",
                          api_desc(a)->err_name);
}

/* --align-data and --shift place the data of the flat files (POSIX and
 * MPI-IO: API_CAP_FLAT_FILE) of the shared and chunked layouts: refused
 * where the run has none. */
int app_finish_places(const struct config *cfg, struct cli_msg *msg)
{
    int id = cfg->spelled[OPT_ALIGN_DATA] ? OPT_ALIGN_DATA : OPT_SHIFT;
    if (!cfg->spelled[id])
        return 0;
    char names[64];
    unsigned flat_bits;
    app_flat_apis(names, sizeof names, &flat_bits);
    bool flat = cfg->apis == 0 || (cfg->apis & flat_bits);
    bool shared = false;
    for (int l = 0; l < cfg->nlayouts; l++)
        shared |= cfg->layouts[l] != LAYOUT_FPP;
    if (!flat)
        return cli_fail(msg,
                        "h5perf: %s: places the data of %s files, and %s '%s' "
                        "selects neither (%s)",
                        cfg->spelled[id], names, cfg->spelled[OPT_API], cfg->raw[OPT_API],
                        cfg->apis & API_BIT(API_PHDF5)
                            ? cfg->apis & API_BIT(API_PNETCDF)
                                  ? "HDF5's alignment is -a and -T, PnetCDF's -a"
                                  : "HDF5's alignment is -a and -T"
                            : "PnetCDF's alignment is -a");
    if (!shared)
        return cli_fail(msg,
                        "h5perf: %s: places the data of a shared file, and %s '%s' has none "
                        "(each file per process starts at 0)",
                        cfg->spelled[id], cfg->spelled[OPT_LAYOUT], cfg->raw[OPT_LAYOUT]);
    if (cfg->read_only && (cfg->nalign > 1 || cfg->nshift > 1))
        return cli_fail(msg,
                        "h5perf: %s '%s': %s reads one kept file, placed one way; give one "
                        "value",
                        cfg->spelled[cfg->nalign > 1 ? OPT_ALIGN_DATA : OPT_SHIFT],
                        cfg->raw[cfg->nalign > 1 ? OPT_ALIGN_DATA : OPT_SHIFT],
                        cfg->spelled[OPT_READ_ONLY]);
    return 0;
}
