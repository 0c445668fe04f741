/* measures.h: one table per option, one line per run (its label and API),
 * figures from the results model only. */
#include "report/measures.h"

#include <inttypes.h>
#include <string.h>

/* The Run column: at least this wide, and as wide as the count's longest
 * label ("layout shared, nonblocking, align-data 4KB"), so that the
 * columns after it stay aligned. */
#define RUN_WIDTH 24

static int measures_width(const struct results_log *log, int nprocs)
{
    int w = RUN_WIDTH;
    for (int i = 0; i < log->count; i++) {
        int n = (int)strlen(log->runs[i].label);
        if (log->runs[i].nprocs == nprocs && n > w)
            w = n;
    }
    return w;
}

static void measures_run(FILE *out, const struct api_result *r, int width)
{
    fprintf(out, "    %-*s %-8s", width, r->label, api_desc(r->api)->err_name);
}

/* The write phase's open-close measure's summary. */
static void measures_phase(const struct api_result *r, enum timer_id t, struct timer_summary *s)
{
    results_measure_summary(r, t, s);
}

static void measures_stonewall(FILE *out, const struct report_settings *cfg,
                               const struct results_log *log, int nprocs)
{
    int w = measures_width(log, nprocs);
    fprintf(out,
            "Stonewall after %g s: calls each process completed before it stopped (fewest, "
            "most), MB/s of the data every process had written when the last stopped, and "
            "of the whole write phase with the wear-out (medians)\n",
            cfg->stonewall);
    fprintf(out, "    %-*s %-8s %12s %12s %14s %12s\n", w, "Run", "API", "Calls min", "Calls max",
            "Stonewall MB/s", "Phase MB/s");
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs)
            continue;
        int64_t lo = INT64_MAX, hi = 0;
        double rates[REPORT_MAX_SWEEP * 64];
        int n = 0;
        for (int k = 0; k < r->iterations; k++) {
            const struct stonewall_stat *sw = &r->it[k].sw;
            if (!r->it[k].stonewalled)
                continue;
            lo = sw->calls_min < lo ? sw->calls_min : lo;
            hi = sw->calls_max > hi ? sw->calls_max : hi;
            if (n < (int)(sizeof rates / sizeof rates[0]))
                rates[n++] = sw->seconds > 0 ? sw->bytes / 1048576.0 / sw->seconds : 0;
        }
        struct timer_summary s;
        measures_phase(r, TIMER_WRITE_GROSS, &s);
        measures_run(out, r, w);
        if (n == 0) {
            fprintf(out, " %12s\n", "failed");
            continue;
        }
        /* The median of a few values: sorted by insertion. */
        for (int a = 1; a < n; a++)
            for (int b = a; b > 0 && rates[b] < rates[b - 1]; b--) {
                double x = rates[b];
                rates[b] = rates[b - 1];
                rates[b - 1] = x;
            }
        double med = n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
        fprintf(out, " %12" PRId64 " %12" PRId64 " %14.2f %12.2f\n", lo, hi, med, s.mbs_med);
    }
}

static void measures_duration(FILE *out, const struct report_settings *cfg,
                              const struct results_log *log, int nprocs)
{
    int w = measures_width(log, nprocs);
    fprintf(out,
            "Writes repeated for %g s (%s): MB/s over the whole duration (median over "
            "iterations), and the repetitions' spread (of the last iteration)\n",
            cfg->duration, cfg->repeat_overwrite ? "the same file overwritten" : "each a new file");
    fprintf(out, "    %-*s %-8s %11s %12s %10s %10s %10s\n", w, "Run", "API", "Repetitions", "MB/s",
            "Min", "Max", "SD");
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs)
            continue;
        struct timer_summary s;
        measures_phase(r, TIMER_WRITE_GROSS, &s);
        measures_run(out, r, w);
        const struct repeat_stat *rep = r->iterations ? &r->it[r->iterations - 1].rep : NULL;
        if (!rep || rep->count == 0 || s.n == 0) {
            fprintf(out, " %11s\n", "failed");
            continue;
        }
        fprintf(out, " %11d %12.2f %10.2f %10.2f %10.2f\n", rep->count, s.mbs_med, rep->mbs_min,
                rep->mbs_max, rep->mbs_sd);
    }
}

