/* h5perf_run_with(): a command line's run or, with --advise, the advisor,
 * which drives runs of its own from above the engine. h5perf_program():
 * the whole program around it: the cleanup process (before MPI exists in
 * the process), MPI_Init with MPI_THREAD_MULTIPLE only where the run
 * needs it (HDF5's subfiling), and every line written before any process
 * ends. src/main.c and the test
 * tools that run h5perf on other backends share it. */
#include <mpi.h>
#include <stdio.h>

#include "advisor/advise.h"
#include "engine/files.h"
#include "engine/setup.h"
#include "program.h"

int h5perf_run(int argc, char **argv)
{
    struct run_hooks hooks;
    run_hooks_own(&hooks);
    return h5perf_run_with(argc, argv, &hooks);
}

int h5perf_run_with(int argc, char **argv, const struct run_hooks *hooks)
{
    struct run run;
    int status = run_begin(&run, argc, argv, hooks);
    if (status == SETUP_ADVISE) {
        status = advise_run(&run, hooks->ops);
        setup_release(&run);
        return status;
    }
    if (status >= 0)
        return status;
    return run_measure(&run, argc, argv, hooks->ops);
}

int h5perf_program(int argc, char **argv, const struct run_hooks *hooks)
{
    files_guard(); /* a failure is announced by h5perf_run_with() */
    int provided;
    if (h5perf_threads(argc, argv))
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    int status = hooks ? h5perf_run_with(argc, argv, hooks) : h5perf_run(argc, argv);
    /* No process ends before every line is written: a launcher ends the
     * job at the first non-zero exit, and would kill process 0 before it
     * wrote the one line that says why (docs/differences.md). */
    fflush(stdout);
    fflush(stderr);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}
