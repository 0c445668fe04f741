/* The application patterns' text report (docs/block.md): a header, then per
 * process count one table of throughputs, rows API x layout, and the two
 * ratios the NERSC talk asks for: each API over the reference API (raw
 * MPI-IO) on the same layout (the library's overhead) and each layout over
 * the file per process on the same API (the cost of a shared file). Formats
 * only: the figures are results_summarize()'s. */
#include "report/table.h"

#include <math.h>
#include <string.h>

#include "plan/point.h"
#include "report/reference.h"

void table_header(FILE *out, const struct report_settings *cfg, const char *hdf5_version,
                  const char *workload)
{
    fprintf(out, "HDF5 Library: Version %s\n", hdf5_version);
    fputs(workload, out);
    fprintf(out, "Layouts:");
    for (int l = 0; l < cfg->nlayouts; l++)
        fprintf(out, " %s", layout_name(cfg->layouts[l]));
    fprintf(out, "\nAPIs:");
    for (int a = 0; a < API_COUNT; a++)
        if (cfg->apis & API_BIT(a))
            fprintf(out, " %s", api_desc((enum api_id)a)->key);
    fprintf(out, "\nI/O method for MPI-IO and HDF5: %s\n",
            cfg->collective ? "collective" : "independent");
    for (int i = 0; i < cfg->nheaders; i++)
        fprintf(out, "%s: %s\n", cfg->headers[i].label, cfg->headers[i].text);
    fprintf(out, "Iterations: %d\n", cfg->iterations);
    fprintf(out, "Env HDF5_PARAPREFIX=%s\n\n", cfg->paraprefix ? cfg->paraprefix : "not set");
}

/* The run of api's variant and layout at nprocs of the main tables: the
 * first in the log, which the first --align-data, --shift and
 * --buffer-offset values placed where they apply (the points list them
 * first). */
static const struct api_result *table_find(const struct results_log *log, int nprocs, int api,
                                           int variant, int layout)
{
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs == nprocs && (int)r->api == api && r->variant == variant &&
            r->layout == layout)
            return r;
    }
    return NULL;
}

/* The rows of the tables: (API, layout, variant) of cfg in run order, each
 * variant of an API (api/api.h) a row of its own after its layout's
 * ("shared, subfiled"), on the layouts it runs. Row i into *a, *v, *l;
 * false past the last. */
static bool table_row(const struct report_settings *cfg, int i, int *a, int *v, int *l)
{
    int n = 0;
    for (*a = 0; *a < API_COUNT; (*a)++) {
        unsigned chosen = cfg->apis & API_BIT(*a) ? cfg->variants[*a] : 0;
        for (int k = 0; chosen && k < cfg->nlayouts; k++)
            for (*v = 0; *v < 32; (*v)++) {
                *l = cfg->layouts[k];
                bool other = layout_desc(*l)->per_process &&
                             api_variant_per_process((enum api_id) * a, *v) != *v;
                if ((chosen >> *v & 1u) && !other && n++ == i)
                    return true;
            }
    }
    return false;
}

/* The layout column of a row: "shared", "shared, subfiled". */
static void table_layout_text(int a, int v, int l, char *buf, size_t len)
{
    api_variant_text((enum api_id)a, v, layout_name(l), buf, len);
}

/* The width of the layout column: its heading's, or the widest row's. */
static int table_layout_width(const struct report_settings *cfg)
{
    int width = 8, a, v, l;
    char text[96];
    for (int i = 0; table_row(cfg, i, &a, &v, &l); i++) {
        table_layout_text(a, v, l, text, sizeof text);
        width = (int)strlen(text) > width ? (int)strlen(text) : width;
    }
    return width;
}

/* The layout of a file per process: the reference of the shared-file
 * ratios; -1 if none. */
static int table_per_process_layout(void)
{
    for (int l = 0; l < LAYOUT_COUNT; l++)
        if (layout_desc(l)->per_process)
            return l;
    return -1;
}

/* Is a run placed by --align-data and --shift (a flat shared file)? */
static bool table_placed(const struct api_result *r)
{
    return !layout_desc(r->layout)->per_process && (api_desc(r->api)->caps & API_CAP_FLAT_FILE);
}

/* The figure the ratios compare: the median with three iterations or more,
 * else the throughput of the mean time; NAN if the measure failed. */

