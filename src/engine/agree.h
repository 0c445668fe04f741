/* Agreement across the processes of a run: every phase ends with one, so a
 * failure on any process stops every process at the same point, and process
 * 0 reports one line per failing process. */
#ifndef H5PERF_AGREE_H
#define H5PERF_AGREE_H

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"

/* Collective: true on every process iff ok on every process. */
bool agree_all(MPI_Comm comm, bool ok);

/* Collective: each process whose e is set contributes its err_format() line
 * (with its world rank); process 0 of comm writes them to out in rank order
 * and, if kept is not NULL, returns them there (see sink_gather()). */
void agree_report(MPI_Comm comm, const struct err *e, int world_rank, FILE *out, char **kept);

#endif
