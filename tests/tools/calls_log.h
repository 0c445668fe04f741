/* Where the call-counting shims (h5calls.c, nccalls.c; LD_PRELOAD) write
 * what they counted at exit: $H5PERF_CALLS_LOG.<pid>, one file per
 * process. */
#ifndef H5PERF_CALLS_LOG_H
#define H5PERF_CALLS_LOG_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The process's log, opened for writing; NULL when $H5PERF_CALLS_LOG is
 * unset or the file cannot be made. */
static inline FILE *calls_log_open(void)
{
    const char *log = getenv("H5PERF_CALLS_LOG");
    char path[4096];
    if (!log)
        return NULL;
    snprintf(path, sizeof path, "%s.%ld", log, (long)getpid());
    return fopen(path, "w");
}

#endif
