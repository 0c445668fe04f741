/* csv_write(): the rows of csv.h. A failed sample keeps its row, with its
 * status and error and empty seconds, so that no failure is lost. */
#include "report/csv.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "plan/point.h"
#include "base/jsonw.h"
#include "report/text.h"

/* A field quoted when it holds a comma, a quote or a line break; the error
 * lines of several processes are joined with "; ". */
static void csv_text(FILE *out, const char *s)
{
    if (!s || !*s)
        return;
    bool quote = strpbrk(s, ",\"\n\r") != NULL;
    if (quote)
        fputc('"', out);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        if (*p == '\n') {
            if (p[1] != '\0')
                fputs("; ", out);
            continue;
        }
        fputc(*p, out);
    }
    if (quote)
        fputc('"', out);
}

/* A number and its comma, in the shortest form that reads back exactly. */
static void csv_number(FILE *out, double v)
{
    char text[32];
    jsonw_shortest(text, sizeof text, v);
    fprintf(out, "%s,", text);
}

static void csv_interval(FILE *out, const struct timer_summary *sum);

/* The API's variant (empty: its default), and the row's end. */
static void csv_variant(FILE *out, const struct api_result *r)
{
    const struct api_variant *v = api_variant(r->api, r->variant);
    fputc(',', out);
    csv_text(out, v ? v->label : NULL);
}

static void csv_row(FILE *out, const struct api_result *r, int i, enum timer_id t,
                    const struct timer_summary *sum)
{
    enum run_status st = results_sample_status(r, i, t);
    const struct timer_stat *ts = &r->it[i].t[t];
    char name[48];
    fprintf(out, "%d,%" PRId64 ",%s,%s,%d,%s,%" PRId64 ",", r->nprocs, r->xfer,
            api_desc(r->api)->key, results_measure_name(r, t, name, sizeof name), i + 1,
            results_status_name(st),
            results_timer_moves_data(t) ? results_sample_bytes(r, i, t) : 0);
    if (st == RUN_OK) {
        csv_number(out, ts->max);
        csv_number(out, ts->min);
        csv_number(out, ts->sum / r->nprocs);
    } else {
        fputs(",,,", out);
    }
    if (sum->n > 0)
        csv_number(out, sum->t_med);
    else
        fputc(',', out);
    if (st == RUN_IO_ERROR)
        csv_text(out, r->errors);
    else if (st == RUN_VERIFY_FAILED)
        csv_text(out, "data verification failed (see stderr)");
    /* The block pattern's layout, the interval, the API's variant: last,
     * so that the guide's columns keep their places. */
    fprintf(out, ",%s,", r->layout >= 0 ? layout_name(r->layout) : "");
    csv_interval(out, sum);
    csv_variant(out, r);
    fprintf(out, ",%" PRId64 "\n", r->buf_offset);
}

/* The median's 95% interval, empty below 6 iterations. */
static void csv_interval(FILE *out, const struct timer_summary *sum)
{
    if (sum->n > 0 && sum->t_ci.known) {
        csv_number(out, sum->t_ci.low);
        char text[32];
        jsonw_shortest(text, sizeof text, sum->t_ci.high);
        fputs(text, out);
    } else {
        fputc(',', out);
    }
}

/* The latency rows of a run: measure "<phase>_<call>_latency_<figure>",
 * the figure in seconds_median, no iteration, bytes or other seconds; none
 * for a direction without calls (write with --read-only, read with -w). */
static void csv_latency(FILE *out, const struct api_result *r)
{
    static const char *const fig[] = {"p50", "p90", "p99", "p99.9", "max"};
    for (int p = 0; p < 2; p++) {
        for (int c = 0; c < LATENCY_CALLS; c++) {
            const struct latency_summary *l = &r->latency[p][c];
            if (l->calls == 0)
                continue;
            double v[5] = {l->q[0], l->q[1], l->q[2], l->q[3], l->max};
            for (int f = 0; f < 5; f++) {
                fprintf(out, "%d,%" PRId64 ",%s,%s_%s_latency_%s,,ok,,,,,", r->nprocs, r->xfer,
                        api_desc(r->api)->key, p == 0 ? "write" : "read",
                        latency_call_name((enum latency_call)c), fig[f]);
                csv_number(out, v[f]);
                fprintf(out, ",%s,,", r->layout >= 0 ? layout_name(r->layout) : "");
                csv_variant(out, r);
                fprintf(out, ",%" PRId64 "\n", r->buf_offset);
            }
        }
    }
}

int csv_write(FILE *out, const struct report_settings *cfg, const struct results_log *log)
{
    enum timer_id m[TIMER_COUNT];
    fputs(CSV_HEADER "\n", out);
    for (int k = 0; k < log->count; k++) {
        int nm = results_measures(&log->runs[k], cfg, m);
        for (int j = 0; j < nm; j++) {
            struct timer_summary sum;
            results_measure_summary(&log->runs[k], m[j], &sum);
            for (int i = 0; i < log->runs[k].iterations; i++)
                csv_row(out, &log->runs[k], i, m[j], &sum);
        }
        csv_latency(out, &log->runs[k]);
    }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
