/* text_overhead(): the optional closing section of the text report
 * (docs/original.md §0 keeps the default report byte-compatible, so it is only
 * written with --overhead). Ratios of median throughputs from
 * results_measure_summary(). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/text.h"

/* The run of api at (P, X), or NULL. */
static const struct api_result *overhead_find(const struct results_log *log, int nprocs,
                                              int64_t xfer, enum api_id api)
{
    for (int i = 0; i < log->count; i++)
        if (log->runs[i].nprocs == nprocs && log->runs[i].xfer == xfer && log->runs[i].api == api)
            return &log->runs[i];
    return NULL;
}

/* Median MB/s of timer t, or 0 when the run is missing or failed. */
static double overhead_mbs(const struct api_result *r, enum timer_id t)
{
    struct timer_summary s;
    return r && results_measure_summary(r, t, &s) > 0 ? s.mbs_med : 0.0;
}

static void overhead_ratio(FILE *out, int width, double num, double den)
{
    if (num > 0.0 && den > 0.0)
        fprintf(out, "  %*.2f", width, num / den);
    else
        fprintf(out, "  %*s", width, "-");
}

/* True if (P, X) of run i was not seen before it in the log. */
static bool overhead_first(const struct results_log *log, int i)
{
    for (int j = 0; j < i; j++)
        if (log->runs[j].nprocs == log->runs[i].nprocs && log->runs[j].xfer == log->runs[i].xfer)
            return false;
    return true;
}

void text_overhead(FILE *out, const struct report_settings *cfg, const struct results_log *log)
{
    static const struct {
        enum timer_id t;
        const char *name;
    } rows[4] = {{TIMER_WRITE_FINE, "Write"},
                 {TIMER_WRITE_GROSS, "Write Open-Close"},
                 {TIMER_READ_FINE, "Read"},
                 {TIMER_READ_GROSS, "Read Open-Close"}};
    fputs("\nOverhead summary (ratios of median throughputs; below 1.00: the first API is "
          "slower; -: not run or failed):\n",
          out);
    /* Each API over the one it is layered over (api.h); another API's
     * column only when it ran: the default report keeps its layout
     * (docs/pnetcdf.md). */
    int cols[API_COUNT], width[API_COUNT];
    int ncols = api_ratios(cfg->apis, true, cols);
    fprintf(out, "  %9s  %13s  %-16s", "Processes", "Transfer size", "Measure");
    for (int c = 0; c < ncols; c++) {
        char name[64];
        const struct api_desc *a = api_desc((enum api_id)cols[c]);
        snprintf(name, sizeof name, "%s/%s", a->err_name, api_desc((enum api_id)a->over)->err_name);
        width[c] = strlen(name) > 12 ? (int)strlen(name) : 12;
        fprintf(out, "  %*s", width[c], name);
    }
    fputc('\n', out);
    for (int i = 0; i < log->count; i++) {
        if (!overhead_first(log, i))
            continue;
        int p = log->runs[i].nprocs;
        int64_t x = log->runs[i].xfer;
        char size[32];
        text_size(size, sizeof size, x);
        for (int k = 0; k < 4; k++) {
            bool is_read = results_timer_is_read(rows[k].t);
            if ((is_read && cfg->write_only) || (!is_read && cfg->read_only))
                continue;
            fprintf(out, "  %9d  %13s  %-16s", p, size, rows[k].name);
            for (int c = 0; c < ncols; c++) {
                enum api_id up = (enum api_id)cols[c];
                double num = overhead_mbs(overhead_find(log, p, x, up), rows[k].t);
                double den = overhead_mbs(overhead_find(log, p, x, (enum api_id)api_desc(up)->over),
                                          rows[k].t);
                overhead_ratio(out, width[c], num, den);
            }
            fputc('\n', out);
        }
    }
}
