/* The block pattern's text report (docs/block.md): a header, then per
 * process count one table of throughputs, rows API x layout, and the two
 * ratios the NERSC talk asks for: each API over MPI-IO on the same layout
 * (the library's overhead) and each layout over the file per process on
 * the same API (the cost of a shared file). Formats only: the figures are
 * results_summarize()'s. */
#include "report/block.h"

#include <math.h>
#include <string.h>

#include "cli/dims.h"
#include "cli/dist.h"
#include "cli/sweep.h"
#include "pattern/model.h"
#include "pattern/particles.h"

#define BLOCK_MB 1048576.0

/* "Particles pattern: imbalance:0.5 around 1048576 per process, 8
 * variables of 4-byte elements (x, y, z, px, py, pz, id_1, id_2)". */
static void particles_header(FILE *out, const struct config *cfg)
{
    char dist[256];
    dist_text(cfg, dist, sizeof dist);
    fprintf(out, "Particles pattern: %s", dist);
    if (cfg->dist.kind == DIST_UNIFORM)
        fprintf(out, ", %lld per process", (long long)cfg->dist.mean);
    else if (cfg->dist.kind != DIST_LIST)
        fprintf(out, " around %lld per process", (long long)cfg->dist.mean);
    if (cfg->dist.kind == DIST_NORMAL)
        fprintf(out, ", seed %llu", (unsigned long long)cfg->dist.seed);
    fprintf(out, ", %d variable%s of 4-byte elements (", cfg->nvars, cfg->nvars == 1 ? "" : "s");
    for (int v = 0; v < cfg->nvars; v++)
        fprintf(out, "%s%s", v ? ", " : "", particles_var_name(v));
    fprintf(out, ")\n");
}

void text_block_header(FILE *out, const struct config *cfg, const char *hdf5_version)
{
    fprintf(out, "HDF5 Library: Version %s\n", hdf5_version);
    if (cfg->pattern == PATTERN_PARTICLES) {
        particles_header(out, cfg);
    } else {
        char dims[96];
        dims_text(dims, sizeof dims, cfg->ndims, cfg->global);
        int64_t n = model_product(cfg->ndims, cfg->global);
        double mb = (double)n * cfg->elem * cfg->nvars / BLOCK_MB;
        fprintf(out,
                "Block pattern: array %s of %d-byte elements, %d variable%s, %.2f MB per phase\n",
                dims, cfg->elem, cfg->nvars, cfg->nvars == 1 ? "" : "s", mb);
    }
    fprintf(out, "Layouts:");
    for (int l = 0; l < cfg->nlayouts; l++)
        fprintf(out, " %s", dims_layout_name(cfg->layouts[l]));
    fprintf(out, "\nAPIs:");
    for (int a = 0; a < API_COUNT; a++)
        if (cfg->apis & API_BIT(a))
            fprintf(out, " %s", api_desc((enum api_id)a)->key);
    fprintf(out, "\nI/O method for MPI-IO and HDF5: %s\n",
            cfg->collective ? "collective" : "independent");
    fprintf(out, "Iterations: %d\n", cfg->iterations);
    fprintf(out, "Env HDF5_PARAPREFIX=%s\n\n", cfg->paraprefix ? cfg->paraprefix : "not set");
}

/* The run of api and layout at nprocs in the log placed as given, or
 * NULL. */
static const struct api_result *block_find_at(const struct results_log *log, int nprocs,
                                              enum api_id api, int layout, int64_t align,
                                              int64_t shift)
{
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs == nprocs && r->api == api && r->layout == layout && r->align == align &&
            r->shift == shift)
            return r;
    }
    return NULL;
}

/* The run of api and layout at nprocs of the main tables: placed by the
 * first --align-data and --shift values where they apply. */
static const struct api_result *block_find(const struct config *cfg, const struct results_log *log,
                                           int nprocs, enum api_id api, int layout)
{
    bool placed = sweep_placeable((enum pattern_layout)layout, api);
    int64_t align = placed && cfg->nalign ? cfg->align_data[0] : 0;
    int64_t shift = placed && cfg->nshift ? cfg->shifts[0] : 0;
    return block_find_at(log, nprocs, api, layout, align, shift);
}

/* The figure the ratios compare: the median with three iterations or more,
 * else the throughput of the mean time; NAN if the measure failed. */
static double block_figure(const struct api_result *r, enum timer_id t)
{
    struct timer_summary s;
    if (!r || results_measure_summary(r, t, &s) == 0)
        return NAN;
    return s.n >= 3 ? s.mbs_med : s.mbs_avg;
}

