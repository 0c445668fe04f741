/* The core rows of the option table (options.h): the options every pattern
 * takes and their values' parsers, and the lookup over every row (the
 * core's, the patterns' and the APIs'). Pure: no MPI, no I/O. */
#include "options/options.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dims.h"
#include "cli/option.h"
#include "cli/measure_options.h"
#include "cli/places.h"
#include "cli/size.h"
#include "pattern/pattern.h"
#include "base/jsonw.h"

/* ---- the core options' own values ---- */

/* -h, --help and --version: whichever comes first wins over every error. */
static int opt_help(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                    struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)spelled, (void)value, (void)msg;
    if (row->id == OPT_VERSION)
        cfg->version = true;
    else
        cfg->help = true;
    return 0;
}

/* Options that exist but are refused, with the reason. */
static int opt_refused(void *dest, const struct opt_row *row, const char *spelled,
                       const char *value, struct cli_msg *msg)
{
    (void)dest, (void)row, (void)value;
    return cli_fail(msg,
                    "h5perf: %s: the MPI-POSIX driver no longer exists in HDF5 "
                    "(removed in 1.8.13); use -A mpiio or -A phdf5",
                    spelled);
}

static int opt_output(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                      struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    if (value[0] == '\0')
        return cli_fail(msg, "h5perf: %s '': expected a file name", spelled);
    cfg->output = value;
    return 0;
}

/* --advise FILE: the workload file (docs/advisor.md). */
static int opt_advise(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                      struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    if (value[0] == '\0')
        return cli_fail(msg, "h5perf: %s '': expected the name of a workload file", spelled);
    cfg->advise = value;
    return 0;
}

/* ---- word and list values ---- */

