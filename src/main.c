/* h5perf: a parallel I/O benchmark for POSIX, MPI-IO and parallel HDF5.
 * main only starts the cleanup process (before MPI exists in the process)
 * and brackets the callable entry point with MPI_Init/MPI_Finalize, asking
 * for MPI_THREAD_MULTIPLE only where the run needs it (HDF5's subfiling). */
#include <mpi.h>
#include <stdio.h>

#include "engine/files.h"
#include "engine/run.h"

int main(int argc, char **argv)
{
    files_guard(); /* a failure is announced by h5perf_run() */
    int provided;
    if (h5perf_threads(argc, argv))
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    int status = h5perf_run(argc, argv);
    /* No process ends before every line is written: a launcher ends the
     * job at the first non-zero exit, and would kill process 0 before it
     * wrote the one line that says why (docs/differences.md). */
    fflush(stdout);
    fflush(stderr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
