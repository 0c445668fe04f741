/* advise_print.h: the answer of one data set's race on standard output
 * (process 0): the ranked table, the recommendation in words and as
 * settings, what not to do, or that no candidate beats the baseline
 * (docs/advisor.md, "The answer"). Formats only. */
#include "advisor/advise_print.h"

#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "base/option.h"
#include "options/options.h"
#include "report/confidence.h"

/* Rows of the table besides the baseline and the worst. */
#define ADVISE_ROWS 10

/* The value of row's option in c's words: NULL not given, "" a flag. */
static const char *advise_row_word(const struct workload_config *c, const struct opt_row *row)
{
    const char *opt = opt_word(row);
    size_t n = strlen(opt);
    for (int i = 0; i < c->argc; i++) {
        if (strncmp(c->argv[i], opt, n) == 0 && c->argv[i][n] == '=')
            return c->argv[i] + n + 1;
        if (strcmp(c->argv[i], opt) == 0)
            return !row->metavar || row->value_optional || i + 1 >= c->argc ? "" : c->argv[i + 1];
    }
    return NULL;
}

const char *advise_word(const struct workload_config *c, enum workload_dim d)
{
    const struct opt_row *row = c->trace ? workload_trace_row(d) : NULL;
    return advise_row_word(c, row ? row : workload_dim_row(d));
}

bool advise_choice_word(const struct workload_config *c, int i, bool *on)
{
    *on |= strcmp(c->argv[i], opt_word(workload_dim_row(WORKLOAD_API))) == 0;
    return *on && strcmp(c->argv[i], opt_word(opt_row_of(OPT_WRITE_ONLY))) != 0;
}

/* The candidate's choices: its words from -A on, and its hints. */
static void advise_choices(const struct workload_config *c, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    bool on = false;
    for (int i = 0; i < c->argc && at < len; i++) {
        if (advise_choice_word(c, i, &on))
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "", c->argv[i]);
    }
    if (c->mpi_info[0] && at < len)
        snprintf(buf + at, len - at, " [%s]", c->mpi_info);
}

void advise_median(const double *v, int n, double *median, struct median_interval *ci)
{
    double sorted[RACE_MAX_SAMPLES];
    *ci = (struct median_interval){0};
    *median = 0;
    if (n <= 0)
        return;
    n = n < RACE_MAX_SAMPLES ? n : RACE_MAX_SAMPLES;
    memcpy(sorted, v, (size_t)n * sizeof *sorted);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    *median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    confidence_median(sorted, n, CONFIDENCE_LEVEL, ci);
}

static void advise_interval(const double *v, int n, char *buf, size_t len)
{
    double med;
    struct median_interval ci;
    if (n == 0) {
        snprintf(buf, len, "%27s", "-");
        return;
    }
    advise_median(v, n, &med, &ci);
    if (ci.known)
        snprintf(buf, len, "%9.1f [%7.1f, %7.1f]", med, ci.low, ci.high);
    else
        snprintf(buf, len, "%9.1f %17s", med, "[n<6]");
}

const char *advise_state(const struct advise_answer *a, int i)
{
    static const char *const names[] = {"in race", "worse", "halved", "failed", "unmeasured"};
    if (i == a->chosen)
        return "verified";
    return names[a->race.e[i].state];
}

bool advise_tied_best(const struct advise_answer *a, int i)
{
    return a->race.e[i].n && race_tied(&a->race, i, a->race.rank[0]);
}

static void advise_row(const struct advise_answer *a, const struct workload_config *c, int i,
                       const char *label)
{
    char w[64], r[64], ch[WORKLOAD_TEXT_MAX];
    const struct race *race = &a->race;
    advise_interval(a->wr[i], a->nw[i], w, sizeof w);
    advise_interval(a->rd[i], a->reads ? a->nw[i] : 0, r, sizeof r);
    advise_choices(&c[i], ch, sizeof ch);
    double base = race->e[race->baseline].median;
    printf("  %5s %s %s %7.2f  %-3s %-10s %s\n", label, w, r,
           race->e[i].n && base > 0 ? race->e[i].median / base : 0.0,
           advise_tied_best(a, i) ? "=" : "", advise_state(a, i), ch);
}

