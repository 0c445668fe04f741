/* The results model: for every run (process count, transfer size, API) and
 * iteration, each timer's minimum, maximum and sum over processes, the bytes
 * moved and the status; and the log of every run of one invocation. The
 * writers (text.h, json.h, csv.h) only format it.
 * Pure: no MPI, no I/O. */
#ifndef H5PERF_RESULTS_H
#define H5PERF_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "base/iomode.h"
#include "plan/plan.h"
#include "report/confidence.h"
#include "report/latency.h"
#include "report/settings.h"

/* What each phase of a plan times (docs/results.md, "Phases"), in this
 * order per phase: the guide's five (docs/original.md §6.1), then the busy
 * work between calls and the time of the phase's read and write calls
 * (each with the pauses the plan counts with them). */
enum timer_kind {
    TIMER_GROSS,  /* "Write Open-Close" */
    TIMER_FINE,   /* "Write" */
    TIMER_RAW,    /* "Raw Data Write" */
    TIMER_OPEN,   /* "Write File Open" */
    TIMER_CLOSE,  /* "Write File Close" */
    TIMER_BUSY,   /* busy work (plan: COMPUTE), kept out of every other timer */
    TIMER_READS,  /* the read calls */
    TIMER_WRITES, /* the write calls */
    TIMER_KINDS
};

/* Phases a run point's results hold: those of a plan. */
#define RESULTS_MAX_PHASES PLAN_MAX_PHASES

/* Every timer: those of the phase of slot s are s * TIMER_KINDS + kind
 * (results_timer()). The guide's are named: write (slot 0), then read. */
enum timer_id {
    TIMER_WRITE_GROSS, /* "Write Open-Close" */
    TIMER_WRITE_FINE,  /* "Write" */
    TIMER_WRITE_RAW,   /* "Raw Data Write" */
    TIMER_WRITE_OPEN,  /* "Write File Open" */
    TIMER_WRITE_CLOSE, /* "Write File Close" */
    TIMER_READ_GROSS = TIMER_KINDS,
    TIMER_READ_FINE,
    TIMER_READ_RAW,
    TIMER_READ_OPEN,
    TIMER_READ_CLOSE,
    TIMER_COUNT = RESULTS_MAX_PHASES * TIMER_KINDS
};

static inline enum timer_id results_timer(int slot, enum timer_kind k)
{
    return (enum timer_id)(slot * TIMER_KINDS + (int)k);
}

static inline enum timer_kind results_timer_kind(enum timer_id t)
{
    return (enum timer_kind)((int)t % TIMER_KINDS);
}

static inline int results_timer_slot(enum timer_id t)
{
    return (int)t / TIMER_KINDS;
}

/* A phase as the results know it (plan/plan.h, struct plan_phase), by its
 * slot: its name, whether it writes its file (absent with --read-only)
 * and the timers (bits 1 << enum timer_kind) that are its measures; 0:
 * the guide's (raw with -D r, transfer, open-close, open and close with
 * -D t). */
struct result_phase {
    char name[16];
    bool write;
    unsigned measures;
};

enum run_status {
    RUN_OK = 0,
    RUN_IO_ERROR,     /* the run stopped on an I/O error */
    RUN_VERIFY_FAILED /* -D v found a mismatch; the write figures stand */
};

struct timer_stat {
    double min, max, sum; /* over the processes of the run */
};

/* --stonewall's account of one iteration's write phases, summed over its
 * files (docs/measuring.md). */
struct stonewall_stat {
    int64_t calls_min, calls_max; /* calls a process completed before it stopped */
    int64_t calls;                /* after the wear-out: every process's */
    int64_t bytes;                /* all processes' first calls_min calls */
    double seconds;               /* from the file's open to the last process's stop */
};

/* --duration's account of one iteration: the repetitions of its write
 * phases and the spread of their throughput (each the slowest process's). */
struct repeat_stat {
    int count;
    double mbs_min, mbs_max, mbs_mean, mbs_sd;
};

struct iter_result {
    struct timer_stat t[TIMER_COUNT];
    enum run_status status;
    /* The bytes the write and read phases moved, all processes, where they
     * differ from the run's (--stonewall, --duration); 0: the run's bytes. */
    int64_t bytes[2];
    bool stonewalled;
    struct stonewall_stat sw;
    struct repeat_stat rep;
};

/* Why a run point's iterations stopped (docs/measuring.md). */
enum iter_stop {
    STOP_COUNT = 0,      /* -i iterations, as asked */
    STOP_INTERVAL,       /* --confidence: every interval within the bound */
    STOP_MAX_ITERATIONS, /* --confidence: --max-iterations came first */
    STOP_MAX_TIME,       /* --confidence: --max-time came first */
    STOP_ERROR           /* an I/O error ended the run */
};

/* One run point (an API at one (P, X), or the block pattern's (P, layout)):
 * all its iterations. */
