/* Values of the particles pattern's options (docs/particles.md):
 * --particles N, --distribution uniform | imbalance:F | normal:SD |
 * list:n0,n1,..., --seed S, scanned into the distribution its own rows
 * store (pattern/particles_options.c). Pure and local: no I/O; messages
 * name the option as the user spelled it. */
#ifndef H5PERF_DIST_H
#define H5PERF_DIST_H

#include <stddef.h>

#include "cli/cli.h"
#include "cli/dist_types.h"
#include "cli/option.h"

/* The values of the particles pattern's own rows (its settings,
 * pattern/particles_options.h): --particles N into d->mean;
 * --distribution D into d's kind and parameter, a list's counts into list
 * (at most CONFIG_MAX_LIST) and d->nlist; --seed S into d->seed. Each
 * returns 0, or -1 with msg naming the option as spelled. */
int dist_mean_value(struct particle_dist *d, const char *spelled, const char *value,
                    struct cli_msg *msg);
int dist_value(struct particle_dist *d, int64_t *list, const char *spelled, const char *value,
               struct cli_msg *msg);
int dist_seed_value(struct particle_dist *d, const char *spelled, const char *value,
                    struct cli_msg *msg);

/* "uniform", "imbalance", "normal", "list". */
const char *dist_kind_name(enum particle_dist_kind k);

/* The distribution d, its counts at d->list, as --distribution takes it
 * ("imbalance:0.5", "list:1,0,3"; shortest form of the number), into
 * buf. */
void dist_text(const struct particle_dist *d, char *buf, size_t len);

#endif
