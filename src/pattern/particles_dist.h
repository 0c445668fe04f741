/* The particles pattern's counts (docs/particles.md): how many particles
 * each process holds under a distribution, where its run starts (an
 * exclusive scan of the counts), and where aligned runs lie. Pure: every
 * process computes every count alike, so no draw depends on the platform's
 * MPI. */
#ifndef H5PERF_PARTICLES_DIST_H
#define H5PERF_PARTICLES_DIST_H

#include <stdbool.h>

#include "cli/dist_types.h"
#include "pattern/violation.h"

/* The variables of VPIC-IO, in file order. */
#define PARTICLES_MAX_VARS 8

/* The name of variable v (0-based): "x" ... "id_2". */
const char *particles_var_name(int v);

/* Is variable v a 32-bit integer (id_1)? The others are 32-bit floats. */
bool particles_var_is_int(int v);

/* The count of process rank (0 <= rank < nprocs) under d; d checked. */
int64_t particles_count(const struct particle_dist *d, int nprocs, int rank);

/* The largest count of any process. */
int64_t particles_max_count(const struct particle_dist *d, int nprocs);

/* All processes' particles, and the fewest and the most of one process. */
void particles_summary(const struct particle_dist *d, int nprocs, int64_t *total, int64_t *least,
                       int64_t *most);

/* The exclusive scan: the particles of the processes before rank into
 * *offset, and of all processes into *total. Returns 0, or -1 if the total
 * does not fit in 64 bits. */
int particles_scan(const struct particle_dist *d, int nprocs, int rank, int64_t *offset,
                   int64_t *total);

/* The shared file's places of a variable with runs aligned to align
 * (docs/particles.md, "Alignment"): process rank's run from *start bytes
 * into the variable, the variable's data ending at *end, the next variable
 * *stride bytes after it (a multiple of align). Returns 0, or -1 if a
 * size does not fit in 64 bits. */
int particles_places(const struct particle_dist *d, int nprocs, int rank, int64_t align,
                     int64_t *start, int64_t *end, int64_t *stride);

/* The particles pattern's parameters at one run point. */
struct particle_params {
    int nprocs;
    struct particle_dist dist;
    int nvars;            /* the first nvars of x, y, z, px, py, pz, id_1, id_2 */
    int layout;           /* LAYOUT_SHARED or LAYOUT_FPP */
    int64_t align, shift; /* --align-data, --shift */
};

enum pattern_violation particles_check(const struct particle_params *qp);

#endif
