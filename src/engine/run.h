/* The callable entry point of h5perf: everything between MPI_Init and
 * MPI_Finalize, so tests and other programs can run it too. */
#ifndef H5PERF_RUN_H
#define H5PERF_RUN_H

/* Collective over MPI_COMM_WORLD (MPI must be initialised). Returns the exit
 * status (exit_status.h), the same on every process. */
int h5perf_run(int argc, char **argv);

#endif
