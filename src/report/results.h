/* The results model: for every run (process count, transfer size, API) and
 * iteration, each timer's minimum, maximum and sum over processes, the bytes
 * moved and the status. Writers (text now, JSON/CSV later) only format it.
 * Pure: no MPI, no I/O. */
#ifndef H5PERF_RESULTS_H
#define H5PERF_RESULTS_H

#include <stdint.h>

#include "cli/config.h"

/* Timers of SPEC 6.1, write then read. */
enum timer_id {
    TIMER_WRITE_GROSS, /* "Write Open-Close" */
    TIMER_WRITE_FINE,  /* "Write" */
    TIMER_WRITE_RAW,   /* "Raw Data Write" */
    TIMER_WRITE_OPEN,  /* "Write File Open" */
    TIMER_WRITE_CLOSE, /* "Write File Close" */
    TIMER_READ_GROSS,
    TIMER_READ_FINE,
    TIMER_READ_RAW,
    TIMER_READ_OPEN,
    TIMER_READ_CLOSE,
    TIMER_COUNT
};

enum run_status {
    RUN_OK = 0,
    RUN_IO_ERROR,     /* the run stopped on an I/O error */
    RUN_VERIFY_FAILED /* -D v found a mismatch; the write figures stand */
};

struct timer_stat {
    double min, max, sum; /* over the processes of the run */
};

struct iter_result {
    struct timer_stat t[TIMER_COUNT];
    enum run_status status;
};

/* One API at one (P, X): all its iterations. */
struct api_result {
    enum api_id api;
    int nprocs;
    int64_t xfer;
    int64_t bytes;  /* F * D * N: bytes moved per phase, all processes */
    int iterations; /* iterations filled in so far */
    int max_iterations;
    struct iter_result *it; /* [max_iterations] */
};

/* Statistics over iterations of the per-iteration maximum (the slowest
 * process), SPEC 6.2. */
struct timer_summary {
    double t_min, t_avg, t_max;       /* seconds */
    double mbs_max, mbs_avg, mbs_min; /* MB/s of t_min, t_avg, t_max; 0 if |t| < DBL_EPSILON */
};

int results_init(struct api_result *r, enum api_id api, int nprocs, int64_t xfer, int64_t bytes,
                 int max_iterations);
void results_release(struct api_result *r);
struct iter_result *results_next_iteration(struct api_result *r);
void results_summarize(const struct api_result *r, enum timer_id t, struct timer_summary *s);
/* The worst status over the iterations. */
enum run_status results_status(const struct api_result *r);

#endif
