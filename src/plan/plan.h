/* The plan: what one process does at one run point, as data that every
 * backend consumes alike (docs/design.md, "The plan"). A point has files,
 * each holding the same variables (name, element type, global shape,
 * storage); phases (write, read, or a pattern's own) that group steps and
 * own their timers; and, per phase and variable, an ordered list of steps:
 * an I/O call moving a selection of the variable (slabs, and the same
 * elements as flat runs), or a pause that is
 * not I/O. Patterns make plans (pattern/pattern.h); nothing here knows which
 * pattern made one. Pure: no MPI, no I/O. */
#ifndef H5PERF_PLAN_H
#define H5PERF_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/model.h"

#define PLAN_NAME_MAX   64
#define PLAN_MAX_PHASES 4
/* Pieces a step carries inside itself; a step with more points at the
 * pattern's own storage. */
#define PLAN_LOCAL_PIECES MODEL_RANGE_BOXES
/* The pattern's own state inside a plan (plan.state). */
#define PLAN_STATE_BYTES 2048

/* How an element is stored: unsigned integers of 1, 2, 4 or 8 bytes, 32-bit
 * signed integers, 32-bit floats; little-endian in memory and in flat
 * files. */
enum plan_kind { PLAN_UNSIGNED = 0, PLAN_SIGNED, PLAN_FLOAT };

/* One variable (HDF5 dataset, netCDF variable) of a file. */
struct plan_var {
    char name[PLAN_NAME_MAX]; /* an HDF5 path: "Dataset_1", "v0", "Timestep_0/x" */
    enum plan_kind kind;
    int elem; /* bytes per element */
    int ndims;
    int64_t dims[MODEL_MAX_DIMS];  /* the global shape, in elements */
    int64_t chunk[MODEL_MAX_DIMS]; /* chunked storage (HDF5): the chunk; all 0: contiguous */
    /* Keep the library's default fill of new datasets (the guide's, as the
     * original); else never fill: every element is written by the run. */
    bool library_fill;
};

/* A step's selection is given twice, the same elements in the same order:
 * as slabs of the variable's element space (what HDF5 selects and PnetCDF
 * moves, memory in the C order of each slab, one slab after another), and
 * as flat runs of bytes in a flat file (POSIX, MPI-IO), from the file's
 * first byte (model_runs: disp, len, count[2], stride[2]; memory in the
 * order of the runs). The two orders agree, except in the guide's 2D chunk
 * emulation, whose runs keep the B x X buffer as the original stores it
 * (docs/original.md §5.2; the content is one byte value there, so the
 * bytes agree too). */

enum plan_step_kind {
    PLAN_STEP_IO = 0,     /* write or read a selection of a variable */
    PLAN_STEP_COMPUTE,    /* busy work of `seconds`, then of `passes` x `width` */
    PLAN_STEP_BARRIER,    /* every process of the run */
    PLAN_STEP_TOKEN_WAIT, /* wait for the token from the previous process */
    PLAN_STEP_TOKEN_PASS, /* pass the token to the next process */
    /* Complete the nonblocking I/O step this one names (its var, index,
     * mem_off, bytes and direction: write), started before the pauses
     * between them (docs/madbench.md, "Asynchronous I/O"); timed as that
     * step's I/O. */
    PLAN_STEP_WAIT
};

/* The timer a pause's time is counted in (docs/results.md, "Phases"): the
 * I/O time of its direction (`write`: the write calls', else the read
 * calls'), the busy time, or only the phase's own timers. Busy time is
 * kept out of every other timer; COMPUTE steps are always busy time. */
enum plan_time { PLAN_TIME_IO = 0, PLAN_TIME_BUSY, PLAN_TIME_PHASE };

struct plan_step {
    enum plan_step_kind kind;
    bool write;             /* IO: write (else read); a pause: the direction it is timed with */
    int var;                /* IO: the variable */
    int64_t index;          /* its number among its variable's steps in the phase (messages) */
    int64_t mem_off, bytes; /* IO: where in the buffer, and how many bytes */
    int nslabs, nruns;
    /* IO: the call only starts the transfer (MPI-IO's iwrite_at, iread_at);
     * a later WAIT step completes it. Only for backends with a wait. */
    bool nonblocking;
    enum plan_time time; /* a pause: the timer it is counted in */
    /* TOKEN_WAIT and TOKEN_PASS: the processes take turns in groups of this
     * many consecutive ranks of the run (0: all of them), each group's
     * first process starting without the token (MADbench2's RMOD). */
    int turns;
    /* BARRIER: among the plan's barrier_group consecutive ranks of the run
     * (this process's group) only, not every process. */
    bool in_group;
    /* COMPUTE: after `seconds`, passes x width multiply-adds into a vector
     * of width doubles (MADbench2's busy work, docs/madbench.md). */
    int64_t passes, width;
    /* The pattern's storage, unchanged while the plan lives (a backend
     * may keep what it made of it), or NULL: the local arrays
     * (plan_slabs(), plan_runs()). */
    const struct model_slab *slabs;
    const struct model_runs *runs;
    struct model_slab local_slabs[PLAN_LOCAL_PIECES];
    struct model_runs local_runs[PLAN_LOCAL_PIECES];
    double seconds; /* COMPUTE */
};

