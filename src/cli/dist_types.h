/* How many particles each process holds (docs/particles.md): the same count
 * everywhere, a linear spread from (1-F)N to (1+F)N, a deterministic draw
 * around N, or a list of one count per process, and the largest count.
 * Types only: the particles pattern's settings hold one
 * (pattern/particles_options.h), and it counts with it
 * (pattern/particles_dist.h). */
#ifndef H5PERF_DIST_TYPES_H
#define H5PERF_DIST_TYPES_H

#include <stdint.h>

/* The largest count a process may be given or drawn around (2^40): counts
 * stay exact in a double and far from 64-bit limits. */
#define PARTICLES_MAX_COUNT (INT64_C(1) << 40)

enum particle_dist_kind { DIST_UNIFORM = 0, DIST_IMBALANCE, DIST_NORMAL, DIST_LIST };

struct particle_dist {
    enum particle_dist_kind kind;
    int64_t mean;  /* N, per process */
    double param;  /* F (imbalance) or SD in particles (normal) */
    uint64_t seed; /* normal */
    int nlist;     /* list: one count per process */
    const int64_t *list;
};

#endif