static void measures_confidence(FILE *out, const struct report_settings *cfg,
                                const struct results_log *log, int nprocs)
{
    int w = measures_width(log, nprocs);
    fprintf(out,
            "Medians and their 95%% intervals (--confidence %g%%: until every interval is "
            "within that of its median, at most %d iterations%s)\n",
            cfg->confidence * 100, cfg->max_iterations, cfg->max_time > 0 ? " or --max-time" : "");
    fprintf(out, "    %-*s %-8s %-18s %12s %25s %10s  %s\n", w, "Run", "API", "Measure",
            "Median MB/s", "95% interval", "Iterations", "Stopped by");
    enum timer_id m[TIMER_COUNT];
    char name[48];
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs)
            continue;
        int nm = results_measures(r, cfg, m);
        for (int k = 0; k < nm; k++) {
            struct timer_summary s;
            if (!results_timer_moves_data(m[k]))
                continue;
            results_measure_summary(r, m[k], &s);
            measures_run(out, r, w);
            fprintf(out, " %-18s", results_measure_name(r, m[k], name, sizeof name));
            if (s.n == 0)
                fprintf(out, " %12s\n", "failed");
            else if (!s.mbs_ci.known)
                fprintf(out, " %12.2f %25s %10d  %s\n", s.mbs_med, "(too few iterations)", s.n,
                        results_stop_name(r->stop));
            else
                fprintf(out, " %12.2f %12.2f - %10.2f %10d  %s\n", s.mbs_med, s.mbs_ci.low,
                        s.mbs_ci.high, s.n, results_stop_name(r->stop));
        }
    }
}

static void measures_latency(FILE *out, const struct report_settings *cfg,
                             const struct results_log *log, int nprocs)
{
    int w = measures_width(log, nprocs);
    fprintf(out, "Latency of each call in seconds, over every process and iteration\n");
    fprintf(out, "    %-*s %-8s %-6s %-9s %9s %10s %10s %10s %10s %10s\n", w, "Run", "API", "Phase",
            "Call", "Calls", "p50", "p90", "p99", "p99.9", "max");
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs)
            continue;
        for (int p = 0; p < 2; p++) {
            bool none = true;
            for (int c = 0; c < LATENCY_CALLS; c++)
                none &= r->latency[p][c].calls == 0;
            if ((p == 0 ? cfg->read_only : cfg->write_only) && none)
                continue;
            for (int c = 0; c < LATENCY_CALLS; c++) {
                const struct latency_summary *l = &r->latency[p][c];
                measures_run(out, r, w);
                fprintf(out, " %-6s %-9s %9" PRIu64, p == 0 ? "write" : "read",
                        latency_call_name((enum latency_call)c), l->calls);
                if (l->calls)
                    fprintf(out, " %10.3e %10.3e %10.3e %10.3e %10.3e", l->q[0], l->q[1], l->q[2],
                            l->q[3], l->max);
                fputc('\n', out);
            }
        }
    }
}

void measures_text(FILE *out, const struct report_settings *cfg, const struct results_log *log,
                   int nprocs)
{
    if (cfg->stonewall > 0)
        measures_stonewall(out, cfg, log, nprocs);
    if (cfg->duration > 0)
        measures_duration(out, cfg, log, nprocs);
    if (cfg->confidence > 0)
        measures_confidence(out, cfg, log, nprocs);
    if (cfg->latency)
        measures_latency(out, cfg, log, nprocs);
    if (cfg->stonewall > 0 || cfg->duration > 0 || cfg->confidence > 0 || cfg->latency)
        fputc('\n', out);
}
