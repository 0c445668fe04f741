/* The madbench pattern's operations (docs/madbench.md, "Phases",
 * "Asynchronous I/O", "Gangs"): MADbench2's sequence of busy work, reads,
 * writes and waits of each phase, dealt out to the variables (bins) whose
 * steps the engine runs in turn; the plan's steps (madbench.c) are each
 * operation's. Internal to the pattern. Pure. */
#ifndef H5PERF_MADBENCH_OPS_H
#define H5PERF_MADBENCH_OPS_H

#include "pattern/madbench.h"

/* MADbench2's busy_work, io_distmatrix reading or writing a bin, or
 * io_resync completing a bin's read or write (the asynchronous mode). */
enum madbench_op_kind { MB_BUSY, MB_READ, MB_WRITE, MB_WAIT_READ, MB_WAIT_WRITE };

/* One operation. An I/O operation moves the process's share of a bin in
 * the distribution of every process (slot: the bin, in slots of
 * offcount), or in its gang's (gang: slot-th gang slot, the bin slot x
 * NO_GANG + the gang); who >= 0: only gang who's processes move it, the
 * others make an empty call (HDF5 and PnetCDF, whose steps go to their
 * variable's dataset). Busy work stands for a remap (remap) or for the
 * phase's computation. */
struct madbench_op {
    enum madbench_op_kind kind;
    int64_t slot;
    bool gang;
    int who;
    bool remap;
};

#define MADBENCH_MAX_OPS 12

/* A process's plan state (plan.state). */
struct madbench_state {
    struct madbench_geom g;
    int rank;
    int gang;    /* its gang: rank / gang_procs */
    bool shared; /* one file of every process's slots */
    bool ahead;  /* MADbench2's order across bins (flat APIs, the asynchronous mode) */
    bool async;  /* IOMODE=ASYNC: each read and write started, completed later */
    int read_mod, write_mod;
    int64_t share, first;           /* its share of a matrix and the elements before it */
    int64_t gang_share, gang_first; /* the same in its gang's distribution */
    int64_t room;                   /* a share's room in the buffer: the larger */
};

/* The operations of variable (bin) v in phase, in order; returns how many. */
int madbench_op_list(const struct madbench_state *st, int phase, int64_t v,
                     struct madbench_op ops[MADBENCH_MAX_OPS]);

/* The bin an I/O operation moves, and whether this process moves it. */
int64_t madbench_op_bin(const struct madbench_state *st, const struct madbench_op *op);
bool madbench_op_mine(const struct madbench_state *st, const struct madbench_op *op);

#endif
