/* text_overhead(): the optional closing section of the text report
 * (docs/original.md §0 keeps the default report byte-compatible, so it is only
 * written with --overhead). Ratios of median throughputs from
 * results_measure_summary(). */
#include <inttypes.h>
#include <stdbool.h>

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

static void overhead_ratio(FILE *out, double num, double den)
{
    if (num > 0.0 && den > 0.0)
        fprintf(out, "  %12.2f", num / den);
    else
        fprintf(out, "  %12s", "-");
}

/* True if (P, X) of run i was not seen before it in the log. */
static bool overhead_first(const struct results_log *log, int i)
{
    for (int j = 0; j < i; j++)
        if (log->runs[j].nprocs == log->runs[i].nprocs && log->runs[j].xfer == log->runs[i].xfer)
            return false;
    return true;
}

void text_overhead(FILE *out, const struct config *cfg, const struct results_log *log)
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
    /* PnetCDF's column only when it ran: the default report keeps its
     * layout (docs/pnetcdf.md). */
    bool pnetcdf = cfg->apis & API_BIT(API_PNETCDF);
    fprintf(out, "  %9s  %13s  %-16s  %12s  %12s", "Processes", "Transfer size", "Measure",
            "HDF5/MPI-IO", "MPI-IO/POSIX");
    if (pnetcdf)
        fprintf(out, "  %14s", "PnetCDF/MPI-IO");
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
            double posix = overhead_mbs(overhead_find(log, p, x, API_POSIX), rows[k].t);
            double mpiio = overhead_mbs(overhead_find(log, p, x, API_MPIIO), rows[k].t);
            double hdf5 = overhead_mbs(overhead_find(log, p, x, API_PHDF5), rows[k].t);
            fprintf(out, "  %9d  %13s  %-16s", p, size, rows[k].name);
            overhead_ratio(out, hdf5, mpiio);
            overhead_ratio(out, mpiio, posix);
            if (pnetcdf) {
                double nc = overhead_mbs(overhead_find(log, p, x, API_PNETCDF), rows[k].t);
                fprintf(out, "  ");
                overhead_ratio(out, nc, mpiio);
            }
            fputc('\n', out);
        }
    }
}