static void block_cells(FILE *out, const struct config *cfg, const struct api_result *r,
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

static void block_ratio(FILE *out, double num, double den)
{
    if (isnan(num) || isnan(den) || den <= 0)
        fprintf(out, " %7s", "-");
    else
        fprintf(out, " %7.2f", num / den);
}

/* One ratio table: rows API x layout, each over the reference run ref()
 * picks (MPI-IO on the same layout, or fpp with the same API). */
static void block_ratios(FILE *out, const struct config *cfg, const struct results_log *log,
                         int nprocs, bool over_mpiio)
{
    bool wrote = false;
    for (int a = 0; a < API_COUNT; a++) {
        if (!(cfg->apis & API_BIT(a)) || (over_mpiio && a == API_MPIIO))
            continue;
        for (int l = 0; l < cfg->nlayouts; l++) {
            int layout = (int)cfg->layouts[l];
            if (!over_mpiio && layout == LAYOUT_FPP)
                continue;
            const struct api_result *r = block_find(cfg, log, nprocs, (enum api_id)a, layout);
            const struct api_result *ref =
                over_mpiio ? block_find(cfg, log, nprocs, API_MPIIO, layout)
                           : block_find(cfg, log, nprocs, (enum api_id)a, LAYOUT_FPP);
            if (!r || !ref)
                continue;
            if (!wrote)
                fprintf(out, "    %-7s %-8s %7s %7s\n", "API", "Layout", "Write", "Read");
            wrote = true;
            fprintf(out, "    %-7s %-8s", api_desc((enum api_id)a)->err_name,
                    dims_layout_name((enum pattern_layout)layout));
            block_ratio(out, block_figure(r, TIMER_WRITE_GROSS),
                        block_figure(ref, TIMER_WRITE_GROSS));
            block_ratio(out, block_figure(r, TIMER_READ_GROSS),
                        block_figure(ref, TIMER_READ_GROSS));
            fputc('\n', out);
        }
    }
    if (!wrote)
        fprintf(out, "    (not measured: %s)\n",
                over_mpiio ? "give mpiio and another API" : "give fpp and another layout");
}

/* "grid 2x2", or "4194304 particles, 0 to 2097152 per process". */
static void block_what(const struct config *cfg, int nprocs, char *buf, size_t len)
{
    if (cfg->pattern == PATTERN_PARTICLES) {
        struct particle_dist d = dist_of(cfg);
        int64_t total, least, most;
        particles_summary(&d, nprocs, &total, &least, &most);
        snprintf(buf, len, "%lld particles, %lld to %lld per process", (long long)total,
                 (long long)least, (long long)most);
        return;
    }
    int grid[MODEL_MAX_DIMS];
    sweep_grid(cfg, nprocs, grid);
    int64_t g[MODEL_MAX_DIMS] = {grid[0], grid[1], grid[2]};
    char gt[64];
    dims_text(gt, sizeof gt, cfg->ndims, g);
    snprintf(buf, len, "grid %s", gt);
}

/* "4K" for multiples of 1024, else bytes; "-" for none. */
static void block_size_text(char *buf, size_t len, int64_t v)
{
    if (v >= 1048576 && v % 1048576 == 0)
        snprintf(buf, len, "%lldM", (long long)(v / 1048576));
    else if (v >= 1024 && v % 1024 == 0)
        snprintf(buf, len, "%lldK", (long long)(v / 1024));
    else
        snprintf(buf, len, "%lld", (long long)v);
}

/* Throughput against --align-data and --shift: every placed run of the
 * process count (docs/particles.md, "Alignment"). */
static void block_places(FILE *out, const struct config *cfg, const struct results_log *log,
                         int nprocs)
{
    bool med = cfg->iterations >= 3;
    fprintf(out, "Alignment: MB/s against --align-data and --shift (%s)\n",
            med ? "medians" : "averages");
    fprintf(out, "    %-7s %-8s %8s %8s %9s %9s\n", "API", "Layout", "Align", "Shift", "Write",
            "Read");
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs || !sweep_placeable((enum pattern_layout)r->layout, r->api))
            continue;
        char a[32], s[32];
        if (r->align)
            block_size_text(a, sizeof a, r->align);
        else
            snprintf(a, sizeof a, "packed");
        block_size_text(s, sizeof s, r->shift);
        fprintf(out, "    %-7s %-8s %8s %8s", api_desc(r->api)->err_name,
                dims_layout_name((enum pattern_layout)r->layout), a, s);
        for (int t = 0; t < 2; t++) {
            double f = block_figure(r, t ? TIMER_READ_GROSS : TIMER_WRITE_GROSS);
            if (isnan(f) || (t ? cfg->write_only : cfg->read_only))
                fprintf(out, " %9s", "-");
            else
                fprintf(out, " %9.2f", f);
        }
        fputc('\n', out);
    }
}

void text_block_table(FILE *out, const struct config *cfg, const struct results_log *log,
                      int nprocs)
{
    bool med = cfg->iterations >= 3, wr = !cfg->read_only, rd = !cfg->write_only;
    char what[128];
    block_what(cfg, nprocs, what, sizeof what);
    fprintf(out, "Number of processors = %d (%s); MB/s including open and close\n", nprocs, what);
    fprintf(out, "    %-7s %-8s %-*s %s\n", "", "", med ? 40 : 30, "Write MB/s", "Read MB/s");
    fprintf(out, "    %-7s %-8s", "API", "Layout");
    for (int p = 0; p < 2; p++)
        fprintf(out, " %9s %9s %9s%s", "Max", "Avg", "Min", med ? "    Median" : "");
    fputc('\n', out);
    for (int a = 0; a < API_COUNT; a++)
        for (int l = 0; l < cfg->nlayouts && (cfg->apis & API_BIT(a)); l++) {
            const struct api_result *r =
                block_find(cfg, log, nprocs, (enum api_id)a, (int)cfg->layouts[l]);
            fprintf(out, "    %-7s %-8s", api_desc((enum api_id)a)->err_name,
                    dims_layout_name(cfg->layouts[l]));
            block_cells(out, cfg, r, TIMER_WRITE_GROSS, wr);
            block_cells(out, cfg, r, TIMER_READ_GROSS, rd);
            fputc('\n', out);
        }
    fprintf(out, "Library overhead: throughput over MPI-IO's on the same layout (%s)\n",
            med ? "medians" : "averages");
    block_ratios(out, cfg, log, nprocs, true);
    fprintf(out, "Shared file: throughput over the file per process's with the same API (%s)\n",
            med ? "medians" : "averages");
    block_ratios(out, cfg, log, nprocs, false);
    if (cfg->nalign || cfg->nshift)
        block_places(out, cfg, log, nprocs);
    fputc('\n', out);
}
