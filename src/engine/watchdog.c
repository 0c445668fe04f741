/* The monitor of watchdog.h: one thread per process, waking every quarter
 * of a second (or when stopped) to compare the calls in progress and the
 * failure deadline with the clock. The hot path only stores a few atomics.
 * MPI is initialised without thread support; calling MPI_Abort from this
 * thread while the main thread is blocked in MPI is outside the standard's
 * guarantees, but it is the last resort and works with Open MPI and MPICH
 * (both kill the job through their launcher). */
#include "engine/watchdog.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "engine/files.h"
#include "exit_status.h"

#define WATCHDOG_TICK_NS  (250 * 1000 * 1000L)
#define WATCHDOG_MIB_SECS 1.0 /* seconds allowed per MiB a call may move */
#define WATCHDOG_PAUSED   1.0 /* a tick this late (s) means the process was stopped */

/* State shared with the monitor thread: like the files registry, the
 * last-resort machinery must be reachable from anywhere in the process. */
static struct {
    atomic_uint seq; /* odd while inside a library call */
    _Atomic(const char *) api, op, path;
    _Atomic int64_t bytes;
    atomic_bool failed; /* armed: e and fail_at are set */
    struct err e;
    struct timespec fail_at;
    bool stop, running;
    int rank, seconds;
    pthread_t thread;
    pthread_mutex_t lock; /* stop and the wake-up of watchdog_stop() */
    pthread_cond_t wake;
} wd = {.lock = PTHREAD_MUTEX_INITIALIZER};

static double watchdog_since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

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

/* The failure's line and why the job ends. A process still inside a
 * library call after its own failure (a close that diverged inside the
 * library, its other processes in a barrier of the library's) says which:
 * it did not wait for the others in h5perf's agreement. */
static void watchdog_fail_line(void)
{
    char line[ERR_LINE_MAX], inside[ERR_LINE_MAX] = "";
    err_format(&wd.e, wd.rank, line, sizeof line);
    if (atomic_load_explicit(&wd.seq, memory_order_acquire) & 1u)
        snprintf(inside, sizeof inside, "; this process is still in %s %s of '%s'",
                 atomic_load(&wd.api), atomic_load(&wd.op), atomic_load(&wd.path));
    fprintf(stderr,
            "%s\nh5perf: rank %d: the processes did not agree on this failure within %d s "
            "(--watchdog)%s: aborting the job\n",
            line, wd.rank, wd.seconds, inside);
    abort_job();
}

static void watchdog_stall_line(double limit)
{
    fprintf(stderr,
            "h5perf: rank %d: %s %s of '%s' has not returned within %.0f s (twice --watchdog, "
            "plus %.0f s per MiB it may move): the library or the file system is stuck; "
            "aborting the job\n",
            wd.rank, atomic_load(&wd.api), atomic_load(&wd.op), atomic_load(&wd.path), limit,
            WATCHDOG_MIB_SECS);
    abort_job();
}

/* t moved later by seconds. */
static void watchdog_shift(struct timespec *t, double seconds)
{
    double whole = (double)(time_t)seconds;
    t->tv_sec += (time_t)whole;
    t->tv_nsec += (long)((seconds - whole) * 1e9);
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    unsigned seen = 0;
    struct timespec seen_at, now, last;
    clock_gettime(CLOCK_MONOTONIC, &seen_at);
    last = seen_at;
    pthread_mutex_lock(&wd.lock);
    while (!wd.stop) {
        struct timespec until = last;
        watchdog_shift(&until, WATCHDOG_TICK_NS * 1e-9);
        pthread_cond_timedwait(&wd.wake, &wd.lock, &until);
        if (wd.stop)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        /* A tick far later than due: the process was stopped (SIGSTOP, a
         * batch system's suspend), and CLOCK_MONOTONIC counted the pause.
         * Time stopped is no time spent in a call. */
        double late = watchdog_since(&last, &now) - WATCHDOG_TICK_NS * 1e-9;
        last = now;
        if (late > WATCHDOG_PAUSED) {
            watchdog_shift(&seen_at, late);
            watchdog_shift(&wd.fail_at, late);
        }
        if (atomic_load(&wd.failed) && watchdog_since(&wd.fail_at, &now) >= wd.seconds)
            watchdog_fail_line();
        unsigned seq = atomic_load_explicit(&wd.seq, memory_order_acquire);
        if (seq != seen) {
            seen = seq;
            seen_at = now;
            continue;
        }
        double limit = 2.0 * wd.seconds +
                       WATCHDOG_MIB_SECS * (double)atomic_load(&wd.bytes) / (1024.0 * 1024.0);
        if ((seq & 1u) && watchdog_since(&seen_at, &now) >= limit)
            watchdog_stall_line(limit);
    }
    pthread_mutex_unlock(&wd.lock);
    return NULL;
}

int watchdog_start(int world_rank, int seconds)
{
    wd.rank = world_rank;
    wd.seconds = seconds;
    atomic_store(&wd.failed, false); /* a new run of h5perf_run() */
    if (seconds <= 0 || wd.running)
        return 0;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&wd.wake, &attr);
    pthread_condattr_destroy(&attr);
    wd.stop = false;
    int rc = pthread_create(&wd.thread, NULL, watchdog_main, NULL);
    wd.running = rc == 0;
    if (!wd.running) {
        pthread_cond_destroy(&wd.wake);
        errno = rc;
    }
    return wd.running ? 0 : -1;
}

void watchdog_stop(void)
{
    if (!wd.running)
        return;
    pthread_mutex_lock(&wd.lock);
    wd.stop = true;
    pthread_cond_signal(&wd.wake);
    pthread_mutex_unlock(&wd.lock);
    pthread_join(wd.thread, NULL);
    pthread_cond_destroy(&wd.wake);
    wd.running = false;
}

void watchdog_enter(const char *api, const char *op, const char *path, int64_t bytes)
{
    atomic_store_explicit(&wd.api, api, memory_order_relaxed);
    atomic_store_explicit(&wd.op, op, memory_order_relaxed);
    atomic_store_explicit(&wd.path, path, memory_order_relaxed);
    atomic_store_explicit(&wd.bytes, bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&wd.seq, 1u, memory_order_release);
}

void watchdog_leave(void)
{
    atomic_fetch_add_explicit(&wd.seq, 1u, memory_order_release);
}

void watchdog_arm(const struct err *e)
{
    if (!wd.running || atomic_load(&wd.failed))
        return;
    wd.e = *e;
    clock_gettime(CLOCK_MONOTONIC, &wd.fail_at);
    atomic_store(&wd.failed, true);
}

void watchdog_abort(int world_rank, const char *why)
{
    fprintf(stderr, "h5perf: rank %d: %s: aborting instead of finalizing\n", world_rank, why);
    abort_job();
}
