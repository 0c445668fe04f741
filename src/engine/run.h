/* A run's steps, which the program (src/program.h) orders around the
 * advisor: set-up, then the measured run on the backends it is given. */
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

struct run;

/* h5perf's own: its compiled-in backends in every slot, setup_run()'s clock. */
void run_hooks_own(struct run_hooks *hooks);

/* Collective over MPI_COMM_WORLD (MPI must be initialised): H5dont_atexit()
 * and setup_run() (engine/setup.h), then hooks' clock in run when it gives
 * one. Returns setup_run()'s answer: an exit status (run already released),
 * or -1 (the run) / SETUP_ADVISE with run to hand to run_measure() or the
 * advisor, and to release. */
int run_begin(struct run *run, int argc, char **argv, const struct run_hooks *hooks);

/* Collective: what run was set up for, on ops: the backend table's check,
 * the warnings, the header, the engine, the outputs; releases run. Returns
 * the exit status (exit_status.h), the same on every process. */
int run_measure(struct run *run, int argc, char **argv,
                const struct backend_ops *const ops[API_COUNT]);

/* Local, before MPI_Init: whether the command line asks for what needs MPI
 * initialised with MPI_THREAD_MULTIPLE (a variant of an API with threads:
 * HDF5's subfiling driver), so that other runs keep the single thread
 * level. A command line it cannot parse asks for none (h5perf_run()
 * refuses it). */
bool h5perf_threads(int argc, char **argv);

#endif
