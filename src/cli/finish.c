/* Defaults and adjustments after parsing (docs/original.md §1.6, as amended by
 * §0): harmless adjustments are applied and announced as warning lines,
 * mistakes are refused with one message line. Pure: nothing is printed here
 * and the divisibility of the sweep is left to config_validate(). */
#include <stdarg.h>
#include <stdio.h>

#include <string.h>

#include "cli/cli.h"
#include "cli/sweep.h"
#include "report/text.h"

#define FINISH_BYTES_1D  INT64_C(262144) /* 256K */
#define FINISH_BYTES_2D  INT64_C(8192)   /* 8K */
#define FINISH_MAX_DEBUG 4
#define FINISH_WATCHDOG  120 /* seconds */

/* How the user spelled an option, or its short form when it was not given. */
static const char *fin_name(const struct config *cfg, enum opt_id id, const char *short_name)
{
    return cfg->spelled[id] != NULL ? cfg->spelled[id] : short_name;
}

static const char *fin_raw(const struct config *cfg, enum opt_id id)
{
    return cfg->raw[id] != NULL ? cfg->raw[id] : "";
}

/* Appends "h5perf: warning: <text>"; more than CLI_MAX_WARNINGS are dropped
 * (there are far fewer kinds of warning than that). */
static void fin_warn(struct cli_warnings *w, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (w->count >= CLI_MAX_WARNINGS)
        return;
    n = snprintf(w->line[w->count], sizeof w->line[0], "h5perf: warning: ");
    va_start(ap, fmt);
    vsnprintf(w->line[w->count] + n, sizeof w->line[0] - (size_t)n, fmt, ap);
    va_end(ap);
    cli_one_line(w->line[w->count]);
    w->count++;
}

/* The options that default to 1 and the API set. */
static void fin_simple(struct config *cfg)
{
    if (cfg->align == 0)
        cfg->align = 1;
    if (cfg->threshold == 0)
        cfg->threshold = 1;
    if (cfg->num_dsets == 0)
        cfg->num_dsets = 1;
    if (cfg->num_files == 0)
        cfg->num_files = 1;
    if (cfg->iterations == 0)
        cfg->iterations = 1;
    if (cfg->watchdog == 0)
        cfg->watchdog = FINISH_WATCHDOG;
    if (cfg->min_procs == 0)
        cfg->min_procs = 1;
    if (cfg->apis == 0)
        cfg->apis = API_DEFAULT_SET;
}

/* -e and what defaults to a fraction of it: -X = e, -x = B = e/2, which is
 * 0 for e == 1 and then has to be given explicitly. */
static int fin_bytes(struct config *cfg, struct cli_msg *msg)
{
    int64_t half;
    const char *which;

    if (cfg->bytes == 0)
        cfg->bytes = cfg->geometry_2d ? FINISH_BYTES_2D : FINISH_BYTES_1D;
    half = cfg->bytes / 2;
    if (cfg->xfer_max == 0)
        cfg->xfer_max = cfg->bytes;
    if (half == 0 && (cfg->xfer_min == 0 || cfg->block == 0)) {
        which = cfg->xfer_min != 0 ? "-B" : cfg->block != 0 ? "-x" : "-x and -B";
        return cli_fail(msg,
                        "h5perf: %s '%s': half of -e, the default of %s, is 0; "
                        "give %s explicitly",
                        fin_name(cfg, OPT_BYTES, "-e"), fin_raw(cfg, OPT_BYTES), which, which);
    }
    if (cfg->xfer_min == 0)
        cfg->xfer_min = half;
    if (cfg->block == 0)
        cfg->block = half;
    return 0;
}

/* One "<opt> '<raw>' is larger than the bytes per process (e)" warning. */
static void fin_clamp_to_bytes(struct config *cfg, enum opt_id id, const char *short_name,
                               int64_t *field, struct cli_warnings *w)
{
    char e_text[32];

    if (*field <= cfg->bytes)
        return;
    text_size(e_text, sizeof e_text, cfg->bytes);
    fin_warn(w, "%s '%s' is larger than the bytes per process (%s); using %s",
             fin_name(cfg, id, short_name), fin_raw(cfg, id), e_text, e_text);
    *field = cfg->bytes;
}

