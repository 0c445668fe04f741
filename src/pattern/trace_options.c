/* The trace pattern's rows of the option table (cli/option.h): --trace,
 * --trace-gaps, --trace-gather and --trace-align, of its own settings
 * (trace_options.h), and the --layout it shares; its defaults and
 * refusals after parsing (docs/trace.md, "The trace pattern"). Pure. */
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "pattern/app_finish.h"
#include "pattern/app_options.h"
#include "pattern/trace.h"

_Static_assert(sizeof(struct trace_settings) <= PATTERN_SETTINGS_BYTES,
               "cli/config.h: PATTERN_SETTINGS_BYTES");

const struct pattern_settings *trace_own(const struct config *c)
{
    return pattern_settings_of(c, &pattern_trace);
}

const struct trace_settings *trace_of(const struct config *c)
{
    return trace_settings_of(trace_own(c));
}

void trace_option_text(const struct config *c, char *buf, size_t len)
{
    const struct pattern_settings *s = trace_own(c);
    const char *spelled = pattern_row_spelled(s, &pattern_trace, &trace_file_row);
    const char *raw = pattern_row_raw(s, &pattern_trace, &trace_file_row);
    snprintf(buf, len, "%s '%s'", spelled ? spelled : "--trace", raw ? raw : "");
}

static int trace_file_option(void *dest, const struct opt_row *row, const char *spelled,
                             const char *value, struct cli_msg *msg)
{
    struct trace_settings *s = dest;
    (void)row;
    if (value[0] == '\0')
        return cli_fail(msg, "h5perf: %s '': expected the name of a trace file", spelled);
    s->file = value;
    return 0;
}

static void trace_json_file(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct trace_settings *s = src;
    jsonw_key_string(w, r->json_key, s->file);
}

static int trace_gaps_option(void *dest, const struct opt_row *row, const char *spelled,
                             const char *value, struct cli_msg *msg)
{
    struct trace_settings *s = dest;
    (void)row;
    if (strcmp(value, "keep") == 0 || strcmp(value, "drop") == 0) {
        s->gaps = value[0] == 'k' ? TRACE_GAPS_KEEP : TRACE_GAPS_DROP;
        return 0;
    }
    return cli_fail(msg, "h5perf: %s '%s': expected keep or drop", spelled, value);
}

static void trace_json_gaps(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct trace_settings *s = src;
    jsonw_key_string(w, r->json_key, s->gaps == TRACE_GAPS_DROP ? "drop" : "keep");
}

const struct opt_row trace_file_row =
    OPT_PATTERN_OTHER("--trace", "FILE", "a file name", trace_file_option,
                      .help = "the application's calls: a trace (docs/trace.md),\n"
                              "read by process 0 before any data file exists",
                      .json_key = "trace", .json = trace_json_file);

const struct opt_row trace_gaps_row =
    OPT_PATTERN_OTHER("--trace-gaps", "G", "keep or drop", trace_gaps_option,
                      .help = "keep: each recorded gap before a call is a pause\n"
                              "(busy time, outside the I/O timers); drop: none",
                      .dflt = "[keep]", .json_key = "gaps", .json = trace_json_gaps);

const struct opt_row trace_gather_row =
    OPT_PATTERN_SIZE(struct trace_settings, "--trace-gather", gather,
                     .help = "each process's consecutive contiguous calls of\n"
                             "one file and direction gathered into calls of\n"
                             "at most S bytes (docs/trace.md, Transformations)",
                     .dflt = "[none]", .json_key = "gather");

const struct opt_row trace_align_row =
    OPT_PATTERN_SIZE(struct trace_settings, "--trace-align", align,
                     .help = "each call from a multiple of S bytes to a\n"
                             "multiple of S (docs/trace.md, Transformations)",
                     .dflt = "[none]", .json_key = "align");

const struct opt_row *const trace_rows[] = {
    &trace_file_row, &trace_gaps_row, &trace_gather_row, &trace_align_row, &app_layout_row, NULL,
};

/* --layout: shared (the default, every recorded file in one data file)
 * or fpp (each process's own); chunked is no layout of a trace. */
static int trace_finish_layout(struct config *cfg, struct cli_msg *msg)
{
    if (!cfg->nlayouts) {
        cfg->nlayouts = 1;
        cfg->layouts[0] = LAYOUT_SHARED;
    }
    for (int l = 0; l < cfg->nlayouts; l++)
        if (cfg->layouts[l] == LAYOUT_CHUNKED)
            return cli_fail(msg,
                            "h5perf: %s '%s': --pattern trace replays into a shared file or a "
                            "file per process (shared, fpp; docs/trace.md)",
                            cfg->spelled[OPT_LAYOUT], cfg->raw[OPT_LAYOUT]);
    return 0;
}

int trace_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg)
{
    (void)w;
    if (app_finish_debug(cfg, msg) < 0)
        return -1;
    struct trace_settings *s = trace_settings_edit(pattern_settings_edit(cfg, &pattern_trace));
    if (!s->file)
        return cli_fail(msg,
                        "h5perf: %s trace: give the application's calls with --trace FILE "
                        "(docs/trace.md)",
                        cfg->spelled[OPT_PATTERN]);
    if (!s->gaps)
        s->gaps = TRACE_GAPS_KEEP;
    if (cfg->collective)
        return cli_fail(msg,
                        "h5perf: %s: the trace pattern replays each process's calls "
                        "independently (a trace's processes make different calls, which "
                        "collective calls cannot match; docs/trace.md)",
                        cfg->spelled[OPT_COLLECTIVE]);
    enum opt_id whole[3] = {OPT_STONEWALL, OPT_DURATION, OPT_WRITE_ONLY};
    for (int i = 0; i < 3; i++)
        if (cfg->spelled[whole[i]])
            return cli_fail(msg,
                            "h5perf: %s: %s trace replays the trace whole (its reads and "
                            "writes in one phase, docs/trace.md)",
                            cfg->spelled[whole[i]], cfg->spelled[OPT_PATTERN]);
    if (cfg->read_only)
        return cli_fail(msg,
                        "h5perf: %s: the trace pattern replays writes and reads in one phase, "
                        "and writes first what the trace reads (docs/trace.md); leave it out",
                        cfg->spelled[OPT_READ_ONLY]);
    if (trace_finish_layout(cfg, msg) < 0)
        return -1;
    /* Each recorded file a variable of the data file (one, or one per
     * process). */
    cfg->elem = 1;
    cfg->nvars = 1;
    /* The trace fixes the process count: the run is the one count started
     * (or -P), checked against the trace's once it is read. */
    if (!cfg->spelled[OPT_MIN_PROCS])
        cfg->min_procs = cfg->max_procs ? cfg->max_procs : world_size;
    return 0;
}