struct api_result {
    char label[96]; /* the run point for people: "transfer size 64KB", "layout shared" */
    /* Its phases by slot: the guide's write and read unless its plan's
     * (results_set_phases()). */
    int nphases;
    struct result_phase phase[RESULTS_MAX_PHASES];
    enum api_id api;
    int nprocs;
    int64_t xfer;             /* the guide's patterns */
    int layout;               /* the block pattern's enum pattern_layout; -1 in the guide's */
    int variant;              /* the API's variant (api/api.h); 0: its default */
    int64_t align, shift;     /* the application patterns' --align-data, --shift (0: packed) */
    int64_t buf_offset;       /* --buffer-offset: the buffers' bytes past a page boundary */
    int grid[MODEL_MAX_DIMS]; /* the process grid of a pattern with one; zeros */
    int64_t bytes;            /* F * D * N: bytes moved per phase, all processes */
    int iterations;           /* iterations filled in so far */
    int max_iterations;       /* the most it may hold */
    int capacity;             /* iterations it has room for, grown as they come */
    struct iter_result *it;   /* [capacity] */
    double *scratch;          /* [3 * capacity]: results_scratch() */
    char *errors;             /* after an I/O error: one line per failing process, owned */
    /* Collective HDF5 transfers (-C): what HDF5 did, write then read
     * (docs/results.md, "actual_io_mode"); io_mode_known false otherwise. */
    bool io_mode_known;
    struct io_mode_phase io_mode[2];
    /* The latency of every call, write then read phase, over every process
     * and iteration (docs/results.md, "latency"); calls 0 where none ran. */
    struct latency_summary latency[2][LATENCY_CALLS];
    enum iter_stop stop;
};

/* Every run of one invocation, in run order. */
struct results_log {
    struct api_result *runs;
    int count, capacity;
};

/* Statistics over iterations of the per-iteration maximum (the slowest
 * process), docs/original.md §6.2, counting only the iterations whose sample
 * stands. Where an iteration moved other bytes than the run's (--stonewall,
 * --duration), the MB/s are each iteration's own: max and min the fastest
 * and slowest iteration's, median theirs, avg all bytes over all seconds. */
struct timer_summary {
    int n;                                     /* iterations counted; 0 = nothing stands */
    double t_min, t_avg, t_med, t_max;         /* seconds */
    double mbs_max, mbs_avg, mbs_med, mbs_min; /* MB/s of t_min, t_avg, t_med, t_max;
                                                  0 if |t| < DBL_EPSILON */
    /* The 95% interval of the median (confidence.h), of the seconds and of
     * the MB/s (low MB/s from the high seconds); known from 6 iterations. */
    struct median_interval t_ci, mbs_ci;
};

/* Empty, with the guide's two phases (write, read). */
int results_init(struct api_result *r, enum api_id api, int nprocs, int64_t xfer, int64_t bytes,
                 int max_iterations);
/* The phases of a plan (every process's are the same). */
void results_set_phases(struct api_result *r, const struct plan *p);
void results_release(struct api_result *r);
/* The next iteration's slot, zeroed with status RUN_OK, the record grown
 * to hold it; NULL when all max_iterations have been used or when out of
 * memory (then r is unchanged). */
struct iter_result *results_next_iteration(struct api_result *r);
/* Room for 3 * r->iterations values, owned by r, that a writer may use
 * to order its samples; results_summarize() uses it too, so it holds
 * nothing across a summary. */
static inline double *results_scratch(const struct api_result *r)
{
    return r->scratch;
}
void results_summarize(const struct api_result *r, enum timer_id t, struct timer_summary *s);
/* The worst status over the iterations. */
enum run_status results_status(const struct api_result *r);
/* The status of timer t's sample in iteration i (0-based): a verification
 * failure spoils the read timers only; an I/O error spoils everything. */
enum run_status results_sample_status(const struct api_result *r, int i, enum timer_id t);
/* The status of timer t over the run: an I/O error in any iteration spoils
 * every timer (the run did not complete). */
enum run_status results_measure_status(const struct api_result *r, enum timer_id t);
/* The summary the results files and --overhead give: results_summarize(),
 * emptied (n == 0) when the measure failed over the run. Returns s->n. */
int results_measure_summary(const struct api_result *r, enum timer_id t, struct timer_summary *s);
/* The bytes timer t's sample of iteration i stands for (all processes). */
int64_t results_sample_bytes(const struct api_result *r, int i, enum timer_id t);
/* Is every measure's interval (cfg's measures that move data) within
 * fraction of its median? False while any is unknown. */
bool results_intervals_within(const struct api_result *r, const struct report_settings *cfg,
                              double fraction);
/* "iterations", "interval", "max_iterations", "max_time", "error". */
const char *results_stop_name(enum iter_stop stop);
/* Of the guide's two phases: is t a timer of the read phase? */
static inline int results_timer_is_read(enum timer_id t)
{
    return t >= TIMER_READ_GROSS;
}
/* Does t time reads: the read calls of a phase, or any timer of a phase
 * that does not write (what -D v spoils, and the bytes of the read
 * phases)? */
bool results_timer_reads(const struct api_result *r, enum timer_id t);

/* The measures (timers) the machine-readable results carry for run r of
 * cfg, in the text report's order: per phase done (one that writes unless
 * --read-only, one that does not unless -w), the phase's own measures, or
 * the guide's: the raw time with -D r, the transfer time, open-close, and
 * the open and close times with -D t. Returns how many. */
int results_measures(const struct api_result *r, const struct report_settings *cfg,
                     enum timer_id out[TIMER_COUNT]);
/* Its phase's name and the timer's: "write", "write_open_close",
 * "write_raw", "write_open", "read_close", "S_busy", "W_read"... into
 * buf. */
const char *results_measure_name(const struct api_result *r, enum timer_id t, char *buf,
                                 size_t len);
/* Open and close times and busy time move no data: they have no
 * throughput. */
int results_timer_moves_data(enum timer_id t);
/* "ok", "io_error", "verify_failed" */
const char *results_status_name(enum run_status st);

void results_log_init(struct results_log *l);
/* Moves *r into the log (r is left empty). Returns 0, or -1 (out of memory;
 * r is released). */
int results_log_add(struct results_log *l, struct api_result *r);
void results_log_release(struct results_log *l);

#endif
