/* engine_io_mode_sum() (iomode.h): three reductions, outside every timer,
 * once per run point. Collective only. */
#include "engine/iomode_sum.h"

#include <stdint.h>

void engine_io_mode_sum(MPI_Comm comm, const struct io_mode_seen seen[2],
                        struct io_mode_phase out[2])
{
    uint32_t bits[4], any[4], all[2], mine[2];
    int64_t counts[4], sums[4];
    for (int i = 0; i < 2; i++) {
        bits[2 * i] = seen[i].modes;
        bits[2 * i + 1] = seen[i].global_cause;
        /* A process that made no call (an empty file per process) has
         * nothing to agree or disagree with. */
        mine[i] = seen[i].calls ? seen[i].modes : UINT32_MAX;
        counts[2 * i] = seen[i].calls;
        counts[2 * i + 1] = seen[i].local_cause != 0;
    }
    int rank;
    MPI_Comm_rank(comm, &rank);
    MPI_Reduce(bits, any, 4, MPI_UINT32_T, MPI_BOR, 0, comm);
    /* The same modes on every process: their intersection is their union. */
    MPI_Reduce(mine, all, 2, MPI_UINT32_T, MPI_BAND, 0, comm);
    MPI_Reduce(counts, sums, 4, MPI_INT64_T, MPI_SUM, 0, comm);
    if (rank != 0)
        return;
    for (int i = 0; i < 2; i++)
        out[i] = (struct io_mode_phase){.calls = sums[2 * i],
                                        .modes = any[2 * i],
                                        .agree = all[i] == any[2 * i],
                                        .cause = any[2 * i + 1],
                                        .cause_processes = (int)sums[2 * i + 1]};
}
