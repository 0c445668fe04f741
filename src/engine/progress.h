/* --progress: what runs now and an estimate of the time left, one line per
 * iteration on stderr from world rank 0. Under mpiexec no process can tell
 * whether stderr is a terminal, hence lines rather than a redrawn bar. Local;
 * never touches the report. */
#ifndef H5PERF_PROGRESS_H
#define H5PERF_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "session/session.h"

struct progress {
    FILE *out;    /* NULL: off (not asked for, or not world rank 0) */
    double start; /* MPI_Wtime() of progress_init() */
    double total; /* bytes the whole sweep moves, all phases and iterations */
    double done;
    int phases; /* 2, or 1 with -w or --read-only */
};

/* Off unless on; else sums the bytes of the session's run points. */
void progress_init(struct progress *p, const struct session *s, bool on, FILE *out);
/* Before an iteration of run point sp: one line naming it, with the share
 * done and the time left, estimated from the throughput so far. */
void progress_begin(struct progress *p, const struct session_point *sp, int iteration,
                    int iterations);
/* After an iteration that moved `bytes` in each of its phases. */
void progress_add(struct progress *p, int64_t bytes);
/* After the sweep: the time it took. */
void progress_end(struct progress *p);

#endif
