/* The particles pattern (docs/particles.md), an entry of the pattern
 * table: VPIC-IO's eight 1D variables with a different count on each
 * process, offsets by an exclusive scan, shared or a file per process.
 * Pure. */
#ifndef H5PERF_PARTICLES_H
#define H5PERF_PARTICLES_H

#include "pattern/particles_dist.h"
#include "pattern/pattern.h"

extern const struct pattern_desc pattern_particles;

/* The parameters of point p. */
void particles_params(const struct config *c, const struct run_point *p,
                      struct particle_params *out);

/* "--distribution 'imbalance:0.5'", "--particles '4096'" or "--particles
 * 1048576 (the default)" (particles_finish.c). */
void particles_data_option(const struct config *c, char *buf, size_t len);

/* Every point's counts add up within 64 bits, and each process's call
 * within the APIs' limits (app_check.c). Returns 0, or -1 with m. */
int particles_validate(const struct config *c, const struct run_point *pts, int n,
                       struct cli_msg *m);

/* Its finish (pattern.h): defaults and refusals (particles_finish.c). */
int particles_finish(struct config *cfg, int world_size, struct cli_warnings *w,
                     struct cli_msg *msg);

/* Its rows of the option table (particles_options.c), NULL after the last. */
extern const struct opt_row *const particles_rows[];

#endif
