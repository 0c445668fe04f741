/* The particles pattern's own options (docs/particles.md): the counts
 * per process and their draw (--particles, --distribution, --seed), one
 * field per own row of particles_options.c, which store them in the
 * configuration's particles pattern_settings (cli/config.h), opaque to
 * every file but the pattern's and the advisor's words of a workload (the
 * rows' spelling and parser). The options it shares with the other
 * application patterns (--vars, --layout, --transfer-size, --align-data,
 * --shift) stay the core's. Pure. */
#ifndef H5PERF_PARTICLES_OPTIONS_H
#define H5PERF_PARTICLES_OPTIONS_H

#include <stdint.h>

#include "cli/config.h"
#include "cli/dist_types.h"

/* The particles pattern's own settings; zeros until given. The list of
 * --distribution list:... is held here, whole (PATTERN_SETTINGS_BYTES is
 * sized for it): dist.list is NULL here, particles_dist() points it at
 * list. */
struct particles_settings {
    struct particle_dist dist;     /* .mean: --particles (0 = default); --distribution; --seed */
    int64_t list[CONFIG_MAX_LIST]; /* --distribution list:..., dist.nlist of them */
};

/* Its settings in s, its pattern_settings. */
static inline const struct particles_settings *
particles_settings_of(const struct pattern_settings *s)
{
    return (const struct particles_settings *)(const void *)s->own.bytes;
}

static inline struct particles_settings *particles_settings_edit(struct pattern_settings *s)
{
    return (struct particles_settings *)(void *)s->own.bytes;
}

/* The particles pattern's pattern_settings in c, and its settings there. */
const struct pattern_settings *particles_own(const struct config *c);
const struct particles_settings *particles_of(const struct config *c);
struct particles_settings *particles_edit(struct config *c);

/* Its distribution in c, the list pointing at its counts there. */
struct particle_dist particles_dist(const struct config *c);

/* The spelling and raw value of its own row as given in c (NULL: not). */
const char *particles_spelled(const struct config *c, const struct opt_row *row);
const char *particles_raw(const struct config *c, const struct opt_row *row);

/* Its own rows, which its refusals name and the advisor's command lines
 * spell and parse (opt_word()). */
extern const struct opt_row particles_count_row, particles_dist_row, particles_seed_row;

#endif
