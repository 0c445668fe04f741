/* The madbench pattern's operations (madbench_ops.h): MADbench2's build_S,
 * calc_W and calc_dC in its I/O mode, blocking (IOMODE=SYNC) or not
 * (ASYNC), with one gang or NO_GANG of them (docs/madbench.md). Pure. */
#include "pattern/madbench_ops.h"

/* Operations of every process's distribution, of the gang's (who: only
 * that gang's processes; -1: each process its own gang's bin), busy work. */
#define ALL(k, s)     ((struct madbench_op){.kind = (k), .slot = (s), .who = -1})
#define GANG(k, s, w) ((struct madbench_op){.kind = (k), .slot = (s), .gang = true, .who = (w)})
#define BUSY(v)       ((struct madbench_op){.kind = MB_BUSY, .slot = (v), .who = -1})
#define REMAP(v)      ((struct madbench_op){.kind = MB_BUSY, .slot = (v), .who = -1, .remap = true})

int64_t madbench_op_bin(const struct madbench_state *st, const struct madbench_op *op)
{
    if (!op->gang)
        return op->slot;
    return op->slot * st->g.gangs + (op->who >= 0 ? op->who : st->gang);
}

bool madbench_op_mine(const struct madbench_state *st, const struct madbench_op *op)
{
    return op->who < 0 || op->who == st->gang;
}

/* calc_dC in MADbench2's order: it reads its gang's bins, one per gang
 * slot (read k, busy work after each but the first, once more at the
 * end), in variables 0 .. NO_BIN / NO_GANG - 1. */
static int mb_c(const struct madbench_state *st, int64_t k, struct madbench_op *ops)
{
    int64_t last = st->g.bins / st->g.gangs - 1;
    int n = 0;
    if (k > last)
        return 0;
    if (st->async && k > 0)
        ops[n++] = GANG(MB_WAIT_READ, k - 1, -1);
    ops[n++] = GANG(MB_READ, k, -1);
    if (k > 0)
        ops[n++] = BUSY(k);
    if (k == last && st->async)
        ops[n++] = GANG(MB_WAIT_READ, k, -1);
    if (k == last)
        ops[n++] = BUSY(k);
    return n;
}

/* calc_W with one gang, MADbench2's order: R0 R1 (busy) W0 R2 (busy) W1
 * ...; asynchronous, each read and write completed after the busy work
 * that follows its start. */
static int mb_w_one(const struct madbench_state *st, int64_t v, struct madbench_op *ops)
{
    int64_t last = st->g.bins - 1;
    int n = 0;
    if (v == 0)
        ops[n++] = ALL(MB_READ, v);
    if (st->async)
        ops[n++] = ALL(MB_WAIT_READ, v);
    if (v < last)
        ops[n++] = ALL(MB_READ, v + 1);
    ops[n++] = BUSY(v);
    if (st->async && v > 0)
        ops[n++] = GANG(MB_WAIT_WRITE, v - 1, -1);
    ops[n++] = GANG(MB_WRITE, v, -1);
    if (st->async && v == last)
        ops[n++] = GANG(MB_WAIT_WRITE, v, -1);
    return n;
}

/* calc_W with gangs, MADbench2's order: every process reads the bins of
 * group t (NO_GANG bins from t x NO_GANG), each read after the first
 * followed by the busy work of a remap, one more after the last; then the
 * gang's pdgemm (busy work) and its write of gang slot t - 1, its bin of
 * the group before. After the last group, the last pdgemm and write.
 * Asynchronous, each read completed before the next starts, each write
 * after the next pdgemm. */
static int mb_w_gangs(const struct madbench_state *st, int64_t v, struct madbench_op *ops)
{
    int64_t gangs = st->g.gangs, g = v % gangs, t = v / gangs;
    int n = 0;
    if (g > 0 && st->async)
        ops[n++] = ALL(MB_WAIT_READ, v - 1);
    ops[n++] = ALL(MB_READ, v);
    if (g > 0)
        ops[n++] = REMAP(v);
    if (g < gangs - 1)
        return n;
    if (st->async)
        ops[n++] = ALL(MB_WAIT_READ, v);
    ops[n++] = REMAP(v);
    if (t >= 1) {
        ops[n++] = BUSY(v);
        if (st->async && t >= 2)
            ops[n++] = GANG(MB_WAIT_WRITE, t - 2, -1);
        ops[n++] = GANG(MB_WRITE, t - 1, -1);
    }
    if (v == st->g.bins - 1) {
        ops[n++] = BUSY(v);
        if (st->async && t >= 1)
            ops[n++] = GANG(MB_WAIT_WRITE, t - 1, -1);
        ops[n++] = GANG(MB_WRITE, t, -1);
        if (st->async)
            ops[n++] = GANG(MB_WAIT_WRITE, t, -1);
    }
    return n;
}

/* Through HDF5 and PnetCDF (blocking), each bin's steps go to its own
 * dataset: every process reads bin v (with gangs, then the busy work of
 * its remap, and after a group's last bin the pdgemm), then the gang that
 * computes it writes it (the others make an empty call); C reads each bin
 * in its gang, busy work after each gang slot but the first and once more
 * at the end. */
static int mb_by_bin(const struct madbench_state *st, int phase, int64_t v, struct madbench_op *ops)
{
    int64_t gangs = st->g.gangs, g = v % gangs, t = v / gangs;
    int n = 0;
    if (phase == MADBENCH_W) {
        ops[n++] = ALL(MB_READ, v);
        if (gangs > 1)
            ops[n++] = REMAP(v);
        if (g == gangs - 1)
            ops[n++] = BUSY(v);
        ops[n++] = GANG(MB_WRITE, t, (int)g);
        return n;
    }
    ops[n++] = GANG(MB_READ, t, (int)g);
    if (g == gangs - 1 && t > 0)
        ops[n++] = BUSY(v);
    if (v == st->g.bins - 1)
        ops[n++] = BUSY(v);
    return n;
}

int madbench_op_list(const struct madbench_state *st, int phase, int64_t v,
                     struct madbench_op ops[MADBENCH_MAX_OPS])
{
    int n = 0;
    if (phase == MADBENCH_S) { /* build_S: busy work, write */
        ops[n++] = BUSY(v);
        if (st->async && v > 0)
            ops[n++] = ALL(MB_WAIT_WRITE, v - 1);
        ops[n++] = ALL(MB_WRITE, v);
        if (st->async && v == st->g.bins - 1)
            ops[n++] = ALL(MB_WAIT_WRITE, v);
        return n;
    }
    if (!st->ahead)
        return mb_by_bin(st, phase, v, ops);
    if (phase == MADBENCH_C)
        return mb_c(st, v, ops);
    return st->g.gangs == 1 ? mb_w_one(st, v, ops) : mb_w_gangs(st, v, ops);
}
