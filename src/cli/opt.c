/* The command line -> struct config: one static option table, a strict
 * tokenizer (docs/original.md §0, §1.1) and one small handler per kind of
 * value. Pure: no MPI, no I/O, no getopt and no globals; it neither applies
 * defaults (finish.c) nor checks how values combine (validate.c). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dims.h"
#include "cli/dist.h"
#include "cli/places.h"
#include "cli/size.h"

struct opt_spec;
typedef int (*opt_handler)(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                           const char *value, struct cli_msg *msg);

struct opt_spec {
    const char *short_name; /* "-e", or NULL for a long-only option */
    const char *long_name;  /* "--num-bytes" */
    const char *value_kind; /* what the value is ("a size"); NULL for a flag */
    enum opt_id id;
    opt_handler handler;
};

static int opt_help(struct config *, const struct opt_spec *, const char *, const char *,
                    struct cli_msg *);
static int opt_size(struct config *, const struct opt_spec *, const char *, const char *,
                    struct cli_msg *);
static int opt_count(struct config *, const struct opt_spec *, const char *, const char *,
                     struct cli_msg *);
static int opt_flag(struct config *, const struct opt_spec *, const char *, const char *,
                    struct cli_msg *);
static int opt_api(struct config *, const struct opt_spec *, const char *, const char *,
                   struct cli_msg *);
static int opt_debug(struct config *, const struct opt_spec *, const char *, const char *,
                     struct cli_msg *);
static int opt_output(struct config *, const struct opt_spec *, const char *, const char *,
                      struct cli_msg *);
static int opt_format(struct config *, const struct opt_spec *, const char *, const char *,
                      struct cli_msg *);
static int opt_results(struct config *, const struct opt_spec *, const char *, const char *,
                       struct cli_msg *);
static int opt_refused(struct config *, const struct opt_spec *, const char *, const char *,
                       struct cli_msg *);
static int opt_block(struct config *, const struct opt_spec *, const char *, const char *,
                     struct cli_msg *);
static int opt_particles(struct config *, const struct opt_spec *, const char *, const char *,
                         struct cli_msg *);
static int opt_places(struct config *, const struct opt_spec *, const char *, const char *,
                      struct cli_msg *);

static const struct opt_spec opt_table[] = {
    {"-h", "--help", NULL, OPT_HELP, opt_help},
    {NULL, "--version", NULL, OPT_VERSION, opt_help},
    {"-a", "--align", "a size", OPT_ALIGN, opt_size},
    {"-A", "--api", "a list of APIs", OPT_API, opt_api},
    {"-B", "--block-size", "a size", OPT_BLOCK, opt_size},
    {"-c", "--chunk", NULL, OPT_CHUNK, opt_flag},
    {"-C", "--collective", NULL, OPT_COLLECTIVE, opt_flag},
    {"-d", "--num-dsets", "a whole number", OPT_DSETS, opt_count},
    {"-D", "--debug", "a list of debug items", OPT_DEBUG, opt_debug},
    {"-e", "--num-bytes", "a size", OPT_BYTES, opt_size},
    {"-F", "--num-files", "a whole number", OPT_FILES, opt_count},
    {"-g", "--geometry", NULL, OPT_GEOMETRY, opt_flag},
    {"-i", "--num-iterations", "a whole number", OPT_ITERATIONS, opt_count},
    {"-I", "--interleaved", NULL, OPT_INTERLEAVED, opt_flag},
    {"-m", "--mpi-posix", NULL, OPT_MPI_POSIX, opt_refused},
    {"-o", "--output", "a file name", OPT_OUTPUT, opt_output},
    {"-p", "--min-num-processes", "a whole number", OPT_MIN_PROCS, opt_count},
    {"-P", "--max-num-processes", "a whole number", OPT_MAX_PROCS, opt_count},
    {"-T", "--threshold", "a size", OPT_THRESHOLD, opt_size},
    {"-w", "--write-only", NULL, OPT_WRITE_ONLY, opt_flag},
    {"-x", "--min-xfer-size", "a size", OPT_MIN_XFER, opt_size},
    {"-X", "--max-xfer-size", "a size", OPT_MAX_XFER, opt_size},
    {NULL, "--overwrite", NULL, OPT_OVERWRITE, opt_flag},
    {NULL, "--watchdog", "a whole number", OPT_WATCHDOG, opt_count},
    {NULL, "--read-only", NULL, OPT_READ_ONLY, opt_flag},
    {NULL, "--format", "text, json or csv", OPT_FORMAT, opt_format},
    {NULL, "--results", "a file name ending in .json or .csv", OPT_RESULTS, opt_results},
    {NULL, "--progress", NULL, OPT_PROGRESS, opt_flag},
    {NULL, "--overhead", NULL, OPT_OVERHEAD, opt_flag},
    {NULL, "--fsync", NULL, OPT_FSYNC, opt_flag},
    {NULL, "--direct", NULL, OPT_DIRECT, opt_flag},
    {NULL, "--read-shift", "a whole number", OPT_READ_SHIFT, opt_count},
    {NULL, "--no-memory-check", NULL, OPT_NO_MEMORY_CHECK, opt_flag},
    {NULL, "--pattern", "guide, block or particles", OPT_PATTERN, opt_block},
    {NULL, "--global", "the array's dimensions", OPT_GLOBAL, opt_block},
    {NULL, "--grid", "the process grid", OPT_GRID, opt_block},
    {NULL, "--element-size", "1, 2, 4 or 8", OPT_ELEMENT_SIZE, opt_count},
    {NULL, "--vars", "a whole number", OPT_VARS, opt_count},
    {NULL, "--layout", "a list of layouts", OPT_LAYOUT, opt_block},
    {NULL, "--read-grid", "the process grid", OPT_READ_GRID, opt_block},
    {NULL, "--particles", "a whole number", OPT_PARTICLES, opt_particles},
    {NULL, "--distribution", "a distribution", OPT_DISTRIBUTION, opt_particles},
    {NULL, "--seed", "a whole number", OPT_SEED, opt_particles},
    {NULL, "--align-data", "a list of sizes", OPT_ALIGN_DATA, opt_places},
    {NULL, "--shift", "a list of sizes", OPT_SHIFT, opt_places},
    {NULL, "--transfer-size", "a size", OPT_TRANSFER_SIZE, opt_size},
};

