/* The madbench pattern's report sections and results (docs/madbench.md,
 * "Report"): the application patterns' header with MADbench2's parameters,
 * then per process count one line per run and measure, MADbench2's
 * figures (seconds per process: mean [min:max] over the processes, as its
 * _bw, _r and _w lines) and the throughput of the slowest process. Formats
 * only: every figure is the results model's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/madbench.h"
#include "report/table.h"

#define MADBENCH_MB 1048576.0

static void madbench_header(FILE *out, const struct config *c, int rank, const char *hdf5_version,
                            int max_info_val)
{
    (void)rank, (void)max_info_val;
    const struct madbench_settings *s = madbench_of(c);
    char line[352], busy[32];
    if (s->busy < 0)
        snprintf(busy, sizeof busy, "full");
    else
        snprintf(busy, sizeof busy, "%g", s->busy);
    snprintf(line, sizeof line,
             "MADbench pattern: NO_PIX %d, NO_BIN %d, NO_GANG %d, SBLOCKSIZE %d, FBLOCKSIZE %lld, "
             "RMOD %d, WMOD %d, BWEXP %s%s%s\n",
             s->pixels, s->bins, s->gang, s->sblock, (long long)s->fblock, s->read_mod,
             s->write_mod, busy, s->io_mode == MADBENCH_ASYNC ? ", IOMODE ASYNC" : "",
             s->opens == MADBENCH_OPENS_ONCE ? ", opened once" : "");
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_header(out, &rs, hdf5_version, line);
}

static int madbench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Over the iterations whose sample stands: the median of each figure with
 * 3 or more, else their mean (as the application patterns' tables). */
static double madbench_middle(double *v, int n)
{
    if (n < 3) {
        double sum = 0;
        for (int i = 0; i < n; i++)
            sum += v[i];
        return sum / n;
    }
    qsort(v, (size_t)n, sizeof *v, madbench_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One line: a run's measure t. */
static void madbench_line(FILE *out, const struct api_result *r, enum timer_id t)
{
    char name[48];
    fprintf(out, "    %-7s %-8s %-9s", api_desc(r->api)->err_name, layout_name(r->layout),
            results_measure_name(r, t, name, sizeof name));
    struct timer_summary s;
    if (results_measure_summary(r, t, &s) == 0) {
        fprintf(out, " %12s\n", "FAILED");
        return;
    }
    /* The record's room, free again once the summary is made. */
    double *v = results_scratch(r);
    int n = 0;
    for (int i = 0; i < r->iterations; i++) {
        if (results_sample_status(r, i, t) != RUN_OK)
            continue;
        const struct timer_stat *ts = &r->it[i].t[t];
        v[n] = ts->sum / r->nprocs;
        v[r->iterations + n] = ts->min;
        v[2 * r->iterations + n] = ts->max;
        n++;
    }
    double mean = madbench_middle(v, n), lo = madbench_middle(v + r->iterations, n);
    double hi = madbench_middle(v + 2 * r->iterations, n);
    fprintf(out, " %12.4f   [%10.4f:%10.4f]", mean, lo, hi);
    if (results_timer_moves_data(t))
        fprintf(out, " %11.2f\n", n >= 3 ? s.mbs_med : s.mbs_avg);
    else
        fprintf(out, " %11s\n", "-");
}

static void madbench_nprocs_end(FILE *out, const struct config *c, const struct results_log *log,
                                int nprocs)
{
    struct madbench_geom g;
    int side = madbench_side(nprocs);
    bool med = c->iterations >= 3;
    fprintf(out, "Number of processors = %d (a %dx%d grid", nprocs, side, side);
    if (madbench_geom(madbench_of(c), nprocs, &g) == MADBENCH_OK)
        fprintf(out, "; shares of %lld to %lld bytes in slots of %lld", (long long)g.min_share * 8,
                (long long)g.max_share * 8, (long long)g.offcount * 8);
    fprintf(out, ")\n");
    if (madbench_geom(madbench_of(c), nprocs, &g) == MADBENCH_OK && g.gangs > 1) {
        int64_t lo = madbench_gang_share(&g, 0), hi = lo;
        for (int r = 1; r < g.gang_procs; r++) {
            int64_t x = madbench_gang_share(&g, r);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        fprintf(out,
                "Gangs in W = %d of %d process%s (a %dx%d grid each; gang shares of %lld to %lld "
                "bytes in slots of %lld)\n",
                g.gangs, g.gang_procs, g.gang_procs == 1 ? "" : "es", g.gang_side, g.gang_side,
                (long long)lo * 8, (long long)hi * 8, (long long)g.gang_offcount * 8);
    }
    fprintf(out,
            "Seconds per process as MADbench2's: mean [min:max] over the processes (%s over "
            "iterations); MB/s of the slowest\n",
            med ? "medians" : "averages");
    fprintf(out, "    %-7s %-8s %-9s %12s   [%10s:%10s] %11s\n", "API", "Layout", "Measure", "Mean",
            "Min", "Max", "MB/s");
    enum timer_id m[TIMER_COUNT];
    struct report_settings rs;
    config_report_settings(c, &rs);
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs)
            continue;
        int nm = results_measures(r, &rs, m);
        for (int k = 0; k < nm; k++)
            madbench_line(out, r, m[k]);
    }
    fputc('\n', out);
}

const struct pattern_report madbench_report = {
    .header = madbench_header,
    .nprocs_end = madbench_nprocs_end,
};

void madbench_json_config(struct jsonw *w, const struct config *c)
{
    jsonw_key(w, "madbench");
    jsonw_object(w);
    pattern_json_rows(w, c, &pattern_madbench);
    jsonw_end(w);
}

/* The run's grid, its shares and slot in bytes, and the multiply-adds of
 * each busy work of each phase. */
void madbench_json_run(struct jsonw *w, const struct config *c, const struct api_result *r)
{
    struct madbench_geom g;
    if (madbench_geom(madbench_of(c), r->nprocs, &g) != MADBENCH_OK)
        return;
    jsonw_key(w, "madbench");
    jsonw_object(w);
    int grid[2] = {g.side, g.side};
    jsonw_key_grid(w, "grid", 2, grid);
    jsonw_key_int(w, "share_min", g.min_share * 8);
    jsonw_key_int(w, "share_max", g.max_share * 8);
    jsonw_key_int(w, "slot", g.offcount * 8);
    static const char *const phases[MADBENCH_PHASES] = {"S", "W", "C"};
    jsonw_key(w, "busy_multiply_adds");
    jsonw_object(w);
    for (int p = 0; p < MADBENCH_PHASES; p++)
        jsonw_key_int(w, phases[p], g.passes[p] * g.sblock);
    jsonw_end(w);
    jsonw_end(w);
}
