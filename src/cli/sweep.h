/* The sweep of process counts of docs/original.md §3.2, defined once: from
 * -P halving down to -p (every pattern; the guide's transfer sizes, §3.3,
 * are its own: pattern/guide.c). The run points built on them are the
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

#endif