#define OPT_TABLE_LEN (sizeof opt_table / sizeof opt_table[0])

void config_init(struct config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->output = NULL;
    cfg->paraprefix = NULL;
    for (int i = 0; i < OPT_COUNT; i++) {
        cfg->spelled[i] = NULL;
        cfg->raw[i] = NULL;
    }
    for (int i = 0; i < CONFIG_MAX_INFO; i++) {
        cfg->info[i].key = NULL;
        cfg->info[i].value = NULL;
    }
}

/* ---- handlers: each stores one option's value, or explains the refusal ---- */

/* -h, --help and --version: whichever comes first wins over every error. */
static int opt_help(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                    const char *value, struct cli_msg *msg)
{
    (void)spelled, (void)value, (void)msg;
    if (spec->id == OPT_VERSION)
        cfg->version = true;
    else
        cfg->help = true;
    return 0;
}

static int64_t *opt_size_field(struct config *cfg, enum opt_id id)
{
    switch (id) {
    case OPT_ALIGN:
        return &cfg->align;
    case OPT_THRESHOLD:
        return &cfg->threshold;
    case OPT_BLOCK:
        return &cfg->block;
    case OPT_BYTES:
        return &cfg->bytes;
    case OPT_MIN_XFER:
        return &cfg->xfer_min;
    case OPT_TRANSFER_SIZE:
        return &cfg->transfer_size;
    default:
        return &cfg->xfer_max;
    }
}

static int opt_size(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                    const char *value, struct cli_msg *msg)
{
    switch (size_scan(value, opt_size_field(cfg, spec->id))) {
    case SIZE_OK:
        return 0;
    case SIZE_ZERO:
        return cli_fail(msg, "h5perf: %s '%s': a size must be greater than 0", spelled, value);
    case SIZE_RANGE:
        return cli_fail(msg,
                        "h5perf: %s '%s': a size must fit in 64 bits "
                        "(at most 9223372036854775807 bytes)",
                        spelled, value);
    default:
        return cli_fail(msg,
                        "h5perf: %s '%s': expected a size: digits with an optional "
                        "K, M or G and an optional B, e.g. 512, 64K, 1MB",
                        spelled, value);
    }
}

static int *opt_count_field(struct config *cfg, enum opt_id id)
{
    switch (id) {
    case OPT_DSETS:
        return &cfg->num_dsets;
    case OPT_FILES:
        return &cfg->num_files;
    case OPT_ITERATIONS:
        return &cfg->iterations;
    case OPT_MIN_PROCS:
        return &cfg->min_procs;
    case OPT_WATCHDOG:
        return &cfg->watchdog;
    case OPT_READ_SHIFT:
        return &cfg->read_shift;
    case OPT_ELEMENT_SIZE:
        return &cfg->elem;
    case OPT_VARS:
        return &cfg->nvars;
    default:
        return &cfg->max_procs;
    }
}

