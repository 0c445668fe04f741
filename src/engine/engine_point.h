/* What engine.c and engine_file.c share: one process's state of one run
 * point, and the work on one file of an iteration (engine_file.c).
 * Internal to the engine. */
#ifndef H5PERF_ENGINE_POINT_H
#define H5PERF_ENGINE_POINT_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"
#include "engine/iomode_sum.h"
#include "engine/measure.h"
#include "engine/phase.h"
#include "engine/progress.h"

enum { ENGINE_OK = 0, ENGINE_VERIFY_FAILED = 1, ENGINE_IO_FAILED = 2 };

/* Everything one process needs to run one run point. */
struct point_run {
    const struct run *run;
    const struct session_point *sp;
    const struct backend_ops *ops;
    struct backend_ctx ctx;  /* the run's processes: agreement, reductions */
    struct backend_ctx fctx; /* the file's: ctx, or this process alone (fpp) */
    struct backend_settings set;
    struct plan plan;        /* this process's, of the current iteration */
    unsigned char *buf;      /* the transfer buffer: buf_base + the point's buffer offset */
    void *buf_base;          /* as allocated, page-aligned */
    FILE *out;               /* the text report on rank 0 of the run, else NULL */
    struct results_log *log; /* on rank 0 of the run (world rank 0), else NULL */
    struct progress *progress;
    bool io_mode;                /* -C with a backend that reports what its library did */
    struct io_mode_seen seen[2]; /* what it did, write and read phases */
    struct latency_hist *lat;    /* [2 * LATENCY_CALLS]: this process's, over the point */
    struct latency_log *tlog;    /* [2]: the transfers' times before lat has them */
    /* The current iteration's account beyond its timers (docs/measuring.md). */
    int64_t moved[2];           /* bytes this process moved, write and read */
    bool bounded;               /* --stonewall or --duration: moved counts */
    struct stonewall_stat sw;   /* the same on every process */
    struct repeat_acc reps;     /* on rank 0 */
    struct plan_extent written; /* what the current file's write phase wrote */
};

/* Collective over the run point's processes: the phases of one file of
 * the current iteration (engine_file.c); false with e when one failed. */
bool engine_file(struct point_run *r, int slot, double *t, struct verify_state *v, struct err *e,
                 FILE *dbg);

/* Collective: one line per process whose data did not verify, to stderr. */
void engine_report_mismatch(const struct point_run *r, const struct verify_state *v, int iteration);

#endif
