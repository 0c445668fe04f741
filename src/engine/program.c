/* h5perf_program(): the whole program around h5perf_run_with(): the
 * cleanup process (before MPI exists in the process), MPI_Init with
 * MPI_THREAD_MULTIPLE only where the run needs it (HDF5's subfiling), and
 * every line written before any process ends. src/main.c and the test
 * tools that run h5perf on other backends share it. */
#include <mpi.h>
#include <stdio.h>

#include "engine/files.h"
#include "engine/run.h"

int h5perf_program(int argc, char **argv, const struct run_hooks *hooks)
{
    files_guard(); /* a failure is announced by h5perf_run_with() */
    int provided;
    if (h5perf_threads(argc, argv))
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    int status = hooks ? h5perf_run_with(argc, argv, hooks) : h5perf_run(argc, argv);
    /* No process ends before every line is written: a launcher ends the
     * job at the first non-zero exit, and would kill process 0 before it
     * wrote the one line that says why (docs/differences.md). */
    fflush(stdout);
    fflush(stderr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