static int opt_count(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                     const char *value, struct cli_msg *msg)
{
    int *field = opt_count_field(cfg, spec->id);
    if (size_scan_count(value, field) == SIZE_OK &&
        (spec->id != OPT_ELEMENT_SIZE || *field == 1 || *field == 2 || *field == 4 || *field == 8))
        return 0;
    if (spec->id == OPT_ELEMENT_SIZE)
        return cli_fail(msg, "h5perf: %s '%s': expected 1, 2, 4 or 8 (bytes per element)", spelled,
                        value);
    return cli_fail(msg, "h5perf: %s '%s': expected a whole number from 1 to 2147483647", spelled,
                    value);
}

static int opt_flag(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                    const char *value, struct cli_msg *msg)
{
    (void)spelled, (void)value, (void)msg;
    switch (spec->id) {
    case OPT_CHUNK:
        cfg->chunk = true;
        break;
    case OPT_COLLECTIVE:
        cfg->collective = true;
        break;
    case OPT_INTERLEAVED:
        cfg->interleaved = true;
        break;
    case OPT_GEOMETRY:
        cfg->geometry_2d = true;
        break;
    case OPT_READ_ONLY:
        cfg->read_only = true;
        break;
    case OPT_WRITE_ONLY:
        cfg->write_only = true;
        break;
    case OPT_PROGRESS:
        cfg->progress = true;
        break;
    case OPT_OVERHEAD:
        cfg->overhead = true;
        break;
    case OPT_FSYNC:
        cfg->fsync = true;
        break;
    case OPT_DIRECT:
        cfg->direct = true;
        break;
    case OPT_NO_MEMORY_CHECK:
        cfg->no_memory_check = true;
        break;
    default:
        cfg->overwrite = true;
        break;
    }
    return 0;
}

/* Options that exist but are refused, with the reason. */
static int opt_refused(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                       const char *value, struct cli_msg *msg)
{
    (void)cfg, (void)spec, (void)value;
    return cli_fail(msg,
                    "h5perf: %s: the MPI-POSIX driver no longer exists in HDF5 "
                    "(removed in 1.8.13); use -A mpiio or -A phdf5",
                    spelled);
}

