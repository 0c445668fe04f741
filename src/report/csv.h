/* The CSV results: one tidy row per sample (run x measure x iteration) under
 * a header, raw bytes and seconds, RFC 4180 quoting; seconds_median, the
 * run's median over its iterations (slowest process), and its 95% interval
 * repeat on each of its rows; then one row per latency figure of each
 * phase's calls (docs/results.md, "CSV"). Formats the results model only;
 * no MPI. */
#ifndef H5PERF_CSV_H
#define H5PERF_CSV_H

#include <stdio.h>

#include "report/settings.h"
#include "report/results.h"

/* The header line, without the newline. */
#define CSV_HEADER                                                                                 \
    "processes,transfer_size,api,measure,iteration,status,bytes,seconds_slowest,"                  \
    "seconds_fastest,seconds_mean,seconds_median,error,layout,seconds_median_low,"                 \
    "seconds_median_high,variant,buffer_offset"

/* Writes the header and every sample to out. Returns 0, or -1 if the stream
 * reports an error. */
int csv_write(FILE *out, const struct report_settings *cfg, const struct results_log *log);

#endif
