/* The callable entry point of h5perf: everything between MPI_Init and
 * MPI_Finalize, so tests and other programs can run it too. */
#ifndef H5PERF_RUN_H
#define H5PERF_RUN_H

#include <stdbool.h>

/* Collective over MPI_COMM_WORLD (MPI must be initialised). Returns the exit
 * status (exit_status.h), the same on every process. */
int h5perf_run(int argc, char **argv);

/* Local, before MPI_Init: whether the command line asks for what needs MPI
 * initialised with MPI_THREAD_MULTIPLE (a variant of an API with threads:
 * HDF5's subfiling driver), so that other runs keep the single thread
 * level. A command line it cannot parse asks for none (h5perf_run()
 * refuses it). */
bool h5perf_threads(int argc, char **argv);

#endif
