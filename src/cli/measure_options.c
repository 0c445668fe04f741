/* measure_options.h: the rows, their values (seconds, a percentage, a
 * repetition mode) and their refusals. Pure. */
#include "cli/measure_options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/confidence.h"
#include "base/jsonw.h"

/* Digits with an optional fraction ("300", "0.5"): no sign, exponent,
 * hexadecimal, inf or nan. Returns the value and where it ends in *end,
 * or -1. */
static double measure_scan_decimal(const char *s, const char **end)
{
    size_t digits = strspn(s, "0123456789");
    const char *p = s + digits;
    if (digits == 0)
        return -1;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        if (frac == 0)
            return -1;
        p += 1 + frac;
    }
    *end = p;
    return strtod(s, NULL);
}

/* A decimal with an optional unit s, m or h ("300", "5m", "0.5"); -1 if
 * not. */
static double measure_scan_seconds(const char *s)
{
    const char *p;
    double v = measure_scan_decimal(s, &p);
    if (v < 0 || (*p && p[1]))
        return -1;
    switch (tolower((unsigned char)*p)) {
    case '\0':
    case 's':
        return v;
    case 'm':
        return v * 60;
    case 'h':
        return v * 3600;
    default:
        return -1;
    }
}

static int measure_seconds(void *dest, const struct opt_row *row, const char *spelled,
                           const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    double v = measure_scan_seconds(value);
    if (!(v > 0) || v > MEASURE_MAX_SECONDS)
        return cli_fail(msg,
                        "h5perf: %s '%s': expected seconds above 0 and at most a day "
                        "(86400), with an optional unit s, m or h: e.g. 300, 5m, 0.5",
                        spelled, value);
    *(double *)((char *)cfg + row->field) = v;
    return 0;
}

/* "5", "0.5", "5%". */
static int measure_percent(void *dest, const struct opt_row *row, const char *spelled,
                           const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    const char *p;
    double v = measure_scan_decimal(value, &p);
    if (v < 0 || (*p && strcmp(p, "%") != 0) || v < MEASURE_MIN_PERCENT || v > MEASURE_MAX_PERCENT)
        return cli_fail(msg,
                        "h5perf: %s '%s': expected a percentage from 0.1 to 50 (the half-width "
                        "of the 95%% interval of each median), e.g. 5",
                        spelled, value);
    cfg->confidence = v / 100.0;
    return 0;
}

/* --repeat's words, by enum repeat_mode, and what each writes. */
static const struct opt_word measure_repeats[] = {
    [REPEAT_NEW] = {"new", "(the file created anew)"},
    [REPEAT_OVERWRITE] = {"overwrite", "(the same file rewritten in place)"}};
#define MEASURE_REPEATS ((int)(sizeof measure_repeats / sizeof measure_repeats[0]))

static void measure_repeat_choices(char *buf, size_t len)
{
    opt_words_list(buf, len, measure_repeats, MEASURE_REPEATS, true);
}

static int measure_repeat(void *dest, const struct opt_row *row, const char *spelled,
                          const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    for (int i = 0; i < MEASURE_REPEATS; i++)
        if (strcasecmp(value, measure_repeats[i].name) == 0) {
            cfg->repeat = (enum repeat_mode)i;
            return 0;
        }
    char names[64];
    opt_words_list(names, sizeof names, measure_repeats, MEASURE_REPEATS, false);
    return cli_fail(msg, "h5perf: %s '%s': expected %s", spelled, value, names);
}

/* Echoed only when given: results of runs without them stay as they were. */
static void measure_json_seconds(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    double v = *(const double *)((const char *)c + r->field);
    if (v > 0) {
        jsonw_key(w, r->json_key);
        jsonw_number(w, v);
    }
}

static void measure_json_repeat(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    if (c->duration > 0)
        jsonw_key_string(w, r->json_key, measure_repeats[c->repeat].name);
}

static void measure_json_flag(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    if (c->latency)
        jsonw_key_bool(w, r->json_key, true);
}

static void measure_json_percent(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    if (c->confidence > 0) {
        jsonw_key(w, r->json_key);
        jsonw_number(w, c->confidence * 100.0);
    }
}

static void measure_json_max_iterations(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    if (c->confidence > 0)
        jsonw_key_int(w, r->json_key, c->max_iterations);
}

#define SECONDS_FIELD(F) OPT_FIELD(double, F)

const struct opt_row measure_stonewall_row = OPT_OTHER(
    OPT_STONEWALL, NULL, "--stonewall", "SECONDS", "seconds", measure_seconds,
    .field = SECONDS_FIELD(stonewall),
    .help = "a write phase issues no new call after\n"
            "SECONDS; every process then completes as many\n"
            "calls as the busiest did, so that the file\n"
            "holds whole, verifiable data",
    .dflt = "[every call]", .json_key = "stonewall_seconds", .json = measure_json_seconds);
const struct opt_row measure_duration_row = OPT_OTHER(
    OPT_DURATION, NULL, "--duration", "SECONDS", "seconds", measure_seconds,
    .field = SECONDS_FIELD(duration),
    .help = "repeat each file's write phase until SECONDS\n"
            "have passed; the read phase reads the last\n"
            "repetition",
    .dflt = "[one write phase]", .json_key = "duration_seconds", .json = measure_json_seconds);
