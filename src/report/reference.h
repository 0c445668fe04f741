/* Which run a library's run is divided by in the "Library overhead" ratios
 * (docs/mpiio.md, "Like with like"): the reference API's (raw MPI-IO) on
 * the same layout, with the same method. One rule for the text table and
 * the JSON results. Pure. */
#ifndef H5PERF_REFERENCE_H
#define H5PERF_REFERENCE_H

#include <stdbool.h>

#include "report/results.h"

/* The variant of the reference API a run of API a's variant v is divided
 * by: a variant of the reference that joins variables, when v joins them
 * and ran(k, arg) says that variant k ran on the run's layout, else 0 (the
 * reference's default: one call per variable). */
int reference_variant(int a, int v, bool (*ran)(int k, const void *arg), const void *arg);

/* The run of log that r's overhead ratio is over: the reference API's run
 * at r's process count, transfer size, layout and placement (--align-data,
 * --shift, --buffer-offset), of reference_variant(); NULL when r is the
 * reference API's own, of the guide's patterns (no layout), or when no
 * such run is in the log. */
const struct api_result *reference_run(const struct results_log *log, const struct api_result *r);

/* The figure of timer t a ratio divides (MB/s): the median over the
 * iterations that succeeded with 3 or more of them, else their average;
 * NAN when r is NULL or none succeeded. */
double reference_figure(const struct api_result *r, enum timer_id t);

#endif
