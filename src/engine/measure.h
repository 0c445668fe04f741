/* What a run point measures beyond the phase timers (docs/measuring.md):
 * the account of a stonewalled write, the spread of --duration's
 * repetitions, and the latency of every call, each made into the results
 * model across the run's processes. */
#ifndef H5PERF_ENGINE_MEASURE_H
#define H5PERF_ENGINE_MEASURE_H

#include <mpi.h>
#include <stdbool.h>

#include "base/err.h"

#include "engine/phase.h"
#include "report/results.h"

/* Collective over comm (the run's processes), after a stonewalled write
 * phase of plan: adds the file's account to sw (the same on every
 * process). */
void measure_stonewall(MPI_Comm comm, const struct plan *plan, int phase,
                       const struct phase_deadline *dl, struct stonewall_stat *sw);

/* The throughput of --duration's repetitions so far (on rank 0). */
struct repeat_acc {
    int count;
    double min, max, sum, sq; /* MB/s */
};

/* Collective over comm, after a repetition of a write phase that took
 * this process seconds and moved bytes (all processes): adds the slowest
 * process's throughput to acc on rank 0. */
void measure_repeat(MPI_Comm comm, double seconds, int64_t bytes, struct repeat_acc *acc);

/* Local: acc's count and spread. */
void measure_repeat_stat(const struct repeat_acc *acc, struct repeat_stat *out);

/* Collective over comm: this process's histograms of a run point
 * (lat[slot * LATENCY_CALLS + call], slots 0 write and 1 read) merged
 * exactly over the processes into res's latency on rank 0 (res NULL
 * elsewhere, or without a record). Returns true on every process, or
 * false on every process when any ran out of memory (e set on those): the
 * run point's latency is then lost, which fails the run. */
bool measure_latency(MPI_Comm comm, const struct latency_hist *lat, struct api_result *res,
                     struct err *e);

#endif
