/* One phase of a plan (plan/plan.h) on one file: barrier, open, every
 * variable's steps, close, with the timers of docs/original.md §6.1 and the
 * verification of -D v kept outside every timer. */
#ifndef H5PERF_PHASE_H
#define H5PERF_PHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "report/latency.h"
#include "report/results.h"

/* Accumulated timers of one phase, in the order of enum timer_kind
 * (report/results.h). */
enum {
    PHASE_GROSS = TIMER_GROSS,
    PHASE_FINE = TIMER_FINE,
    PHASE_RAW = TIMER_RAW,
    PHASE_OPEN = TIMER_OPEN,
    PHASE_CLOSE = TIMER_CLOSE,
    PHASE_BUSY = TIMER_BUSY,
    PHASE_READS = TIMER_READS,
    PHASE_WRITES = TIMER_WRITES,
    PHASE_TIMERS = TIMER_KINDS
};

/* What -D v found wrong in the data read by this process. */
struct verify_state {
    int64_t bad;          /* bytes that differ */
    int64_t first_offset; /* file offset of the first one */
    unsigned char expected, found;
    char path[4096];
};

/* --stonewall in a write phase (docs/measuring.md): no I/O call starts
 * once seconds have passed since the file was open; at the end of each
 * variable the processes agree on the most calls any made in it, and each
 * completes as many (the wear-out); a variable after one where any process
 * stopped is not begun. */
struct phase_deadline {
    double seconds; /* in */
    /* Out, this process: calls completed before it stopped (all its calls
     * if it never did), and when it stopped (or made its last call), from
     * the file's open. */
    int64_t calls_before;
    double stop_seconds;
    bool stopped;
    /* Out, agreed by every process: what was written. */
    struct plan_extent done;
    int64_t calls; /* every process's calls, wear-out included */
};

/* The bytes a read's buffer must hold after it, where (phase_probe.c). */
#define PHASE_PROBES 64
struct phase_probes {
    int n;
    int64_t at[PHASE_PROBES]; /* from the step's place in the buffer */
    unsigned char want[PHASE_PROBES];
};

struct phase_io {
    const struct backend_ops *ops;
    const struct backend_ctx *ctx;
    const struct plan *plan;
    int phase;          /* of the plan */
    int slot;           /* the file's slot in the created-files registry */
    const char *path;   /* files_path(slot) */
    unsigned char *buf; /* plan->buffer_bytes */
    bool verify;        /* check every byte each read step reads */
    bool overwrite;     /* --overwrite: an existing file may be replaced */
    MPI_Comm agree;     /* the run's processes (ctx->comm: the file's, SELF with fpp) */
    /* This process's group of plan->barrier_group consecutive ranks of
     * agree, for the steps marked in_group; MPI_COMM_NULL without. */
    MPI_Comm group;
    /* Collective transfers through a backend with io_mode: what the library
     * did with each completed one is added here; else NULL. */
    struct io_mode_seen *seen;
    double (*clock)(void); /* seconds: MPI_Wtime, or a test's */
    /* [2 * LATENCY_CALLS], write then read: each call's time is added, a
     * transfer's by its direction, an open's and a close's by the
     * phase's. */
    struct latency_hist *lat;
    /* [2], write then read: each transfer's time as it comes, binned into
     * lat outside the timers (latency.h, struct latency_log). */
    struct latency_log *tlog;
    struct phase_deadline *deadline;  /* a write phase with --stonewall; else NULL */
    const struct plan_extent *extent; /* a read phase after one; else NULL */
    /* A write phase into the existing file (--repeat overwrite, a phase
     * after one that wrote it). */
    bool rewrite;
    /* The file stays open after a phase that succeeded on every process,
     * in file, for the next phase (plan.h, open_once); phase_release()
     * closes it after the last. file: NULL while none is held. */
    bool hold;
    bool held_wrote; /* a phase wrote it since it was opened */
    struct backend_file *file;
    int64_t moved; /* out: the bytes this process moved */
    double *t;     /* phase_run()'s timers, while it runs */
    /* The probes of the nonblocking read under way (a backend has at most
     * one per direction), checked at its wait. */
    struct phase_probes pending;
};

/* Collective over io->ctx->comm. Adds the phase's times to t[PHASE_TIMERS]
 * (busy work to PHASE_BUSY alone, each step to PHASE_READS or PHASE_WRITES
 * as its direction and the plan's time say) and any mismatch to v. Returns true if every process
 * succeeded; on false every process's error (if any) is in its e and the file is closed. A write
 * marks the file in the created-files registry before creating it. A process
 * with an error arms the watchdog before every collective step it still
 * makes, so that it cannot wait forever for processes that will not come. */
bool phase_run(struct phase_io *io, double *t, struct verify_state *v, struct err *e);

/* Collective: closes the file held since a phase (io->hold), if any,
 * after every phase of it, as phase_run() closes its own: returns false
 * when the close failed on any process (e set there). */
bool phase_release(struct phase_io *io, struct err *e);

/* ---- shared by phase.c and phase_join.c (phase_step.c) ---- */

