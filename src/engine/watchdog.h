/* The last resort against a hung job (docs/differences.md, "Failures"): a
 * monitor thread per process that aborts the job, after printing why and
 * removing this run's files, when
 * - the process has failed and the others have not come to the failure
 *   agreement within --watchdog seconds (they may be stuck in a collective
 *   call it will not make), or
 * - the process has been inside one library call (open, dataset, transfer,
 *   close) for longer than twice --watchdog plus one second per MiB the
 *   call may move, failure or not (a library stuck in a collective call
 *   after an error on another process, or a hung file system).
 * The only caller of MPI_Abort. */
#ifndef H5PERF_WATCHDOG_H
#define H5PERF_WATCHDOG_H

#include <stdint.h>

#include "base/err.h"

/* Local. Starts the monitor (seconds <= 0: none). Returns 0, or -1 if the
 * thread could not be started (the run then goes on unwatched). */
int watchdog_start(int world_rank, int seconds);

/* Local. Stops and joins the monitor, before MPI_Finalize. */
void watchdog_stop(void);

/* Local, on the hot path (two atomic stores, no system call): the process
 * enters a library call of api (a static name) doing op (static) on path
 * (valid until watchdog_leave()) that may move up to bytes bytes. */
void watchdog_enter(const char *api, const char *op, const char *path, int64_t bytes);
void watchdog_leave(void);

/* Local. After this process failed: aborts unless the run reaches the
 * failure agreement (and the process the end of the run, or MPI_Abort)
 * within --watchdog seconds. The first call counts; the error record is
 * copied. */
void watchdog_arm(const struct err *e);

/* Local. For a process that must not call MPI_Finalize (a library it cannot
 * finalize safely): one line naming why, this run's files removed, then
 * MPI_Abort with EXIT_RUN_FAILED. Does not return. */
void watchdog_abort(int world_rank, const char *why);

#endif
