/* Runs h5perf with the null backend in every API slot: the whole sweep,
 * timers, agreement, header and report, without any I/O. Takes h5perf's own
 * arguments and writes its outputs as h5perf does, through h5perf's own
 * entry point (h5perf_run_with()), so that nothing here repeats its steps.
 * main is src/main.c's, with the hooks: with $H5PERF_NULL_SECONDS every
 * timer reads the null backend's synthetic clock (null_backend.h);
 * --advise races its candidates on it too. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "null_backend.h"
#include "engine/files.h"
#include "engine/run.h"

int main(int argc, char **argv)
{
    files_guard(); /* a failure is announced by h5perf_run_with() */
    int provided;
    if (h5perf_threads(argc, argv))
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    struct run_hooks hooks = {.clock = NULL};
    for (int i = 0; i < API_COUNT; i++)
        hooks.ops[i] = &backend_null;
    if (getenv("H5PERF_NULL_SECONDS")) {
        hooks.clock = null_clock;
        hooks.clock_name = "synthetic";
        hooks.clock_hz = 0;
    }
    int status = h5perf_run_with(argc, argv, &hooks);
    /* As src/main.c: every line written before any process ends. */
    fflush(stdout);
    fflush(stderr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
