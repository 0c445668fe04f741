/* watchdog_arm(): a detached thread that sleeps until the deadline, then
 * aborts. MPI is initialised without thread support; calling MPI_Abort from
 * this thread while the main thread is blocked in MPI is outside the
 * standard's guarantees, but it is the last resort and works with Open MPI
 * and MPICH (both kill the job through their launcher). */
#include "engine/watchdog.h"

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/files.h"
#include "exit_status.h"

/* Whether a countdown runs: like the files registry, state of the last-resort
 * machinery that must be reachable from anywhere in the process. */
static atomic_int watchdog_started;

struct watchdog {
    struct err e;
    int rank, seconds;
};

/* The launcher forwards a rank's stderr through a pipe; MPI_Abort can make it
 * kill the job before it has drained that pipe (seen once with MPICH's hydra:
 * a run that exited 1 having printed neither the failure nor the abort).
 * A moment's pause on this last-resort path gives the lines time to leave. */
static void abort_job(void)
{
    fflush(stderr);
    files_remove_all(true);
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    MPI_Abort(MPI_COMM_WORLD, EXIT_RUN_FAILED);
}

static void *watchdog_main(void *arg)
{
    struct watchdog *w = arg;
    struct timespec left = {w->seconds, 0};
    while (nanosleep(&left, &left) != 0)
        ;
    char line[ERR_LINE_MAX];
    err_format(&w->e, w->rank, line, sizeof line);
    fprintf(stderr,
            "%s\nh5perf: rank %d: the processes did not agree on this failure within %d s "
            "(--watchdog): aborting the job\n",
            line, w->rank, w->seconds);
    abort_job();
    return NULL;
}

void watchdog_abort(int world_rank, const char *why)
{
    fprintf(stderr, "h5perf: rank %d: %s: aborting instead of finalizing\n", world_rank, why);
    abort_job();
}

void watchdog_arm(const struct err *e, int world_rank, int seconds)
{
    if (seconds <= 0 || atomic_exchange(&watchdog_started, 1))
        return;
    struct watchdog *w = malloc(sizeof *w);
    if (!w)
        return;
    w->e = *e;
    w->rank = world_rank;
    w->seconds = seconds;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, watchdog_main, w) != 0) {
        free(w);
        atomic_store(&watchdog_started, 0);
    }
    pthread_attr_destroy(&attr);
}