static void advise_table(const struct advise_answer *a, const struct workload_config *c)
{
    const struct race *r = &a->race;
    printf("  %5s %-27s %-27s %7s  %-3s %-10s %s\n", "rank", "write MB/s [95% interval]",
           "read MB/s [95% interval]", "x base", "tie", "state", "candidate");
    int last = -1;
    for (int k = 0; k < r->n; k++)
        if (r->e[r->rank[k]].n > 0)
            last = k;
    for (int k = 0; k <= last; k++) {
        int i = r->rank[k];
        char label[16];
        snprintf(label, sizeof label, "%d", k + 1);
        if (k < ADVISE_ROWS || i == r->baseline || k == last)
            advise_row(a, c, i, i == r->baseline ? "base" : label);
        else if (k == ADVISE_ROWS)
            printf("  %5s\n", "...");
    }
}

/* The value of one of an API's own rows in candidate ctx's words (struct
 * api_advice_in): NULL not given, "" a flag. */
static const char *advise_own(const void *ctx, const struct opt_row *row)
{
    return advise_row_word(ctx, row);
}

void advise_settings_of(const struct workload_config *c, struct advise_settings *out)
{
    /* Every candidate has -A and --layout (wl_config.c). */
    const char *api = advise_word(c, WORKLOAD_API), *layout = advise_word(c, WORKLOAD_LAYOUT);
    api = api ? api : "";
    layout = layout ? layout : "";
    const char *coll = advise_word(c, WORKLOAD_COLLECTIVE), *a = advise_word(c, WORKLOAD_ALIGNMENT);
    const char *t = advise_word(c, WORKLOAD_THRESHOLD), *ad = advise_word(c, WORKLOAD_ALIGN_DATA);
    const char *x = advise_word(c, WORKLOAD_TRANSFER_SIZE);
    const char *bo = advise_word(c, WORKLOAD_BUFFER_OFFSET);
    const struct api_desc *desc = api_desc((enum api_id)api_find(api, strlen(api)));
    const struct api_advice *advice = desc ? desc->advice : NULL;
    const struct api_advice_in in = {
        .collective = coll != NULL,
        .hints = c->mpi_info[0] != '\0',
        .chunked = strcmp(layout, "chunked") == 0,
        .align = a,
        .threshold = t,
        .chunk_shape = advise_word(c, WORKLOAD_CHUNK),
        .own = advise_own,
        .ctx = c,
    };
    size_t at = 0, len = sizeof out->in_words;
    char *w = out->in_words;
    api_addf(w, len, &at, "%s, layout %s, %s transfers", api, layout,
             coll ? "collective" : "independent");
    if (c->trace) {
        /* A trace's calls: as recorded, gathered, aligned. */
        api_addf(w, len, &at, ", the recorded calls");
        if (x)
            api_addf(w, len, &at, " gathered into calls of at most %s", x);
        if (ad)
            api_addf(w, len, &at, "%s aligned to %s", x ? ", each" : "", ad);
        a = ad = NULL;
        x = "";
    }
    if (a)
        api_addf(w, len, &at, ", variables aligned to %s%s%s", a, t ? " above " : "", t ? t : "");
    if (ad)
        api_addf(w, len, &at, ", each variable from a multiple of %s", ad);
    if (!x || x[0])
        api_addf(w, len, &at, ", %s per call", x ? x : "a process's whole part");
    if (bo)
        api_addf(w, len, &at, ", buffers %s bytes past a page boundary", bo);
    if (advice && advice->words)
        advice->words(&in, w, len, &at);
    out->calls[0] = '\0';
    out->api = NULL;
    if (advice) {
        out->api = desc->err_name;
        advice->calls(&in, out->calls, sizeof out->calls);
    }
}

/* The settings of the recommendation: in words, and as calls. */
static void advise_settings(const struct workload_config *c)
{
    struct advise_settings st;
    advise_settings_of(c, &st);
    printf("  in words: %s\n  hints: %s\n", st.in_words,
           c->mpi_info[0] ? c->mpi_info : "none (the library's own)");
    if (st.api)
        printf("  %s: %s\n", st.api, st.calls);
}