static int opt_output(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                      const char *value, struct cli_msg *msg)
{
    (void)spec;
    if (value[0] == '\0')
        return cli_fail(msg, "h5perf: %s '': expected a file name", spelled);
    cfg->output = value;
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

/* The name of a format, any case; -1 if none. */
static int opt_format_id(const char *s, size_t len)
{
    static const char *const names[] = {"text", "json", "csv"};
    for (int i = 0; i < 3; i++)
        if (opt_token_is(s, len, names[i]))
            return i;
    return -1;
}

static int opt_format(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                      const char *value, struct cli_msg *msg)
{
    (void)spec;
    int f = opt_format_id(value, strlen(value));
    if (f < 0)
        return cli_fail(msg, "h5perf: %s '%s': expected text, json or csv", spelled, value);
    cfg->format = (enum report_format)f;
    return 0;
}

/* The results file's format comes from its extension, so that a file named
 * .csv never holds JSON. */
static int opt_results(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                       const char *value, struct cli_msg *msg)
{
    (void)spec;
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

static int opt_api(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                   const char *value, struct cli_msg *msg)
{
    const char *s = value;

    (void)spec;
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
            return cli_fail(msg,
                            "h5perf: %s '%s': this build of h5perf does not include %s "
                            "(configure with -DH5PERF_PNETCDF=ON where PnetCDF is installed)",
                            spelled, value, api_desc((enum api_id)api)->err_name);
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

static int opt_debug(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                     const char *value, struct cli_msg *msg)
{
    const char *s = value;

    (void)spec;
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

/* The block pattern's values (dims.c). */
static int opt_block(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                     const char *value, struct cli_msg *msg)
{
    return dims_option(cfg, spec->id, spelled, value, msg);
}

/* The particles pattern's values (dist.c). */
static int opt_particles(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                         const char *value, struct cli_msg *msg)
{
    return dist_option(cfg, spec->id, spelled, value, msg);
}

/* --align-data, --shift (places.c). */
static int opt_places(struct config *cfg, const struct opt_spec *spec, const char *spelled,
                      const char *value, struct cli_msg *msg)
{
    return places_option(cfg, spec->id, spelled, value, msg);
}

/* ---- the tokenizer ---- */

/* Walks argv once. After the first error it keeps walking (remembering only
 * that error) so that a -h anywhere still wins. */
struct opt_scan {
    int argc;
    char *const *argv;
    int next; /* index of the next unread token */
    struct config *cfg;
    struct cli_msg *msg;
    int failed; /* msg holds the first error */
    int help;   /* -h, --help or --version seen: the first one ends the scan */
};

static void opt_error(struct opt_scan *sc, const struct cli_msg *m)
{
    if (!sc->failed)
        *sc->msg = *m;
    sc->failed = 1;
}

static const struct opt_spec *opt_find_short(char c)
{
    for (size_t i = 0; i < OPT_TABLE_LEN; i++)
        if (opt_table[i].short_name != NULL && opt_table[i].short_name[1] == c)
            return &opt_table[i];
    return NULL;
}

static const struct opt_spec *opt_find_long(const char *name, size_t len)
{
    for (size_t i = 0; i < OPT_TABLE_LEN; i++)
        if (strlen(opt_table[i].long_name) == len &&
            strncmp(opt_table[i].long_name, name, len) == 0)
            return &opt_table[i];
    return NULL;
}

/* Records how the option was given, then lets its handler store it. */
static void opt_apply(struct opt_scan *sc, const struct opt_spec *spec, const char *spelled,
                      const char *value)
{
    struct cli_msg m;

    sc->cfg->spelled[spec->id] = spelled;
    sc->cfg->raw[spec->id] = value;
    if (spec->id == OPT_HELP || spec->id == OPT_VERSION)
        sc->help = 1;
    if (spec->handler(sc->cfg, spec, spelled, value, &m) != 0)
        opt_error(sc, &m);
}

/* The value of a value-taking option whose token ended: the next token,
 * whatever it looks like (docs/original.md §1.1), or NULL (and an error) at
 * the end. */
static const char *opt_next_value(struct opt_scan *sc, const struct opt_spec *spec,
                                  const char *spelled)
{
    struct cli_msg m;

    if (sc->next < sc->argc)
        return sc->argv[sc->next++];
    cli_fail(&m, "h5perf: option '%s' expects %s", spelled, spec->value_kind);
    opt_error(sc, &m);
    return NULL;
}

static void opt_long(struct opt_scan *sc, const char *token)
{
    const char *eq = strchr(token, '=');
    size_t len = eq ? (size_t)(eq - token) : strlen(token);
    const struct opt_spec *spec = opt_find_long(token, len);
    const char *value = eq ? eq + 1 : NULL;
    struct cli_msg m;

    if (spec == NULL) {
        cli_fail(&m, "h5perf: unknown option '%.*s'", (int)len, token);
        opt_error(sc, &m);
        return;
    }
    if (spec->value_kind == NULL && eq != NULL) {
        cli_fail(&m, "h5perf: %s '%s': this option takes no value", spec->long_name, value);
        opt_error(sc, &m);
        return;
    }
    if (spec->value_kind != NULL && value == NULL) {
        value = opt_next_value(sc, spec, spec->long_name);
        if (value == NULL)
            return;
    }
    opt_apply(sc, spec, spec->long_name, value);
}

/* "-wIe8": flags one by one; a value-taking letter ends the token. */
static void opt_short(struct opt_scan *sc, const char *token)
{
    struct cli_msg m;

    for (const char *p = token + 1; *p != '\0'; p++) {
        const struct opt_spec *spec = opt_find_short(*p);
        const char *value = NULL;
        if (spec == NULL) {
            cli_fail(&m, "h5perf: unknown option '-%c'", *p);
            opt_error(sc, &m);
            continue;
        }
        if (spec->value_kind != NULL) {
            value = p[1] != '\0' ? p + 1 : opt_next_value(sc, spec, spec->short_name);
            if (value != NULL)
                opt_apply(sc, spec, spec->short_name, value);
            return;
        }
        opt_apply(sc, spec, spec->short_name, NULL);
    }
}

static void opt_unexpected(struct opt_scan *sc, const char *token)
{
    struct cli_msg m;

    cli_fail(&m, "h5perf: unexpected argument '%s': h5perf takes options only", token);
    opt_error(sc, &m);
}

int opt_parse(int argc, char *const argv[], struct config *cfg, struct cli_msg *msg)
{
    struct opt_scan sc = {argc, argv, 1, cfg, msg, 0, 0};
    int options_ended = 0;

    msg->line[0] = '\0';
    while (sc.next < sc.argc && !sc.help) {
        const char *token = sc.argv[sc.next++];
        if (options_ended || token[0] != '-' || token[1] == '\0')
            opt_unexpected(&sc, token);
        else if (strcmp(token, "--") == 0)
            options_ended = 1;
        else if (token[1] == '-')
            opt_long(&sc, token);
        else
            opt_short(&sc, token);
    }
    if (sc.help) {
        msg->line[0] = '\0';
        return 0;
    }
    return sc.failed ? -1 : 0;
}
