/* Defaults and adjustments after parsing (docs/original.md §1.6, as amended by
 * §0): harmless adjustments are applied and announced as warning lines,
 * mistakes are refused with one message line. Pure: nothing is printed here
 * and the divisibility of the sweep is left to the pattern's validate(). */
#include <stdio.h>
#include <string.h>

#include "options/options.h"
#include "cli/measure_options.h"
#include "cli/sweep.h"
#include "pattern/pattern.h"

#define FINISH_MAX_DEBUG 4
#define FINISH_WATCHDOG  120 /* seconds */

/* The options that default to 1 and the API set. */
static void fin_simple(struct config *cfg)
{
    if (cfg->align == 0)
        cfg->align = 1;
    if (cfg->threshold == 0)
        cfg->threshold = 1;
    if (cfg->iterations == 0)
        cfg->iterations = 1;
    if (cfg->watchdog == 0)
        cfg->watchdog = FINISH_WATCHDOG;
    if (cfg->min_procs == 0)
        cfg->min_procs = 1;
    if (cfg->apis == 0)
        cfg->apis = API_DEFAULT_SET;
}

/* -P defaults to the processes started and may not exceed them; -p at
 * most -P. */
static int fin_procs(struct config *cfg, int world_size, struct cli_warnings *w,
                     struct cli_msg *msg)
{
    const char *max_name = cli_name(cfg, OPT_MAX_PROCS, "-P");

