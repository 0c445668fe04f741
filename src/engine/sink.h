/* Getting text from every process to one stream in rank order: per-rank
 * report lines (-D >= 1) and per-process error lines. Only process 0 of the
 * communicator writes. */
#ifndef H5PERF_SINK_H
#define H5PERF_SINK_H

#include <mpi.h>
#include <stdio.h>

/* Collective over comm: every process contributes text (may be "" or NULL);
 * process 0 of comm writes the texts to out (if not NULL) in rank order and
 * flushes, and if kept is not NULL also returns them there as one string
 * (the caller frees it; NULL elsewhere or when out of memory). Returns 0, or
 * -1 on every process if process 0 ran out of memory (texts then lost, which
 * process 0 says in a line on stderr). */
int sink_gather(MPI_Comm comm, const char *text, FILE *out, char **kept);

#endif