/* How one process's steps of one variable in one phase relate, so that a
 * flat API can set a file view once for all of them (docs/design.md, "MPI-IO
 * views"). Every process of a shared file has the same nsteps (the
 * collective calls must match) and the same view_any. */
struct plan_access {
    int64_t nsteps;
    /* Step k moves step 0's runs displaced by k * tile bytes, and tile is at
     * least their span: one tiled view serves them all. 0 otherwise. */
    int64_t tile;
    /* The steps are consecutive C-order ranges of this selection (the
     * process's whole selection of the variable, as slabs and runs): one
     * view of it serves every step, each at its offset in memory order.
     * No slab otherwise. */
    int nwhole; /* slabs; its runs: nwhole_runs */
    int nwhole_runs;
    const struct model_slab *whole_slabs; /* the pattern's storage; NULL: the local ones */
    const struct model_runs *whole_runs;
    struct model_slab whole_local_slabs[1];
    struct model_runs whole_local_runs[1];
    /* A flat file holds the variable's array in C order from this byte
     * (the shared layout of an array), so a box of it is a subarray; -1:
     * not so. */
    int64_t array_base;
    /* Some process of the file has a step of several runs: the flat APIs
     * then set views, collectively on every process. */
    bool view_any;
    /* The processes' steps do not all have one slab: the APIs that move
     * slabs then move every step as a list of them (PnetCDF's varn, even
     * of one), so that their collective calls match on every process. */
    bool slabs_any;
    /* Through a flat API, independent I/O moves each run of a step in a
     * call of its own (the guide's original calls); else a step is one
     * call. */
    bool split_runs;
};

/* A phase: steps over every variable of a file, timed together; the
 * results keep one set of timers per slot (0: write, 1: read, ...). */
struct plan_phase {
    char name[16]; /* "write", "read" */
    bool write;    /* opens the file for writing (creates it; after a phase
                      that wrote it, opens it to write again) */
    int slot;      /* the timers it adds to */
};

/* How far a phase goes in each variable (docs/measuring.md, a read after
 * a stonewalled write): every step of the variables before nvars - 1 and
 * the first last_steps of variable nvars - 1; nvars < 0: everything. */
struct plan_extent {
    int nvars;
    int64_t last_steps;
};

struct plan;

/* What a pattern computes for its plans (pattern/pattern.h gives the
 * table of patterns; these are the per-plan functions). */
struct plan_ops {
    void (*var)(const struct plan *p, int v, struct plan_var *out);
    void (*access)(const struct plan *p, int phase, int v, struct plan_access *out);
    /* Step k (0 <= k < access.nsteps) of variable v in phase: out filled. */
    void (*step)(const struct plan *p, int phase, int v, int64_t k, struct plan_step *out);
    /* The buffer of variable v in phase (every step's data at its mem_off)
     * as the file must hold it, or (poison) the complement of each of
     * those bytes (the engine reads the file's bytes back from a poisoned
     * buffer, engine/phase.c). */
    void (*fill)(const struct plan *p, int phase, int v, unsigned char *buf, bool poison);
    /* Compares the bytes step s of phase read (at buf + s->mem_off) with
     * what they must hold; returns how many differ, the first's offset in
     * the step's bytes in *bad_off, with *expected and *found. */
    int64_t (*verify)(const struct plan *p, int phase, const struct plan_step *s,
                      const unsigned char *buf, int64_t *bad_off, unsigned char *expected,
                      unsigned char *found);
};

#define PLAN_FLAT_EMPTY (-1)

