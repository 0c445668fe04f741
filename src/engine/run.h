/* The callable entry point of h5perf: everything between MPI_Init and
 * MPI_Finalize, so tests and other programs can run it too. */
#ifndef H5PERF_RUN_H
#define H5PERF_RUN_H

#include <stdbool.h>

#include "api/api.h"

struct backend_ops;

/* What a caller of h5perf_run_with() puts in place of h5perf's own: the
 * backend in each API slot (the engine and the advisor run on these; a
 * test puts its null backend in every slot), and optionally the clock
 * every timer reads, set right after setup_run() in place of its choice
 * (clock NULL: setup_run()'s). Validation still asks the compiled-in
 * backends (backend_get()) whether they can carry out each run point. */
struct run_hooks {
    const struct backend_ops *ops[API_COUNT];
    double (*clock)(void);
    const char *clock_name; /* struct run's clock_name, with clock */
    double clock_hz;        /* struct run's clock_hz, with clock */
};

/* Collective over MPI_COMM_WORLD (MPI must be initialised). Returns the exit
 * status (exit_status.h), the same on every process. h5perf_run() is
 * h5perf_run_with() on the compiled-in backends and setup_run()'s clock. */
int h5perf_run(int argc, char **argv);
int h5perf_run_with(int argc, char **argv, const struct run_hooks *hooks);

/* The whole program, MPI_Init to MPI_Finalize (program.c): h5perf_run()
 * on h5perf's own backends with hooks NULL, else h5perf_run_with(hooks).
 * Returns the exit status. */
int h5perf_program(int argc, char **argv, const struct run_hooks *hooks);

/* Local, before MPI_Init: whether the command line asks for what needs MPI
 * initialised with MPI_THREAD_MULTIPLE (a variant of an API with threads:
 * HDF5's subfiling driver), so that other runs keep the single thread
 * level. A command line it cannot parse asks for none (h5perf_run()
 * refuses it). */
bool h5perf_threads(int argc, char **argv);

#endif
