/* The block pattern's text report (docs/block.md). Formats only: no MPI,
 * no statistics beyond results_summarize(). */
#ifndef H5PERF_REPORT_BLOCK_H
#define H5PERF_REPORT_BLOCK_H

#include <stdio.h>

#include "cli/sweep.h"
#include "report/results.h"

/* The header: HDF5's version, the array, layouts, APIs, I/O method,
 * iterations, HDF5_PARAPREFIX. */
void text_block_header(FILE *out, const struct config *cfg, const char *hdf5_version);

/* The table of one process count from the log: throughputs (max, average,
 * min, and the median with -i 3 or more) of write and read, open and close
 * included, per API and layout; then each API over MPI-IO, and each layout
 * over fpp. */
void text_block_table(FILE *out, const struct config *cfg, const struct results_log *log,
                      int nprocs);

#endif