/* Case-insensitive comparison of the token [s, s+len) with a word. */
static int opt_token_is(const char *s, size_t len, const char *word)
{
    if (strlen(word) != len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (tolower((unsigned char)s[i]) != word[i])
            return 0;
    return 1;
}

/* Length of the comma-separated token starting at s. */
static size_t opt_token_len(const char *s)
{
    const char *comma = strchr(s, ',');
    return comma ? (size_t)(comma - s) : strlen(s);
}

/* The formats of the report and the results: --format's words. */
static const struct opt_word opt_formats[] = {[FORMAT_TEXT] = {"text", "(the original's layout)"},
                                              [FORMAT_JSON] = {"json", NULL},
                                              [FORMAT_CSV] = {"csv", NULL}};
#define OPT_FORMATS ((int)(sizeof opt_formats / sizeof opt_formats[0]))

static void opt_format_choices(char *buf, size_t len)
{
    opt_words_list(buf, len, opt_formats, OPT_FORMATS, true);
}

/* The name of a format, any case; -1 if none. */
static int opt_format_id(const char *s, size_t len)
{
    for (int i = 0; i < OPT_FORMATS; i++)
        if (opt_token_is(s, len, opt_formats[i].name))
            return i;
    return -1;
}

static int opt_format(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                      struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    int f = opt_format_id(value, strlen(value));
    if (f < 0) {
        char names[64];
        opt_words_list(names, sizeof names, opt_formats, OPT_FORMATS, false);
        return cli_fail(msg, "h5perf: %s '%s': expected %s", spelled, value, names);
    }
    cfg->format = (enum report_format)f;
    return 0;
}

/* The results file's format comes from its extension, so that a file named
 * .csv never holds JSON. */
static int opt_results(void *dest, const struct opt_row *row, const char *spelled,
                       const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    const char *dot = strrchr(value, '.');
    const char *slash = strrchr(value, '/');
    int f = dot && (!slash || dot > slash + 1) ? opt_format_id(dot + 1, strlen(dot + 1)) : -1;
    if (f != FORMAT_JSON && f != FORMAT_CSV)
        return cli_fail(msg,
                        "h5perf: %s '%s': the results file name must end in .json or .csv "
                        "(its format)",
                        spelled, value);
    cfg->results = value;
    cfg->results_format = (enum report_format)f;
    return 0;
}

static int opt_api(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                   struct cli_msg *msg)
{
    struct config *cfg = dest;
    const char *s = value;

    (void)row;
    for (;;) {
        size_t len = opt_token_len(s);
        int api = api_find(s, len);
        if (len == 0)
            return cli_fail(msg,
                            "h5perf: %s '%s': empty API name; expected a comma-separated "
                            "list of %s",
                            spelled, value, api_key_list());
        if (api < 0)
            return cli_fail(msg,
                            "h5perf: %s '%s': unknown API '%.*s'; expected a "
                            "comma-separated list of %s",
                            spelled, value, (int)len, s, api_key_list());
        if (!api_built((enum api_id)api))
            return cli_fail(msg, "h5perf: %s '%s': this build of h5perf does not include %s (%s)",
                            spelled, value, api_desc((enum api_id)api)->err_name,
                            api_desc((enum api_id)api)->build_hint);
        cfg->apis |= API_BIT(api);
        if (s[len] == '\0')
            return 0;
        s += len + 1;
    }
}

/* A level of digits only; kept up to 1000 (config_finish clamps to 4 and
 * quotes the level as typed). */
static int opt_debug_level(const char *s, size_t len)
{
    int level = 0;
    for (size_t i = 0; i < len; i++) {
        level = level * 10 + (s[i] - '0');
        if (level > 1000)
            level = 1000;
    }
    return level;
}

static int opt_debug_token(struct config *cfg, const char *s, size_t len)
{
    size_t digits = strspn(s, "0123456789");

    if (len > 0 && digits >= len) {
        cfg->debug_level = opt_debug_level(s, len);
        cfg->debug_level_text = s;
        cfg->debug_level_len = (int)len;
        return 0;
    }
    if (len != 1)
        return -1;
    switch (tolower((unsigned char)s[0])) {
    case 'r':
        cfg->debug_raw = true;
        return 0;
    case 't':
        cfg->debug_times = true;
        return 0;
    case 'v':
        cfg->debug_verify = true;
        return 0;
    default:
        return -1;
    }
}

static int opt_debug(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                     struct cli_msg *msg)
{
    struct config *cfg = dest;
    const char *s = value;

    (void)row;
    for (;;) {
        size_t len = opt_token_len(s);
        if (len == 0)
            return cli_fail(msg,
                            "h5perf: %s '%s': empty debug item; expected a level 0-4 "
                            "or the flags r, t, v, comma-separated",
                            spelled, value);
        if (opt_debug_token(cfg, s, len) != 0)
            return cli_fail(msg,
                            "h5perf: %s '%s': unknown debug item '%.*s'; expected a "
                            "level 0-4 or the flags r, t, v, comma-separated",
                            spelled, value, (int)len, s);
        if (s[len] == '\0')
            return 0;
        s += len + 1;
    }
}

/* ---- how the core's values are echoed in the results ---- */

static void opt_json_apis(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key(w, row->json_key);
    jsonw_array(w);
    for (int a = 0; a < API_COUNT; a++)
        if (cfg->apis & API_BIT(a))
            jsonw_string(w, api_desc((enum api_id)a)->key);
    jsonw_end(w);
}

static void opt_json_io_mode(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key_string(w, row->json_key, cfg->collective ? "collective" : "independent");
}

static void opt_json_debug(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key(w, row->json_key);
    jsonw_object(w);
    jsonw_key_int(w, "level", cfg->debug_level);
    jsonw_key_bool(w, "raw", cfg->debug_raw);
    jsonw_key_bool(w, "times", cfg->debug_times);
    jsonw_key_bool(w, "verify", cfg->debug_verify);
    jsonw_end(w);
}

static void opt_json_output(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key_string(w, row->json_key, cfg->output);
}

static void opt_json_format(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key_string(w, row->json_key, opt_formats[cfg->format].name);
}

static void opt_json_results(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key_string(w, row->json_key, cfg->results);
}

static void opt_json_memory(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key_bool(w, row->json_key, !cfg->no_memory_check);
}

static void opt_json_pattern(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key_string(w, row->json_key, pattern_of(cfg)->key);
}

/* --pattern: a key of the pattern table. */
static int opt_pattern(void *dest, const struct opt_row *row, const char *spelled,
                       const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    int p = pattern_find(value, strlen(value));
    if (p < 0) {
        char keys[256];
        pattern_key_list(keys, sizeof keys);
        return cli_fail(msg, "h5perf: %s '%s': expected %s", spelled, value, keys);
    }
    cfg->pattern = p;
    return 0;
}

/* ---- the core rows, in --help's order ---- */

static const struct opt_row opt_help_row =
    OPT_OTHER(OPT_HELP, "-h", "--help", NULL, NULL, opt_help, .help = "print this help and exit");
static const struct opt_row opt_version_row =
    OPT_OTHER(OPT_VERSION, NULL, "--version", NULL, NULL, opt_help,
              .help = "print the versions of h5perf, its commit, HDF5,\n"
                      "MPI and each API's library, and exit");
static const struct opt_row opt_pattern_row =
    OPT_OTHER(OPT_PATTERN, NULL, "--pattern", "P", "a pattern name", opt_pattern,
              .help = "the access pattern:", .choices = pattern_key_list, .dflt = "[guide]",
              .json_key = "pattern", .json = opt_json_pattern);
static const struct opt_row opt_api_row =
    OPT_OTHER(OPT_API, "-A", "--api", "LIST", "a list of APIs", opt_api,
              .help = "the APIs to run, comma-separated, any case:", .choices = api_key_choices,
              .dflt = "[posix, mpiio, phdf5]", .json_key = "apis", .json = opt_json_apis);
static const struct opt_row opt_collective_row =
    OPT_FLAG(OPT_COLLECTIVE, "-C", "--collective", collective,
             .help = "collective MPI-IO, HDF5 and PnetCDF I/O", .dflt = "[independent]",
             .json_key = "io_mode", .json = opt_json_io_mode);
static const struct opt_row opt_iterations_row =
    OPT_COUNT(OPT_ITERATIONS, "-i", "--num-iterations", iterations,
              .help = "iterations of each run", .dflt = "[1]", .json_key = "iterations");
static const struct opt_row opt_min_procs_row =
    OPT_COUNT(OPT_MIN_PROCS, "-p", "--min-num-processes", min_procs,
              .help = "smallest process count", .dflt = "[1]", .json_key = "min_processes");
static const struct opt_row opt_max_procs_row =
    OPT_COUNT(OPT_MAX_PROCS, "-P", "--max-num-processes", max_procs,
              .help = "largest process count, at most the processes\nstarted",
              .dflt = "[the processes started]", .json_key = "max_processes");
static const struct opt_row opt_write_only_row =
    OPT_FLAG(OPT_WRITE_ONLY, "-w", "--write-only", write_only, .help = "skip the read phase",
             .json_key = "write_only");
static const struct opt_row opt_align_row =
    OPT_SIZE(OPT_ALIGN, "-a", "--align", align,
             .help = "HDF5 alignment (H5Pset_alignment); PnetCDF's\n"
                     "nc_var_align_size, at most 1G with pnetcdf",
             .dflt = "[1]", .json_key = "align");
static const struct opt_row opt_threshold_row =
    OPT_SIZE(OPT_THRESHOLD, "-T", "--threshold", threshold, .help = "HDF5 alignment threshold",
             .dflt = "[1]", .json_key = "align_threshold");
static const struct opt_row opt_output_row =
    OPT_OTHER(OPT_OUTPUT, "-o", "--output", "FILE", "a file name", opt_output,
              .help = "write the report to FILE, replacing it; never\n"
                      "a data file of the run",
              .dflt = "[standard output]", .json_key = "output", .json = opt_json_output);
static const struct opt_row opt_debug_row =
    OPT_OTHER(OPT_DEBUG, "-D", "--debug", "LIST", "a list of debug items", opt_debug,
              .help = "comma-separated: a level 0-4 (1: parameters\n"
                      "and file names from every process, 3: times\n"
                      "of each iteration, 4: timer details; above 4\n"
                      "means 4), r (raw data throughput), t (times),\n"
                      "v (verify the data read); the application\n"
                      "patterns take v only",
              .dflt = "[0]", .json_key = "debug", .json = opt_json_debug);
static const struct opt_row opt_overwrite_row =
    OPT_FLAG(OPT_OVERWRITE, NULL, "--overwrite", overwrite,
             .help = "replace data files that exist already (an\n"
                     "earlier run with HDF5_NOCLEANUP leaves some);\n"
                     "only regular files of yours with one link,\n"
                     "nothing mounted on them",
             .json_key = "overwrite");
static const struct opt_row opt_read_only_row =
    OPT_FLAG(OPT_READ_ONLY, NULL, "--read-only", read_only,
             .help = "only read (and with -D v verify) the data files\n"
                     "an earlier run with the same options and\n"
                     "HDF5_NOCLEANUP left; they are not removed",
             .json_key = "read_only");
static const struct opt_row opt_watchdog_row =
    OPT_COUNT(OPT_WATCHDOG, NULL, "--watchdog", watchdog,
              .help = "seconds a process that failed waits for the\n"
                      "others to agree before it aborts the job; a\n"
                      "library call stuck for twice N (plus 1 s per\n"
                      "MiB it moves) aborts it too",
              .dflt = "[120]", .json_key = "watchdog_seconds");
static const struct opt_row opt_format_row =
    OPT_OTHER(OPT_FORMAT, NULL, "--format", "F", "text, json or csv", opt_format,
              .help = "the report on standard output (or -o):", .choices = opt_format_choices,
              .dflt = "[text]", .json_key = "format", .json = opt_json_format);
static const struct opt_row opt_results_row = OPT_OTHER(
    OPT_RESULTS, NULL, "--results", "FILE", "a file name ending in .json or .csv", opt_results,
    .help = "also write every sample to FILE, as JSON or CSV\n"
            "by its extension (.json, .csv), replacing it;\n"
            "never the report or a data file; with --advise,\n"
            "the advisor's answer (.json)",
    .json_key = "results_file", .json = opt_json_results);
static const struct opt_row opt_progress_row =
    OPT_FLAG(OPT_PROGRESS, NULL, "--progress", progress,
             .help = "print what runs and the time left to stderr", .json_key = "progress");
static const struct opt_row opt_fsync_row =
    OPT_FLAG(OPT_FSYNC, NULL, "--fsync", fsync,
             .help = "flush each file to storage before it is closed\n"
                     "after writing (in the open-close time)",
             .json_key = "fsync");
static const struct opt_row opt_no_memory_check_row =
    OPT_FLAG(OPT_NO_MEMORY_CHECK, NULL, "--no-memory-check", no_memory_check,
             .help = "allocate the transfer buffers even where they\n"
                     "exceed the memory available on a host (or in\n"
                     "its memory cgroup)",
             .dflt = "[refuse]", .json_key = "memory_check", .json = opt_json_memory);
static const struct opt_row opt_advise_row =
    OPT_OTHER(OPT_ADVISE, NULL, "--advise", "FILE", "a file name", opt_advise,
              .help = "read the workload file FILE (docs/advisor.md),\n"
                      "check it and list its candidates; with\n"
                      "--budget, race them and recommend one");
static void opt_json_buffer_offset(struct jsonw *w, const void *src, const struct opt_row *row)
{
    const struct config *cfg = src;
    jsonw_key_ints(w, row->json_key, cfg->nbuf_offset, cfg->buf_offsets);
}
static const struct opt_row opt_buffer_offset_row =
    OPT_OTHER(OPT_BUFFER_OFFSET, NULL, "--buffer-offset", "LIST", "a list of sizes", places_option,
              .help = "bytes, each in turn, from 0 to 4095: the\n"
                      "transfer buffers start that far past a page\n"
                      "boundary (unaligned in memory on purpose)",
              .dflt = "[0]", .json_key = "buffer_offsets", .json = opt_json_buffer_offset);
static const struct opt_row opt_mpi_posix_row =
    OPT_OTHER(OPT_MPI_POSIX, "-m", "--mpi-posix", NULL, NULL, opt_refused,
              .help = "refused: the MPI-POSIX driver was removed from\n"
                      "HDF5 in 1.8.13");

const struct opt_row *const opt_core_rows[] = {
    &opt_help_row,          &opt_version_row,        &opt_pattern_row,
    &opt_api_row,           &opt_collective_row,     &opt_iterations_row,
    &opt_min_procs_row,     &opt_max_procs_row,      &opt_write_only_row,
    &opt_align_row,         &opt_threshold_row,      &opt_output_row,
    &opt_debug_row,         &opt_overwrite_row,      &opt_read_only_row,
    &opt_watchdog_row,      &opt_format_row,         &opt_results_row,
    &opt_progress_row,      &opt_fsync_row,          &opt_no_memory_check_row,
    &measure_stonewall_row, &measure_duration_row,   &measure_repeat_row,
    &measure_latency_row,   &measure_confidence_row, &measure_max_iterations_row,
    &measure_max_time_row,  &opt_buffer_offset_row,  &opt_advise_row,
    &measure_budget_row,    &opt_mpi_posix_row,
};

const int opt_core_count = (int)(sizeof opt_core_rows / sizeof opt_core_rows[0]);

/* ---- every row ---- */

/* The lists of rows, in --help's order: the core's, each pattern's, then
 * each API's own (api/api.h); list i, or NULL past the last. Each list is
 * NULL-terminated but the core's, whose count is known. */
static const struct opt_row *const *opt_list(int i, int *n)
{
    *n = -1;
    if (i == 0) {
        *n = opt_core_count;
        return opt_core_rows;
    }
    if (--i < pattern_count)
        return pattern_table[i]->rows;
    i -= pattern_count;
    for (int a = 0; a < API_COUNT; a++)
        if (api_descs[a].opts && i-- == 0)
            return api_descs[a].opts->rows;
    return NULL;
}

/* Has row k of list l been listed before it (by an earlier list, or
 * earlier in its own)? */
static bool opt_seen_before(int l, int k, const struct opt_row *row)
{
    const struct opt_row *const *rows;
    int n;
    for (int q = 0; q <= l && (rows = opt_list(q, &n)); q++)
        for (int j = 0; (n < 0 ? rows[j] != NULL : j < n) && (q < l || j < k); j++)
            if (rows[j] == row)
                return true;
    return false;
}

const struct opt_row *opt_row_at(int i)
{
    const struct opt_row *const *rows;
    int n, count = 0;
    for (int l = 0; (rows = opt_list(l, &n)); l++)
        for (int k = 0; n < 0 ? rows[k] != NULL : k < n; k++) {
            if (opt_seen_before(l, k, rows[k]))
                continue;
            if (count++ == i)
                return rows[k];
        }
    return NULL;
}

bool opt_is_core(const struct opt_row *row)
{
    for (int k = 0; k < opt_core_count; k++)
        if (opt_core_rows[k] == row)
            return true;
    return false;
}

int opt_api_owner(const struct opt_row *row)
{
    for (int a = 0; a < API_COUNT; a++)
        for (int k = 0; api_descs[a].opts && api_descs[a].opts->rows[k]; k++)
            if (api_descs[a].opts->rows[k] == row)
                return a;
    return -1;
}

void *opt_dest(struct config *cfg, const struct opt_row *row)
{
    int a = opt_api_owner(row), p = pattern_owner(row);
    if (a >= 0)
        return cfg->api[a].own.bytes;
    return p >= 0 ? (void *)cfg->patterns[p].own.bytes : (void *)cfg;
}

const void *opt_src(const struct config *cfg, const struct opt_row *row)
{
    int a = opt_api_owner(row), p = pattern_owner(row);
    if (a >= 0)
        return cfg->api[a].own.bytes;
    return p >= 0 ? (const void *)cfg->patterns[p].own.bytes : (const void *)cfg;
}

const char *opt_spelled(const struct config *cfg, const struct opt_row *row)
{
    int a = opt_api_owner(row), p = pattern_owner(row);
    if (a >= 0)
        return api_row_spelled(&cfg->api[a], (enum api_id)a, row);
    if (p >= 0)
        return pattern_row_spelled(&cfg->patterns[p], pattern_table[p], row);
    return cfg->spelled[row->id];
}

const char *opt_raw(const struct config *cfg, const struct opt_row *row)
{
    int a = opt_api_owner(row), p = pattern_owner(row);
    if (a >= 0)
        return api_row_raw(&cfg->api[a], (enum api_id)a, row);
    if (p >= 0)
        return pattern_row_raw(&cfg->patterns[p], pattern_table[p], row);
    return cfg->raw[row->id];
}

const struct opt_row *opt_find_short(char c)
{
    const struct opt_row *r;
    for (int i = 0; (r = opt_row_at(i)); i++)
        if (r->short_name && r->short_name[1] == c)
            return r;
    return NULL;
}

const struct opt_row *opt_find_long(const char *name, size_t len)
{
    const struct opt_row *r;
    for (int i = 0; (r = opt_row_at(i)); i++)
        if (strlen(r->long_name) == len && strncmp(r->long_name, name, len) == 0)
            return r;
    return NULL;
}

const struct opt_row *opt_row_of(enum opt_id id)
{
    const struct opt_row *r;
    for (int i = 0; (r = opt_row_at(i)); i++)
        if (r->id == (int)id)
            return r;
    return NULL;
}
