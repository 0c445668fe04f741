/* The "physical limit" program (bench/limit.c, bench/limit_io.c): the bare
 * loops that issue exactly h5perf's offsets and lengths for one
 * configuration, with nothing else in the timed regions. Shared state and the
 * two halves' entry points. Not part of h5perf: never linked into it. */
#ifndef H5PERF_BENCH_LIMIT_H
#define H5PERF_BENCH_LIMIT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli/config.h"
#include "session/session.h"

enum { LIMIT_OK = 0, LIMIT_FAILED = 1, LIMIT_USAGE = 2 };

/* The measures of one iteration, per process, as h5perf names them. */
enum limit_measure {
    LIMIT_WRITE,            /* "Write": after open .. before close */
    LIMIT_WRITE_OPEN_CLOSE, /* "Write Open-Close": before open .. after close */
    LIMIT_READ,
    LIMIT_READ_OPEN_CLOSE,
    LIMIT_MEASURES
};

struct limit {
    struct config cfg;              /* parsed with h5perf's own parser, defaults applied */
    const char *dir;                /* directory of the data files */
    bool mpiio;                     /* -A mpiio (else -A posix) */
    bool collective;                /* -C with -A mpiio */
    int rank, nprocs;               /* in MPI_COMM_WORLD: one run of all processes */
    long tag;                       /* rank 0's pid: makes the file names unique */
    struct session session;         /* h5perf's run plan: one run point */
    const struct session_point *sp; /* that point */
    struct plan plan;               /* this process's plan of it */
    unsigned char *buf;             /* plan.buffer_bytes, page-aligned, filled outside the timers */
    MPI_Info info; /* HDF5_MPI_INFO hints, as h5perf gives them, or MPI_INFO_NULL */
    bool fpp;      /* a file per process (MPI_COMM_SELF) */
};

/* Local: the I/O calls one process makes in one phase of one iteration. */
int64_t limit_calls(const struct limit *l);

/* Collective: the info object and the signal handlers (before any timer).
 * Returns 0. */
int limit_io_setup(struct limit *l);

/* Collective: releases what limit_io_setup() built. */
void limit_io_release(struct limit *l);

/* Collective: one iteration over the files: write phase, read phase unless
 * -w, removal. Adds this process's seconds to t[LIMIT_MEASURES]. An I/O
 * error prints one line, removes the current file and aborts the job with
 * status 1 (the loops hold no agreement call that could end it otherwise). */
void limit_iteration(struct limit *l, double t[LIMIT_MEASURES]);

#endif
