/* The application patterns' text report (docs/block.md) and their part of
 * the results' config. Formats only: no MPI, no statistics beyond
 * results_summarize(). */
#ifndef H5PERF_REPORT_TABLE_H
#define H5PERF_REPORT_TABLE_H

#include <stdio.h>

#include "report/settings.h"
#include "report/results.h"

/* The header: HDF5's version, the workload (the pattern's line, with its
 * newline), layouts, APIs, I/O method, the lines of the APIs' own options
 * (api_header_at), iterations, HDF5_PARAPREFIX. */
void table_header(FILE *out, const struct report_settings *cfg, const char *hdf5_version,
                  const char *workload);

/* The table of one process count from the log (what: "grid 2x2"):
 * throughputs (max, average, min, and the median with -i 3 or more) of
 * write and read, open and close included, per API and layout; then each
 * API over the reference API, and each layout over fpp; the placements. */
void table_write(FILE *out, const struct report_settings *cfg, const struct results_log *log,
                 int nprocs, const char *what);

#endif
