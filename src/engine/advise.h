/* --advise FILE (docs/advisor.md): the workload file read by process 0 and
 * sent to every process, parsed and checked on each (src/workload), and the
 * runs the advisor would race printed by process 0. The search itself is
 * not built yet. */
#ifndef H5PERF_ADVISE_H
#define H5PERF_ADVISE_H

#include "engine/setup.h"

/* Collective over MPI_COMM_WORLD, after the command line was parsed with
 * --advise. Returns the exit status: EXIT_OK after printing the runs,
 * EXIT_USAGE after one line from process 0 (before any file is created). */
int advise_run(const struct run *s);

#endif