struct plan {
    const struct plan_ops *ops;
    int nprocs, exec_rank, data_rank;
    int iteration;    /* 0-based; a pattern may name variables after it */
    int nfiles;       /* files of the run point, each written then read */
    bool per_process; /* each process has a file of its own (fpp) */
    int nvars;        /* variables of each file */
    int nphases;      /* per file, in order */
    struct plan_phase phases[PLAN_MAX_PHASES];
    /* The timers the results carry as each phase's measures (bits 1 <<
     * enum timer_kind, report/results.h); 0: the guide's (docs/results.md,
     * "Phases"). */
    unsigned measures[PLAN_MAX_PHASES];
    int64_t buffer_bytes; /* this process's buffer */
    /* The buffer's content differs between variables: it is filled (or
     * poisoned) before each, outside the timers, and the processes are
     * released together after (else once per phase, and poisoned per
     * step). */
    bool fill_per_var;
    int64_t flat_bytes; /* a flat file's size: the end of its last byte of data */
    /* A write phase after which a flat file ends before flat_bytes (the
     * madbench pattern's S, whose gangs' W writes further): that end; 0:
     * flat_bytes; PLAN_FLAT_EMPTY: no byte of data yet (the trace
     * pattern's file per process, whose process reads nothing in its
     * prepare phase, or makes no call): a flat file is empty, a library's
     * file holds what its library writes alone, not checked. */
    int64_t phase_flat_bytes[PLAN_MAX_PHASES];
    /* Bytes at the end of the last variable's array that no process
     * writes (a map that does not cover its array): a library's file that
     * places the array ends that much before the array does. */
    int64_t unwritten_tail;
    /* More of it left unwritten after a write phase (the madbench
     * pattern's file per process, whose gangs write bins of another size
     * in W than in S); 0: none. */
    int64_t phase_unwritten_tail[PLAN_MAX_PHASES];
    /* A kept file read by --read-only must hold exactly these variables
     * (their shapes, types, a flat file's size); else at least them (the
     * guide reads the start of a larger file, as the original). */
    bool exact_source;
    /* Its steps include barriers or tokens, which every process must reach:
     * a deadline (--stonewall) is then process 0's decision for all. */
    bool collective_pauses;
    /* The groups of consecutive ranks of the run whose BARRIER steps marked
     * in_group wait for their own group only (MADbench2's gangs); 0: none,
     * every barrier is every process's. */
    int barrier_group;
    /* Each file is opened once, before its first phase, and closed after
     * its last (MADbench2's one open), where its API can carry an open
     * file from phase to phase (backend.h, next_phase); false: every
     * phase opens and closes it. Never with --stonewall or --duration. */
    bool open_once;
    /* The pattern's own state; aligned for any type. */
    union {
        long double align;
        unsigned char bytes[PLAN_STATE_BYTES];
    } state;
};

/* A step's slabs and runs, an access's whole selection (wherever they are
 * kept). */
static inline const struct model_slab *plan_slabs(const struct plan_step *s)
{
    return s->slabs ? s->slabs : s->local_slabs;
}

static inline const struct model_runs *plan_runs(const struct plan_step *s)
{
    return s->runs ? s->runs : s->local_runs;
}

static inline const struct model_slab *plan_whole_slabs(const struct plan_access *a)
{
    return a->whole_slabs ? a->whole_slabs : a->whole_local_slabs;
}

static inline const struct model_runs *plan_whole_runs(const struct plan_access *a)
{
    return a->whole_runs ? a->whole_runs : a->whole_local_runs;
}

/* The functions of plan_ops, for readers of a plan. */
static inline void plan_var(const struct plan *p, int v, struct plan_var *out)
{
    p->ops->var(p, v, out);
}

static inline void plan_access(const struct plan *p, int phase, int v, struct plan_access *out)
{
    p->ops->access(p, phase, v, out);
}

static inline void plan_step(const struct plan *p, int phase, int v, int64_t k,
                             struct plan_step *out)
{
    p->ops->step(p, phase, v, k, out);
}

/* The name of an element kind and size for people: "8-byte unsigned
 * integers", "32-bit floats". */
const char *plan_kind_text(enum plan_kind kind, int elem);

/* The netCDF name of variable var: its HDF5 path's last component (netCDF
 * names hold no '/'). */
const char *plan_var_leaf(const struct plan_var *var);

/* Variable var's dimensions as "64x32" into buf (len bytes, cut short if
 * it does not fit), for the messages that name its shape. */
void plan_var_dims_text(const struct plan_var *var, char *buf, size_t len);

/* Runs of one step: the flat file offset and length of run i (0 <= i <
 * plan_step_runs(s)), in memory order. */
int64_t plan_step_runs(const struct plan_step *s);
void plan_step_run(const struct plan_step *s, int64_t i, int64_t *off, int64_t *len);

/* The flat file offset of byte mem (0 <= mem < s->bytes) of a step. */
int64_t plan_step_file_offset(const struct plan_step *s, int64_t mem);

/* An empty I/O step of variable v (a process with nothing to move that
 * still makes the call). */
void plan_step_empty(struct plan_step *s, bool write, int v, int64_t k);

/* One contiguous run of len bytes at disp. */
struct model_runs plan_run(int64_t disp, int64_t len);

/* Over the steps of phase within x (NULL: all), in order: the bytes of the
 * first n I/O steps, and the end of the furthest byte they reach in a flat
 * file. */
int64_t plan_calls_bytes(const struct plan *p, int phase, const struct plan_extent *x, int64_t n);
int64_t plan_flat_end(const struct plan *p, int phase, const struct plan_extent *x);

#endif
