/* The last resort for a process that has failed and may never reach the
 * failure agreement (the others stuck in a collective call it will not make,
 * or a library hung after the error): once armed, if the process has not
 * finished within the given time, it prints its error line, removes the files
 * this run created and aborts the job. The only caller of MPI_Abort. */
#ifndef H5PERF_WATCHDOG_H
#define H5PERF_WATCHDOG_H

#include "backend/err.h"

/* Local. Starts the countdown on the first call (later calls do nothing);
 * the error record is copied. seconds <= 0 disables the watchdog. */
void watchdog_arm(const struct err *e, int world_rank, int seconds);

/* Local. For a process that must not call MPI_Finalize (a library it cannot
 * finalize safely): one line naming why, this run's files removed, then
 * MPI_Abort with EXIT_RUN_FAILED. Does not return. */
void watchdog_abort(int world_rank, const char *why);

#endif
