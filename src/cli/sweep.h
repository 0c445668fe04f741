/* The two sweeps of docs/original.md §3.2-3.3, defined once: process counts
 * from -P halving down to -p (every pattern), transfer sizes from -x
 * doubling up to -X (the guide's). The run points built on them are the
 * session's (session/session.h). Pure. */
#ifndef H5PERF_SWEEP_H
#define H5PERF_SWEEP_H

#include <stdint.h>

#include "cli/config.h"

/* for (int P = sweep_procs_first(c); P != 0; P = sweep_procs_next(c, P)) */
static inline int sweep_procs_first(const struct config *c)
{
    return c->max_procs >= c->min_procs ? c->max_procs : 0;
}

static inline int sweep_procs_next(const struct config *c, int nprocs)
{
    int next = nprocs / 2;
    return next >= c->min_procs && next > 0 ? next : 0;
}

/* for (int64_t X = sweep_xfer_first(c); X != 0; X = sweep_xfer_next(c, X)) */
static inline int64_t sweep_xfer_first(const struct config *c)
{
    return c->xfer_min <= c->xfer_max ? c->xfer_min : 0;
}

static inline int64_t sweep_xfer_next(const struct config *c, int64_t xfer)
{
    if (xfer > c->xfer_max / 2)
        return 0;
    return xfer * 2;
}

#endif