static void table_cells(FILE *out, const struct report_settings *cfg, const struct api_result *r,
                        enum timer_id t, bool phase)
{
    struct timer_summary s;
    int width = cfg->iterations >= 3 ? 4 : 3;
    if (!phase) {
        for (int i = 0; i < width; i++)
            fprintf(out, " %9s", "-");
        return;
    }
    if (!r || results_measure_summary(r, t, &s) == 0) {
        fprintf(out, " %9s", "FAILED");
        for (int i = 1; i < width; i++)
            fprintf(out, " %9s", "");
        return;
    }
    fprintf(out, " %9.2f %9.2f %9.2f", s.mbs_max, s.mbs_avg, s.mbs_min);
    if (width == 4)
        fprintf(out, " %9.2f", s.mbs_med);
}

static void table_ratio(FILE *out, double num, double den)
{
    if (isnan(num) || isnan(den) || den <= 0)
        fprintf(out, " %7s", "-");
    else
        fprintf(out, " %7.2f", num / den);
}

/* A table's reference run of variant k: the first at the process count
 * and layout, as table_find(). */
struct table_query {
    const struct results_log *log;
    int nprocs, layout;
};

static bool table_ref_ran(int k, const void *arg)
{
    const struct table_query *q = arg;
    return table_find(q->log, q->nprocs, api_reference(), k, q->layout) != NULL;
}

/* The reference run of row (a, v, layout): MPI-IO on the same layout, with
 * the same method (reference_variant()). */
static const struct api_result *table_ref(const struct results_log *log, int nprocs, int a, int v,
                                          int layout)
{
    struct table_query q = {log, nprocs, layout};
    return table_find(log, nprocs, api_reference(), reference_variant(a, v, table_ref_ran, &q),
                      layout);
}

/* One ratio table: rows API x variant x layout, each over the reference
 * run: MPI-IO on the same layout with the same method (table_ref()), or
 * the file per process with the same API (and the variant a file of one
 * process runs). Where a row of the library overhead is over a variant of
 * MPI-IO (its joined calls), an "Over" column names each row's reference,
 * so that the table says which run every ratio divides by. */
static void table_ratios(FILE *out, const struct report_settings *cfg,
                         const struct results_log *log, int nprocs, bool over_api)
{
    bool wrote = false, named = false;
    int ref_api = api_reference(), fpp = table_per_process_layout(), a, v, layout;
    int width = table_layout_width(cfg);
    for (int i = 0; over_api && table_row(cfg, i, &a, &v, &layout); i++) {
        const struct api_result *ref = a != ref_api ? table_ref(log, nprocs, a, v, layout) : NULL;
        named |= ref && ref->variant != 0 && table_find(log, nprocs, a, v, layout);
    }
    for (int i = 0; table_row(cfg, i, &a, &v, &layout); i++) {
        if ((over_api && a == ref_api) || (!over_api && layout == fpp))
            continue;
        const struct api_result *r = table_find(log, nprocs, a, v, layout);
        const struct api_result *ref =
            over_api ? table_ref(log, nprocs, a, v, layout)
                     : table_find(log, nprocs, a, api_variant_per_process((enum api_id)a, v), fpp);
        if (!r || !ref)
            continue;
        if (!wrote && named)
            fprintf(out, "    %-7s %-*s %-7s %-*s %7s %7s\n", "API", width, "Layout", "Over", width,
                    "", "Write", "Read");
        else if (!wrote)
            fprintf(out, "    %-7s %-*s %7s %7s\n", "API", width, "Layout", "Write", "Read");
        wrote = true;
        char text[96];
        table_layout_text(a, v, layout, text, sizeof text);
        fprintf(out, "    %-7s %-*s", api_desc((enum api_id)a)->err_name, width, text);
        if (named) {
            table_layout_text(ref_api, ref->variant, layout, text, sizeof text);
            fprintf(out, " %-7s %-*s", api_desc((enum api_id)ref_api)->err_name, width, text);
        }
        table_ratio(out, reference_figure(r, TIMER_WRITE_GROSS),
                    reference_figure(ref, TIMER_WRITE_GROSS));
        table_ratio(out, reference_figure(r, TIMER_READ_GROSS),
                    reference_figure(ref, TIMER_READ_GROSS));
        fputc('\n', out);
    }
    if (!wrote)
        fprintf(out, "    (not measured: %s)\n",
                over_api ? "give mpiio and another API" : "give fpp and another layout");
}

