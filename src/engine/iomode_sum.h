/* What HDF5 did with a run point's collective transfers, summed over its
 * processes for the results and the stderr warning (docs/results.md,
 * "actual_io_mode"). */
#ifndef H5PERF_IOMODE_SUM_H
#define H5PERF_IOMODE_SUM_H

#include <mpi.h>

#include "base/iomode.h"

/* Collective over comm: sums seen[2] (write, read) of every process into
 * out[2] on process 0 of comm (elsewhere out is left alone). */
void engine_io_mode_sum(MPI_Comm comm, const struct io_mode_seen seen[2],
                        struct io_mode_phase out[2]);

#endif