int advise_worst(const struct advise_answer *a, int ref)
{
    const struct race *r = &a->race;
    int worst = -1;
    for (int k = r->n - 1; k >= 0 && worst < 0; k--)
        if (r->e[r->rank[k]].n > 0 && r->e[r->rank[k]].state != RACE_FAILED)
            worst = r->rank[k];
    return worst >= 0 && worst != ref && r->e[ref].median > 0 && race_better(r, ref, worst) ? worst
                                                                                            : -1;
}

double advise_recorded_mbs(const struct workload_recorded *rec, int write)
{
    return rec->bytes[write] > 0 && rec->seconds[write] > 0
               ? (double)rec->bytes[write] / rec->seconds[write] / 1e6
               : -1;
}

/* "2832.08 MB/s" or "-" (no call of that direction). */
static void advise_mbs(const struct workload_recorded *rec, int write, char *buf, size_t len)
{
    double v = advise_recorded_mbs(rec, write);
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f MB/s", v);
}

/* The application's own throughput, from its trace, beside the
 * recommendation (docs/advisor.md, "Traces"). */
static void advise_print_recorded(const struct workload_recorded *rec)
{
    char wr[32], rd[32];
    advise_mbs(rec, 1, wr, sizeof wr);
    advise_mbs(rec, 0, rd, sizeof rd);
    printf("  recorded: the application's own throughput of a process, write %s, read %s (a "
           "direction's bytes over the sum of its calls' seconds, docs/trace.md)\n",
           wr, rd);
}

void advise_print_answer(const struct workload *w, int set, const struct workload_config *c,
                         const struct advise_answer *a, double budget,
                         const struct workload_recorded *rec)
{
    const struct race *r = &a->race;
    const struct workload_set *s = &w->sets[set];
    char line[2 * WORKLOAD_TEXT_MAX];
    int measured = 0;
    for (int i = 0; i < r->n; i++)
        measured += r->e[i].n > 0;
    char rounds[48];
    if (r->rounds == 0)
        snprintf(rounds, sizeof rounds, ", the first round unfinished");
    else
        snprintf(rounds, sizeof rounds, " in %d round%s", r->rounds, r->rounds == 1 ? "" : "s");
    printf("\n%s '%s': %d candidates, %d measured%s, %.1f s of the %.1f s budget%s\n", s->key,
           s->name, r->n, measured, rounds, a->spent, budget,
           r->out_of_budget ? " (the budget ended the race)" : "");
    if (c[0].trace)
        printf("  (a trace: the write column is its replay, writes and reads, the application's "
               "bytes over the replay's open to close, docs/advisor.md)\n");
    advise_table(a, c);
    int best = a->chosen, base = r->baseline, ref = best;
    if (best < 0) {
        workload_config_text(&c[base], line, sizeof line);
        if (a->tried)
            printf("recommendation: keep the baseline: the %d candidate%s better than it did not "
                   "verify their data (-D v)\n  command: %s\n",
                   a->tried, a->tried == 1 ? "" : "s", line);
        else
            printf("recommendation: keep the baseline: no candidate is significantly better than "
                   "the baseline (no 95%% interval lies wholly above its)\n  command: %s\n",
                   line);
        ref = base;
    } else {
        workload_config_text(&c[best], line, sizeof line);
        printf("recommendation: %.2f times the baseline's throughput (95%% intervals apart), its "
               "data verified\n  command: %s\n",
               r->e[best].median / r->e[base].median, line);
        advise_settings(&c[best]);
    }
    if (rec)
        advise_print_recorded(rec);
    int worst = advise_worst(a, ref);
    if (worst >= 0) {
        char ch[WORKLOAD_TEXT_MAX];
        advise_choices(&c[worst], ch, sizeof ch);
        printf("  not: %s: %.2f of the recommendation's throughput\n", ch,
               r->e[worst].median / r->e[ref].median);
    }
}