/* Does the phase write? */
static inline bool phase_writes(const struct phase_io *io)
{
    return io->plan->phases[io->phase].write;
}

/* The latency histogram of a call: write's or read's. */
static inline struct latency_hist *phase_lat(const struct phase_io *io, bool write,
                                             enum latency_call c)
{
    return &io->lat[(write ? 0 : LATENCY_CALLS) + c];
}

/* Does the run point's variant move step k of every variable in one call
 * (api_variant.joins_vars)? Then io->buf holds a buffer of
 * plan->buffer_bytes per variable, variable v's at v * buffer_bytes. */
bool phase_joined(const struct phase_io *io);

/* A joined phase's arrays, one entry per variable (phase_join.c). */
struct phase_join_arrays;

/* Collective, before a joined phase's open and out of its timers: its
 * arrays into *out (NULL when none could be made), every variable's
 * buffer but variable 0's (phase_run() fills it) as the file must hold
 * it, or poisoned before a verified or probed read; then the processes
 * agree that all are ready (false: one is not; e set on it). */
bool phase_join_fill(const struct phase_io *io, struct phase_join_arrays **out, struct err *e);
void phase_join_free(struct phase_join_arrays *a);

/* The variables of a joined phase on the open file f, its buffers filled
 * and arrays made (phase_join_fill): every variable begun, step k of each in one call
 * (transfer_vars), every variable ended; the raw time into t[PHASE_RAW],
 * each call's latency into io->lat, the calls into *calls. Collective
 * like phase_run(); never with a deadline or an extent (--stonewall is
 * refused with a variant that joins variables). Returns the seconds spent
 * verifying and noting what the library did. */
double phase_join(struct phase_io *io, struct backend_file *f, struct phase_join_arrays *a,
                  double *t, int64_t *calls, struct verify_state *v, struct err *e);

/* Are this phase's transfers collective (-C, and the API has collective
 * transfers)? */
bool phase_collective_io(const struct phase_io *io);
/* Is variable d's begin collective for this API (the processes must then
 * agree after it)? HDF5's datasets, PnetCDF's first variable (the file's
 * definitions), a flat API's file view set at the begin (not a joining
 * variant's: its views are set by its transfers). acc: d's access. */
bool phase_begin_collective(const struct phase_io *io, int d, const struct plan_access *acc,
                            bool joined);
/* Does variable d's begin write it on every process (a chunked variable kept
 * with the library's fill, API_CAP_FILLS_AT_CREATE)? */
bool phase_begin_fills(const struct phase_io *io, int d);
/* Collective: agree on ok. */
bool phase_agree(const struct phase_io *io, bool ok, const struct err *e);
/* The watchdog's account of a library call about to be made. */
void phase_enter(const struct phase_io *io, const char *op, int64_t bytes);
/* Bins the transfers' times kept in io->tlog into io->lat; returns the
 * seconds it took, which the caller keeps out of the timers; *mark: the
 * clock read after it (none when both logs are empty). */
double phase_flush_latency(const struct phase_io *io, double *mark);
/* Checks the bytes step s read at io->buf + s->mem_off into v. */
void phase_verify(const struct phase_io *io, const struct plan_step *s, struct verify_state *v);
/* A step that is not I/O, timed from *mark (the clock read that ended the
 * work before it; set to the clock read after it) and counted as the plan
 * says; returns the seconds to keep out of the phase's other timers.
 * Collective at a barrier: the processes agree there on a failure (e on
 * any of them sets *stop on all). */
double phase_pause(const struct phase_io *io, const struct plan_step *s, double *mark,
                   const struct err *e, bool *stop);
/* A WAIT step s: completes the nonblocking transfer it names (also on a
 * process that failed, so that none outlives its file), timed from *mark
 * as that transfer's I/O; a read it completes is checked then (io->verify,
 * or the probes chosen at its start, io->pending), outside the timers.
 * Returns the seconds to keep out of the timers. */
double phase_wait(const struct phase_io *io, struct backend_file *f, const struct plan_step *s,
                  double *mark, struct verify_state *vs, struct err *e);
/* Counts seconds spent in step s (an I/O call, or a pause) as the plan
 * says; returns the seconds to keep out of the phase's other timers. */
double phase_count(const struct phase_io *io, const struct plan_step *s, double seconds);
/* Are this phase's reads probed (phase_probe.c: the API's library may
 * report a read done without its data, and -D v is not checking every
 * byte)? Their buffers are then poisoned before each read. */
bool phase_probed(const struct phase_io *io);
/* Where to probe the read of step s into buf (poisoned: buf + s->mem_off
 * holds the complement of what the file holds), into *p. */
void phase_probe_choose(const struct plan_step *s, const unsigned char *buf,
                        struct phase_probes *p);
/* After the read of s reported success: does every probe hold the file's
 * byte? -1 and e set if not. */
int phase_probe_check(const struct phase_io *io, const struct plan_step *s,
                      const unsigned char *buf, const struct phase_probes *p, struct err *e);
/* var_end of the earliest variable begun, under the watchdog. */
void phase_end_var(const struct phase_io *io, struct backend_file *f, struct err *e);

#endif
