/* The end of a run's output: the overhead section of the text report, the
 * JSON or CSV document on the report stream (--format) and in the --results
 * file, and the closing of both, where a failed write fails the run. */
#ifndef H5PERF_OUTPUTS_H
#define H5PERF_OUTPUTS_H

#include "engine/setup.h"
#include "report/run_context.h"
#include "report/results.h"

/* Collective over MPI_COMM_WORLD. World rank 0 writes and closes; rank 0
 * says on stderr which output could not be written. Returns the exit status
 * to end with: status, or EXIT_RUN_FAILED if an output failed. */
int outputs_finish(struct run *run, struct run_context *ctx, const struct results_log *log,
                   int status);

#endif
