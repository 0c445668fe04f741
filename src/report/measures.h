/* The text report's sections for what bounds and repeats the measurement
 * (docs/measuring.md): --stonewall, --duration, --confidence and
 * --latency, after each process count's own report, for every pattern
 * alike. Nothing is written without those options, so the original's
 * layout stays exact. Formats only. */
#ifndef H5PERF_REPORT_MEASURES_H
#define H5PERF_REPORT_MEASURES_H

#include <stdio.h>

#include "report/results.h"

/* The sections of the runs of nprocs processes in log. */
void measures_text(FILE *out, const struct report_settings *cfg, const struct results_log *log,
                   int nprocs);

#endif