/* "4K" for multiples of 1024, else bytes; "-" for none. */
static void table_size_text(char *buf, size_t len, int64_t v)
{
    if (v >= 1048576 && v % 1048576 == 0)
        snprintf(buf, len, "%lldM", (long long)(v / 1048576));
    else if (v >= 1024 && v % 1024 == 0)
        snprintf(buf, len, "%lldK", (long long)(v / 1024));
    else
        snprintf(buf, len, "%lld", (long long)v);
}

/* The write and read figures of r, "-" where not measured. */
static void table_figures(FILE *out, const struct report_settings *cfg, const struct api_result *r)
{
    for (int t = 0; t < 2; t++) {
        double f = reference_figure(r, t ? TIMER_READ_GROSS : TIMER_WRITE_GROSS);
        if (isnan(f) || (t ? cfg->write_only : cfg->read_only))
            fprintf(out, " %9s", "-");
        else
            fprintf(out, " %9.2f", f);
    }
    fputc('\n', out);
}

/* Throughput against --align-data and --shift: every placed run of the
 * process count (docs/particles.md, "Alignment"). */
static void table_places(FILE *out, const struct report_settings *cfg,
                         const struct results_log *log, int nprocs)
{
    bool med = cfg->iterations >= 3;
    fprintf(out, "Alignment: MB/s against --align-data and --shift (%s)\n",
            med ? "medians" : "averages");
    fprintf(out, "    %-7s %-8s %8s %8s %9s %9s\n", "API", "Layout", "Align", "Shift", "Write",
            "Read");
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs || !table_placed(r))
            continue;
        char a[32], s[32];
        if (r->align)
            table_size_text(a, sizeof a, r->align);
        else
            snprintf(a, sizeof a, "packed");
        table_size_text(s, sizeof s, r->shift);
        fprintf(out, "    %-7s %-8s %8s %8s", api_desc(r->api)->err_name, layout_name(r->layout), a,
                s);
        table_figures(out, cfg, r);
    }
}

/* Throughput against --buffer-offset: every run of the process count
 * (docs/performance.md, "Buffer offset"). */
static void table_offsets(FILE *out, const struct report_settings *cfg,
                          const struct results_log *log, int nprocs)
{
    fprintf(out, "Buffer offset: MB/s against --buffer-offset (%s)\n",
            cfg->iterations >= 3 ? "medians" : "averages");
    fprintf(out, "    %-7s %-8s %8s %9s %9s\n", "API", "Layout", "Offset", "Write", "Read");
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs)
            continue;
        fprintf(out, "    %-7s %-8s %8lld", api_desc(r->api)->err_name, layout_name(r->layout),
                (long long)r->buf_offset);
        table_figures(out, cfg, r);
    }
}

void table_write(FILE *out, const struct report_settings *cfg, const struct results_log *log,
                 int nprocs, const char *what)
{
    bool med = cfg->iterations >= 3, wr = !cfg->read_only, rd = !cfg->write_only;
    int width = table_layout_width(cfg), a, v, l;
    fprintf(out, "Number of processors = %d (%s); MB/s including open and close\n", nprocs, what);
    fprintf(out, "    %-7s %-*s %-*s %s\n", "", width, "", med ? 40 : 30, "Write MB/s",
            "Read MB/s");
    fprintf(out, "    %-7s %-*s", "API", width, "Layout");
    for (int p = 0; p < 2; p++)
        fprintf(out, " %9s %9s %9s%s", "Max", "Avg", "Min", med ? "    Median" : "");
    fputc('\n', out);
    for (int i = 0; table_row(cfg, i, &a, &v, &l); i++) {
        const struct api_result *r = table_find(log, nprocs, a, v, l);
        char text[96];
        table_layout_text(a, v, l, text, sizeof text);
        fprintf(out, "    %-7s %-*s", api_desc((enum api_id)a)->err_name, width, text);
        table_cells(out, cfg, r, TIMER_WRITE_GROSS, wr);
        table_cells(out, cfg, r, TIMER_READ_GROSS, rd);
        fputc('\n', out);
    }
    fprintf(out, "Library overhead: throughput over MPI-IO's on the same layout (%s)\n",
            med ? "medians" : "averages");
    table_ratios(out, cfg, log, nprocs, true);
    fprintf(out, "Shared file: throughput over the file per process's with the same API (%s)\n",
            med ? "medians" : "averages");
    table_ratios(out, cfg, log, nprocs, false);
    if (cfg->nalign || cfg->nshift)
        table_places(out, cfg, log, nprocs);
    if (cfg->nbuf_offset)
        table_offsets(out, cfg, log, nprocs);
    fputc('\n', out);
}
