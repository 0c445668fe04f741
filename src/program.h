/* The callable entry point of h5perf: everything between MPI_Init and
 * MPI_Finalize, so tests and other programs can run it too. Above the
 * engine and the advisor: it chooses which of the two a command line runs
 * (docs/design.md, "Layers"). */
#ifndef H5PERF_PROGRAM_H
#define H5PERF_PROGRAM_H

#include "engine/run.h"

/* Collective over MPI_COMM_WORLD (MPI must be initialised). Returns the exit
 * status (exit_status.h), the same on every process: the advisor's
 * (advisor/advise.h) for --advise, else the run's (engine/run.h), on the
 * backends and clock hooks gives. h5perf_run() is h5perf_run_with() on
 * h5perf's own (run_hooks_own()). */
int h5perf_run(int argc, char **argv);
int h5perf_run_with(int argc, char **argv, const struct run_hooks *hooks);

/* The whole program, MPI_Init to MPI_Finalize: h5perf_run() on h5perf's
 * own backends with hooks NULL, else h5perf_run_with(hooks). Returns the
 * exit status. */
int h5perf_program(int argc, char **argv, const struct run_hooks *hooks);

#endif
