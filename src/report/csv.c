/* csv_write(): the rows of csv.h. A failed sample keeps its row, with its
 * status and error and empty seconds, so that no failure is lost. */
#include "report/csv.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "plan/point.h"
#include "report/jsonw.h"
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

static void csv_row(FILE *out, const struct api_result *r, int i, enum timer_id t,
                    const struct timer_summary *sum)
{
    enum run_status st = results_sample_status(r, i, t);
    const struct timer_stat *ts = &r->it[i].t[t];
    fprintf(out, "%d,%" PRId64 ",%s,%s,%d,%s,%" PRId64 ",", r->nprocs, r->xfer,
            api_desc(r->api)->key, results_measure_name(t), i + 1, results_status_name(st),
            results_timer_moves_data(t) ? r->bytes : 0);
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
    /* The block pattern's layout, then the API's variant (empty: its
     * default): last, so that the guide's columns keep their places. */
    const struct api_variant *v = api_variant(r->api, r->variant);
    fprintf(out, ",%s,", r->layout >= 0 ? layout_name(r->layout) : "");
    csv_text(out, v ? v->label : NULL);
    fputc('\n', out);
}

int csv_write(FILE *out, const struct config *cfg, const struct results_log *log)
{
    enum timer_id m[TIMER_COUNT];
    int nm = results_measures(cfg, m);
    fputs(CSV_HEADER "\n", out);
    for (int k = 0; k < log->count; k++)
        for (int j = 0; j < nm; j++) {
            struct timer_summary sum;
            results_measure_summary(&log->runs[k], m[j], &sum);
            for (int i = 0; i < log->runs[k].iterations; i++)
                csv_row(out, &log->runs[k], i, m[j], &sum);
        }
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
