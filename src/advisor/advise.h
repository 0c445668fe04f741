/* --advise FILE (docs/advisor.md): the workload file read by process 0 and
 * sent to every process, parsed and checked on each (src/workload), the
 * baseline's runs and the candidates' count printed by process 0; with
 * --budget every set's candidates raced in this launch (advise_race.h). */
#ifndef H5PERF_ADVISE_H
#define H5PERF_ADVISE_H

#include "backend/backend.h"
#include "engine/setup.h"

/* Collective over MPI_COMM_WORLD, after the command line was parsed with
 * --advise; ops: the backends measured with. Returns the exit status:
 * EXIT_OK after printing the runs (and the answers), EXIT_USAGE after one
 * line from process 0 (before any file is created), EXIT_RUN_FAILED when
 * the candidates did not fit in memory. */
int advise_run(const struct run *run, const struct backend_ops *const ops[API_COUNT]);

#endif