    if (cfg->max_procs == 0) {
        cfg->max_procs = world_size;
    } else if (cfg->max_procs > world_size) {
        return cli_fail(msg,
                        "h5perf: %s '%s': only %d process%s started; start at least %d "
                        "or lower %s",
                        max_name, cli_raw(cfg, OPT_MAX_PROCS), world_size,
                        world_size == 1 ? " was" : "es were", cfg->max_procs, max_name);
    }
    if (cfg->min_procs > cfg->max_procs) {
        if (cfg->spelled[OPT_MAX_PROCS] != NULL)
            cli_warn(w, "%s '%s' is larger than %s '%s'; using %d",
                     cli_name(cfg, OPT_MIN_PROCS, "-p"), cli_raw(cfg, OPT_MIN_PROCS), max_name,
                     cli_raw(cfg, OPT_MAX_PROCS), cfg->max_procs);
        else
            cli_warn(w, "%s '%s' is larger than the number of processes started (%d); using %d",
                     cli_name(cfg, OPT_MIN_PROCS, "-p"), cli_raw(cfg, OPT_MIN_PROCS),
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
    cli_warn(w, "%s: debug level %.*s is above the highest level (%d); using %d",
             cli_name(cfg, OPT_DEBUG, "-D"), cfg->debug_level_len, cfg->debug_level_text,
             FINISH_MAX_DEBUG, FINISH_MAX_DEBUG);
    cfg->debug_level = FINISH_MAX_DEBUG;
}

/* What --direct and --read-shift cannot do for part of the sweep: said, not
 * silently left undone. */
static void fin_caches(struct config *cfg, struct cli_warnings *w)
{
    if (cfg->direct && (cfg->apis & ~API_BIT(API_POSIX)))
        cli_warn(w, "%s applies to POSIX only: MPI-IO and HDF5 still go through the page cache",
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
        cli_warn(w,
                 "%s '%s': with %s process%s each process reads its own data (the shift is a "
                 "multiple of the process count)",
                 cfg->spelled[OPT_READ_SHIFT], cli_raw(cfg, OPT_READ_SHIFT), list,
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
    int ref = api_reference();
    if (cfg->overhead && cfg->apis != 0 && ref >= 0 && !(cfg->apis & API_BIT(ref))) {
        /* The ratios it gives, each API over the one it is layered over. */
        int up[API_COUNT], n = api_ratios(cfg->apis, false, up);
        char ratios[256] = "";
        size_t used = 0;
        for (int i = 0; i < n && used < sizeof ratios; i++) {
            const struct api_desc *a = api_desc((enum api_id)up[i]);
            used += (size_t)snprintf(ratios + used, sizeof ratios - used, "%s%s/%s",
                                     i == 0       ? ""
                                     : i + 1 == n ? " and "
                                                  : ", ",
                                     a->err_name, api_desc((enum api_id)a->over)->err_name);
        }
        return cli_fail(msg, "h5perf: %s: gives %s ratios, but %s '%s' does not select %s",
                        cfg->spelled[OPT_OVERHEAD], ratios, cfg->spelled[OPT_API],
                        cfg->raw[OPT_API], api_desc((enum api_id)ref)->key);
    }
    return 0;
}

/* Does pattern p take row? */
static bool fin_takes(const struct pattern_desc *p, const struct opt_row *row)
{
    for (int i = 0; p->rows[i]; i++)
        if (p->rows[i] == row)
            return true;
    return false;
}

/* The patterns that take row: "--pattern block or particles", "the
 * guide's patterns". */
static void fin_takers(const struct opt_row *row, char *buf, size_t len)
{
    size_t used = 0;
    int n = 0, total = 0;
    for (int i = 0; i < pattern_count; i++)
        total += fin_takes(pattern_table[i], row);
    buf[0] = '\0';
    for (int i = 0; i < pattern_count && used < len; i++) {
        const struct pattern_desc *p = pattern_table[i];
        if (!fin_takes(p, row))
            continue;
        const char *sep = n == 0 ? "" : n + 1 == total ? " or " : ", ";
        if (i == 0)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, p->title);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%s%s", sep,
                                     n == 0 ? "--pattern " : "", p->key);
        n++;
    }
}

/* An option the chosen pattern does not take: refused, naming the
 * patterns that take it (docs/design.md, "Options"); the default pattern
 * adds the row's hint. */
static int fin_pattern_rows(const struct config *cfg, struct cli_msg *msg)
{
    const struct pattern_desc *chosen = pattern_of(cfg);
    const struct opt_row *row;
    for (int i = 0; (row = opt_row_at(i)); i++) {
        const char *spelled = opt_spelled(cfg, row);
        if (opt_api_owner(row) >= 0 || !spelled || opt_is_core(row) || fin_takes(chosen, row))
            continue;
        char takers[160], not_to[96] = "", hint[160] = "";
        fin_takers(row, takers, sizeof takers);
        if (cfg->pattern != 0)
            snprintf(not_to, sizeof not_to, ", not to %s %s", cfg->spelled[OPT_PATTERN],
                     chosen->key);
        else if (row->pattern_hint)
            snprintf(hint, sizeof hint, " (%s)", row->pattern_hint);
        return cli_fail(msg, "h5perf: %s: applies to %s%s%s", spelled, takers, not_to, hint);
    }
    return 0;
}

/* An option of APIs that -A does not select: refused, naming them.
 * Without -A the default APIs run, which leave PnetCDF out
 * (docs/pnetcdf.md, "Only when asked"): its own options are refused. */
static int fin_api_rows(const struct config *cfg, struct cli_msg *msg)
{
    const struct opt_row *row;
    unsigned apis = cfg->apis ? cfg->apis : API_DEFAULT_SET;
    for (int i = 0; (row = opt_row_at(i)); i++) {
        const char *spelled = opt_spelled(cfg, row);
        if (!spelled || !row->apis || (apis & row->apis))
            continue;
        char names[96] = "";
        size_t used = 0;
        int n = 0, total = 0;
        for (int a = 0; a < API_COUNT; a++)
            total += (row->apis & API_BIT(a)) != 0;
        for (int a = 0; a < API_COUNT && used < sizeof names; a++) {
            if (!(row->apis & API_BIT(a)))
                continue;
            const char *sep = n == 0 ? "" : n + 1 == total ? " or " : ", ";
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", sep,
                                     api_desc((enum api_id)a)->err_name);
            n++;
        }
        if (!cfg->apis)
            return cli_fail(msg, "h5perf: %s: applies to %s only, which runs only when -A names it",
                            spelled, names);
        return cli_fail(msg, "h5perf: %s: applies to %s only, but %s '%s' does not select it%s%s%s",
                        spelled, names, cfg->spelled[OPT_API], cfg->raw[OPT_API],
                        row->apis_hint ? " (" : "", row->apis_hint ? row->apis_hint : "",
                        row->apis_hint ? ")" : "");
    }
    return 0;
}

/* A deadline stops the variables one at a time (docs/measuring.md): a
 * variant of api that moves them together (api_variant.joins_vars) is
 * refused with --stonewall, naming the row that chose it. */
static int fin_api_stonewall(const struct config *cfg, enum api_id api, struct cli_msg *msg)
{
    const struct api_opts *o = api_desc(api)->opts;
    unsigned chosen = api_variants(cfg->api, api);
    if (cfg->stonewall <= 0)
        return 0;
    for (int v = 0; v < o->nvariants; v++)
        if ((chosen >> v & 1u) && o->variants[v].joins_vars)
            return cli_fail(msg,
                            "h5perf: %s: cannot be combined with %s (the deadline stops variables "
                            "one at a time; %s)",
                            opt_spelled(cfg, o->joins_row), cfg->spelled[OPT_STONEWALL],
                            o->joins_how);
    return 0;
}

/* How each selected API's own options combine (api_opts.finish), with
 * the core's options they weigh, and with --stonewall. */
static int fin_api_opts(const struct config *cfg, struct cli_msg *msg)
{
    const struct api_core core = {cfg->collective, cfg->read_only, cfg->spelled[OPT_COLLECTIVE],
                                  cfg->spelled[OPT_READ_ONLY]};
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_opts *o = api_desc((enum api_id)a)->opts;
        if (!o || (cfg->apis && !(cfg->apis & API_BIT(a))))
            continue;
        if ((o->finish && o->finish(&cfg->api[a], &core, msg) != 0) ||
            fin_api_stonewall(cfg, (enum api_id)a, msg) != 0)
            return -1;
    }
    return 0;
}

int config_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg)
{
    w->count = 0;
    msg->line[0] = '\0';
    if (fin_pattern_rows(cfg, msg) != 0 || fin_api_rows(cfg, msg) != 0 ||
        fin_conflicts(cfg, msg) != 0 || fin_api_opts(cfg, msg) != 0)
        return -1;
    fin_simple(cfg);
    if (measure_finish(cfg, msg) != 0)
        return -1;
    if (pattern_of(cfg)->finish(cfg, world_size, w, msg) != 0 ||
        fin_procs(cfg, world_size, w, msg) != 0)
        return -1;
    fin_debug(cfg, w);
    fin_caches(cfg, w);
    return 0;
}