/* docs/original.md §1.6 steps 4-6: 1D transfer sizes at most e, -x at most -X,
 * B at most e. A default -x above a given -X is lowered silently: the user
 * asked for nothing that was not done. */
static void fin_xfer(struct config *cfg, struct cli_warnings *w)
{
    char x_text[32];

    if (!cfg->geometry_2d) {
        fin_clamp_to_bytes(cfg, OPT_MIN_XFER, "-x", &cfg->xfer_min, w);
        fin_clamp_to_bytes(cfg, OPT_MAX_XFER, "-X", &cfg->xfer_max, w);
    }
    if (cfg->xfer_min > cfg->xfer_max) {
        text_size(x_text, sizeof x_text, cfg->xfer_max);
        if (cfg->spelled[OPT_MIN_XFER] != NULL && cfg->spelled[OPT_MAX_XFER] != NULL)
            fin_warn(w, "%s '%s' is larger than %s '%s'; using %s", cfg->spelled[OPT_MIN_XFER],
                     fin_raw(cfg, OPT_MIN_XFER), cfg->spelled[OPT_MAX_XFER],
                     fin_raw(cfg, OPT_MAX_XFER), x_text);
        else if (cfg->spelled[OPT_MIN_XFER] != NULL)
            fin_warn(w, "%s '%s' is larger than the default -X (%s, equal to -e); using %s",
                     cfg->spelled[OPT_MIN_XFER], fin_raw(cfg, OPT_MIN_XFER), x_text, x_text);
        cfg->xfer_min = cfg->xfer_max;
    }
    fin_clamp_to_bytes(cfg, OPT_BLOCK, "-B", &cfg->block, w);
}

/* -P defaults to the processes started and may not exceed them; -p at
 * most -P. */
static int fin_procs(struct config *cfg, int world_size, struct cli_warnings *w,
                     struct cli_msg *msg)
{
    const char *max_name = fin_name(cfg, OPT_MAX_PROCS, "-P");

    if (cfg->max_procs == 0) {
        cfg->max_procs = world_size;
    } else if (cfg->max_procs > world_size) {
        return cli_fail(msg,
                        "h5perf: %s '%s': only %d process%s started; start at least %d "
                        "or lower %s",
                        max_name, fin_raw(cfg, OPT_MAX_PROCS), world_size,
                        world_size == 1 ? " was" : "es were", cfg->max_procs, max_name);
    }
    if (cfg->min_procs > cfg->max_procs) {
        if (cfg->spelled[OPT_MAX_PROCS] != NULL)
            fin_warn(w, "%s '%s' is larger than %s '%s'; using %d",
                     fin_name(cfg, OPT_MIN_PROCS, "-p"), fin_raw(cfg, OPT_MIN_PROCS), max_name,
                     fin_raw(cfg, OPT_MAX_PROCS), cfg->max_procs);
        else
            fin_warn(w, "%s '%s' is larger than the number of processes started (%d); using %d",
                     fin_name(cfg, OPT_MIN_PROCS, "-p"), fin_raw(cfg, OPT_MIN_PROCS),
                     cfg->max_procs, cfg->max_procs);
        cfg->min_procs = cfg->max_procs;
    }
    return 0;
}

static void fin_debug(struct config *cfg, struct cli_warnings *w)
{
    if (cfg->debug_level <= FINISH_MAX_DEBUG)
        return;
    /* The level as typed: 99999999999999999999 is kept as 1000. */
    fin_warn(w, "%s: debug level %.*s is above the highest level (%d); using %d",
             fin_name(cfg, OPT_DEBUG, "-D"), cfg->debug_level_len, cfg->debug_level_text,
             FINISH_MAX_DEBUG, FINISH_MAX_DEBUG);
    cfg->debug_level = FINISH_MAX_DEBUG;
}

/* What --direct and --read-shift cannot do for part of the sweep: said, not
 * silently left undone. */
