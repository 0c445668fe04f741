/* h5perf: a parallel I/O benchmark for POSIX, MPI-IO and parallel HDF5.
 * main only brackets the callable entry point with MPI_Init/MPI_Finalize. */
#include <mpi.h>

#include "engine/run.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int status = h5perf_run(argc, argv);
    MPI_Finalize();
    return status;
}
