/* Runs h5perf's engine with the null backend in every API slot: the whole
 * sweep, timers, agreement and report, without any I/O. Takes h5perf's own
 * arguments and writes its outputs as h5perf does; the MPI case checks its
 * report and that no data file appeared.
 * With $H5PERF_NULL_SECONDS every timer reads the null backend's synthetic
 * clock (null_backend.h). --advise races its candidates on it too. */
#include <mpi.h>
#include <stdlib.h>

#include "null_backend.h"
#include "engine/advise.h"
#include "engine/context.h"
#include "engine/engine.h"
#include "engine/outputs.h"
#include "engine/files.h"
#include "engine/setup.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct run s;
    int status = setup_run(&s, argc, argv);
    if (status < 0 && getenv("H5PERF_NULL_SECONDS")) {
        s.clock = null_clock;
        s.clock_name = "synthetic";
        s.clock_hz = 0;
    }
    const struct backend_ops *ops[API_COUNT];
    for (int i = 0; i < API_COUNT; i++)
        ops[i] = &backend_null;
    if (status == SETUP_ADVISE) {
        status = advise_run(&s, ops);
    } else if (status < 0) {
        /* As h5perf_run() does: the engine, then the outputs (the report's
         * footer, -o and --results), so that a script can read its results
         * as h5perf's. */
        struct run_context ctx;
        struct results_log log;
        results_log_init(&log);
        context_init(&ctx, &s, argc, argv);
        status = setup_declare_files(&s) ? engine_run(&s, ops, s.world_rank == 0 ? &log : NULL) : 1;
        files_release();
        status = outputs_finish(&s, &ctx, &log, status);
        context_release(&ctx);
        results_log_release(&log);
    }
    setup_release(&s);
    MPI_Finalize();
    return status;
}
