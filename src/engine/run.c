/* A run's steps: run_begin() (set-up, the clock a caller gives) and
 * run_measure() (the table check, header, engine, outputs, cleanup) on
 * the backends it is given. Owns the order of these steps and nothing
 * else; the program (src/program.c) chooses between a run and the
 * advisor, which sits above the engine (docs/design.md, "Layers"). */
#include "engine/run.h"

#include <errno.h>
#include <stdbool.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/context.h"
#include "engine/engine.h"
#include "engine/files.h"
#include "engine/outputs.h"
#include "engine/setup_files.h"
#include "engine/sink.h"
#include "engine/watchdog.h"
#include "exit_status.h"
#include "options/options.h"

/* Collective: the parameter header, by rank 0 alone or, with -D >= 1, by
 * every rank (gathered, in rank order); nothing unless the report is text. */
static void run_header(const struct run *run)
{
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    char version[64];
    snprintf(version, sizeof version, "%u.%u.%u", maj, min, rel);
    const struct pattern_report *rep = run->session.pattern->report;
    if (run->cfg.debug_level == 0) {
        if (run->report)
            rep->header(run->report, &run->cfg, 0, version, MPI_MAX_INFO_VAL);
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        rep->header(mem, &run->cfg, run->world_rank, version, MPI_MAX_INFO_VAL);
        fclose(mem);
    }
    sink_gather(MPI_COMM_WORLD, text, run->report, NULL);
    free(text);
}

/* Collective: one warning line from rank 0 when errnum is set on some
 * processes ("h5perf: warning: 2 of 64 processes <what> (<reason>)"). */
static void run_warn(const struct run *run, int errnum, const char *what)
{
    int mine[2] = {errnum != 0, errnum}, all[2] = {0, 0};
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int count = 0;
    MPI_Reduce(&mine[0], &count, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (run->world_rank == 0 && all[0])
        fprintf(stderr, "h5perf: warning: %d of %d processes %s (%s)\n", count, run->world_size,
                what, strerror(all[1]));
}

bool h5perf_threads(int argc, char **argv)
{
    struct config cfg;
    struct cli_msg m;
    config_init(&cfg);
    return opt_parse(argc, argv, &cfg, &m) == 0 && api_need_threads(cfg.apis, cfg.api) >= 0;
}

void run_hooks_own(struct run_hooks *hooks)
{
    *hooks = (struct run_hooks){.clock = NULL};
    for (int i = 0; i < API_COUNT; i++)
        hooks->ops[i] = backend_get((enum api_id)i);
}

int run_begin(struct run *run, int argc, char **argv, const struct run_hooks *hooks)
{
    /* Before any HDF5 call: HDF5 closes its objects at MPI_Finalize (an
     * attribute of MPI_COMM_SELF), not at exit(). MPICH's MPI_Abort calls
     * exit(), and HDF5 1.10's exit handler then closed a file whose writes
     * had failed and crashed in H5F__close_cb: signal 11 instead of the
     * exit status 1 the README documents for a failed run. */
    (void)H5dont_atexit();
    int status = setup_run(run, argc, argv);
    if (status < 0 && hooks->clock) {
        run->clock = hooks->clock;
        run->clock_name = hooks->clock_name;
        run->clock_hz = hooks->clock_hz;
    }
    if (status >= 0)
        setup_release(run);
    return status;
}

int run_measure(struct run *run, int argc, char **argv,
                const struct backend_ops *const ops[API_COUNT])
{
    /* HDF5 errors become one line each through err_hdf5(). */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    bool table_ok = backend_check_table(ops) == 0;
    if (!table_ok && run->world_rank == 0)
        fprintf(stderr, "h5perf: internal error: incomplete backend table\n");
    if (!table_ok || !setup_declare_files(run)) {
        files_release();
        setup_release(run);
        return EXIT_RUN_FAILED;
    }
    int guard = run->cfg.nocleanup || run->cfg.read_only ? 0 : files_guard_errno();
    run_warn(run, guard,
             "have no cleanup process: if every process is killed at once, this run's files "
             "stay behind");
    run_warn(run, watchdog_start(run->world_rank, run->cfg.watchdog) < 0 ? errno : 0,
             "have no watchdog thread: a library call that hangs will hang the job");
    run_header(run);
    if (run->report)
        fflush(run->report);
    struct run_context ctx;
    struct results_log log;
    results_log_init(&log);
    context_init(&ctx, run, argc, argv);
    int status = engine_run(run, ops, run->world_rank == 0 ? &log : NULL);
    /* After a failed H5Fclose (a full disk) HDF5 keeps the file open and
     * crashes closing it again inside MPI_Finalize: abort instead. */
    if (status != EXIT_OK && H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) > 0) {
        /* The data files are gone; the outputs, once written, must stay. */
        files_release();
        outputs_finish(run, &ctx, &log, status);
        watchdog_abort(run->world_rank, "HDF5 could not close a data file after the failure");
    }
    watchdog_stop();
    files_release();
    status = outputs_finish(run, &ctx, &log, status);
    context_release(&ctx);
    results_log_release(&log);
    setup_release(run);
    return status;
}
