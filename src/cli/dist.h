/* Values of the particles pattern's options (docs/particles.md):
 * --particles N, --distribution uniform | imbalance:F | normal:SD |
 * list:n0,n1,..., --seed S. Pure and local: no I/O; messages name the
 * option as the user spelled it. */
#ifndef H5PERF_DIST_H
#define H5PERF_DIST_H

#include <stddef.h>

#include "cli/cli.h"
#include "cli/option.h"

/* Stores the value of --particles, --distribution or --seed (id) in cfg.
 * Returns 0, or -1 with msg. */
int dist_option(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                struct cli_msg *msg);

/* "uniform", "imbalance", "normal", "list". */
const char *dist_kind_name(enum particle_dist_kind k);

/* The distribution as --distribution takes it ("imbalance:0.5",
 * "list:1,0,3"; shortest form of the number), into buf. */
void dist_text(const struct config *cfg, char *buf, size_t len);

/* cfg->dist, its list pointing at cfg->dist_list. */
struct particle_dist dist_of(const struct config *cfg);

#endif