const struct opt_row measure_repeat_row =
    OPT_OTHER(OPT_REPEAT, NULL, "--repeat", "MODE", "new or overwrite", measure_repeat,
              .help = "what --duration's repetitions write:", .choices = measure_repeat_choices,
              .dflt = "[new]", .json_key = "repeat", .json = measure_json_repeat);
const struct opt_row measure_latency_row =
    OPT_FLAG(OPT_LATENCY, NULL, "--latency", latency,
             .help = "add the latency of each kind of call (p50 to\n"
                     "p99.9, max) to the text report; the results\n"
                     "always carry it",
             .json_key = "latency_table", .json = measure_json_flag);
const struct opt_row measure_confidence_row = OPT_OTHER(
    OPT_CONFIDENCE, NULL, "--confidence", "PCT", "a percentage", measure_percent,
    .help = "repeat iterations until the 95% interval of\n"
            "every median throughput is within +-PCT of it\n"
            "(at least 6 iterations, at least -i)",
    .dflt = "[-i iterations]", .json_key = "confidence_percent", .json = measure_json_percent);
const struct opt_row measure_max_iterations_row =
    OPT_COUNT(OPT_MAX_ITERATIONS, NULL, "--max-iterations", max_iterations,
              .help = "with --confidence: stop a run point after N\n"
                      "iterations, interval reached or not",
              .dflt = "[50]", .json_key = "max_iterations", .json = measure_json_max_iterations);
const struct opt_row measure_max_time_row =
    OPT_OTHER(OPT_MAX_TIME, NULL, "--max-time", "SECONDS", "seconds", measure_seconds,
              .field = SECONDS_FIELD(max_time),
              .help = "with --confidence: start no iteration of a run\n"
                      "point after SECONDS, interval reached or not",
              .dflt = "[none]", .json_key = "max_time_seconds", .json = measure_json_seconds);

const struct opt_row measure_budget_row =
    OPT_OTHER(OPT_BUDGET, NULL, "--budget", "SECONDS", "seconds", measure_seconds,
              .field = SECONDS_FIELD(budget),
              .help = "with --advise: race the candidates for at\n"
                      "most SECONDS (docs/advisor.md)",
              .dflt = "[list the candidates only]", .json_key = "budget_seconds",
              .json = measure_json_seconds);

int measure_finish(struct config *cfg, struct cli_msg *msg)
{
    const char *const *sp = cfg->spelled;
    const char *ro = sp[OPT_READ_ONLY];
    if (sp[OPT_BUDGET] && !cfg->advise)
        return cli_fail(msg, "h5perf: %s '%s': applies to --advise FILE", sp[OPT_BUDGET],
                        cfg->raw[OPT_BUDGET]);
    if (ro && (cfg->stonewall > 0 || cfg->duration > 0)) {
        enum opt_id id = cfg->stonewall > 0 ? OPT_STONEWALL : OPT_DURATION;
        return cli_fail(msg,
                        "h5perf: %s '%s': bounds the write phase, which %s leaves out; give "
                        "it with the run that writes the files",
                        sp[id], cfg->raw[id], ro);
    }
    if (cfg->stonewall > 0 && cfg->duration > 0)
        return cli_fail(msg,
                        "h5perf: %s: cannot be combined with %s (one stops a write phase, "
                        "the other repeats whole ones); give one",
                        sp[OPT_STONEWALL], sp[OPT_DURATION]);
    if (sp[OPT_REPEAT] && cfg->duration <= 0)
        return cli_fail(msg,
                        "h5perf: %s: says what --duration's repetitions write; give "
                        "--duration too",
                        sp[OPT_REPEAT]);
    if ((sp[OPT_MAX_ITERATIONS] || sp[OPT_MAX_TIME]) && cfg->confidence <= 0)
        return cli_fail(msg,
                        "h5perf: %s: bounds the repetition of --confidence; give "
                        "--confidence too",
                        sp[OPT_MAX_ITERATIONS] ? sp[OPT_MAX_ITERATIONS] : sp[OPT_MAX_TIME]);
    /* Without --max-iterations: 50, or -i when it asks for more. */
    if (cfg->confidence > 0 && cfg->max_iterations == 0)
        cfg->max_iterations = cfg->iterations > MEASURE_DEFAULT_MAX_ITERATIONS
                                  ? cfg->iterations
                                  : MEASURE_DEFAULT_MAX_ITERATIONS;
    int least = confidence_min_samples(CONFIDENCE_LEVEL);
    if (cfg->confidence > 0 && cfg->max_iterations < least)
        return cli_fail(msg,
                        "h5perf: %s '%s': below %d, the fewest iterations whose median has a "
                        "95%% interval",
                        sp[OPT_MAX_ITERATIONS], cfg->raw[OPT_MAX_ITERATIONS], least);
    if (cfg->confidence > 0 && cfg->iterations > cfg->max_iterations)
        return cli_fail(msg, "h5perf: %s '%s': below %s '%s', the iterations every run point makes",
                        sp[OPT_MAX_ITERATIONS], cfg->raw[OPT_MAX_ITERATIONS], sp[OPT_ITERATIONS],
                        cfg->raw[OPT_ITERATIONS]);
    return 0;
}

int measure_max_iterations(const struct config *cfg)
{
    return cfg->confidence > 0 ? cfg->max_iterations : cfg->iterations;
}