static void fin_caches(struct config *cfg, struct cli_warnings *w)
{
    if (cfg->direct && (cfg->apis & ~API_BIT(API_POSIX)))
        fin_warn(w, "%s applies to POSIX only: MPI-IO and HDF5 still go through the page cache",
                 cfg->spelled[OPT_DIRECT]);
    if (!cfg->read_shift)
        return;
    char list[128] = "";
    size_t n = 0;
    int count = 0;
    for (int p = sweep_procs_first(cfg); p != 0; p = sweep_procs_next(cfg, p))
        if (cfg->read_shift % p == 0 && n < sizeof list - 16) {
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%d", count ? ", " : "", p);
            count++;
        }
    if (count)
        fin_warn(w,
                 "%s '%s': with %s process%s each process reads its own data (the shift is a "
                 "multiple of the process count)",
                 cfg->spelled[OPT_READ_SHIFT], fin_raw(cfg, OPT_READ_SHIFT), list,
                 count == 1 && strcmp(list, "1") == 0 ? "" : "es");
}

/* Contradictions between options that cannot be adjusted. */
static int fin_conflicts(const struct config *cfg, struct cli_msg *msg)
{
    if (cfg->read_only && cfg->write_only)
        return cli_fail(msg,
                        "h5perf: %s: cannot be combined with %s (a read-only run reads "
                        "the files an earlier write-only run left)",
                        cfg->spelled[OPT_READ_ONLY], cfg->spelled[OPT_WRITE_ONLY]);
    if (cfg->read_only && cfg->overwrite)
        return cli_fail(msg,
                        "h5perf: %s: cannot be combined with %s (a read-only run writes "
                        "nothing)",
                        cfg->spelled[OPT_READ_ONLY], cfg->spelled[OPT_OVERWRITE]);
    if (cfg->read_shift && cfg->write_only)
        return cli_fail(msg, "h5perf: %s: cannot be combined with %s (there is no read phase)",
                        cfg->spelled[OPT_READ_SHIFT], cfg->spelled[OPT_WRITE_ONLY]);
    if (cfg->direct && cfg->apis != 0 && !(cfg->apis & API_BIT(API_POSIX)))
        return cli_fail(msg,
                        "h5perf: %s: applies to POSIX only, but %s '%s' does not select it "
                        "(for MPI-IO give your library's direct I/O hints in HDF5_MPI_INFO)",
                        cfg->spelled[OPT_DIRECT], cfg->spelled[OPT_API], cfg->raw[OPT_API]);
    if (cfg->overhead && cfg->format != FORMAT_TEXT)
        return cli_fail(msg,
                        "h5perf: %s: the overhead summary is part of the text report; it "
                        "cannot be combined with %s '%s' (the JSON and CSV results carry "
                        "every figure it is made of)",
                        cfg->spelled[OPT_OVERHEAD], cfg->spelled[OPT_FORMAT], cfg->raw[OPT_FORMAT]);
    /* apis is still 0 (all three) when -A was not given. */
    if (cfg->overhead && cfg->apis != 0 && (cfg->apis & (cfg->apis - 1)) == 0)
        return cli_fail(msg,
                        "h5perf: %s: compares the APIs with each other, but %s '%s' selects "
                        "only one",
                        cfg->spelled[OPT_OVERHEAD], cfg->spelled[OPT_API], cfg->raw[OPT_API]);
    if (cfg->overhead && cfg->apis != 0 && !(cfg->apis & API_BIT(API_MPIIO)))
        return cli_fail(msg,
                        "h5perf: %s: gives HDF5/MPI-IO%s and MPI-IO/POSIX ratios, but %s '%s' "
                        "does not select mpiio",
                        cfg->spelled[OPT_OVERHEAD],
                        cfg->apis & API_BIT(API_PNETCDF) ? ", PnetCDF/MPI-IO" : "",
                        cfg->spelled[OPT_API], cfg->raw[OPT_API]);
    return 0;
}

int config_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg)
{
    w->count = 0;
    msg->line[0] = '\0';
    if (config_finish_block(cfg, world_size, msg) != 0 || fin_conflicts(cfg, msg) != 0)
        return -1;
    fin_simple(cfg);
    if (cfg->pattern == PATTERN_GUIDE) {
        if (fin_bytes(cfg, msg) != 0)
            return -1;
        fin_xfer(cfg, w);
    }
    if (fin_procs(cfg, world_size, w, msg) != 0)
        return -1;
    fin_debug(cfg, w);
    fin_caches(cfg, w);
    return 0;
}
