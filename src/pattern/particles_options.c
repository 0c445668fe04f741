/* The particles pattern's rows of the option table (cli/option.h): the
 * counts per process and their draw, each one option of its own settings
 * (particles_options.h), and how the results echo them; with the rows it
 * shares with the block pattern, its list. Its part of the results'
 * configuration is particles.c's (its variables are named, not counted),
 * which these rows write the first keys of. Pure. */
#include "cli/dist.h"
#include "pattern/app_options.h"
#include "pattern/particles.h"
#include "pattern/particles_options.h"
#include "base/jsonw.h"

_Static_assert(sizeof(struct particles_settings) <= PATTERN_SETTINGS_BYTES,
               "cli/config.h: PATTERN_SETTINGS_BYTES");

const struct pattern_settings *particles_own(const struct config *c)
{
    return pattern_settings_of(c, &pattern_particles);
}

const struct particles_settings *particles_of(const struct config *c)
{
    return particles_settings_of(particles_own(c));
}

struct particles_settings *particles_edit(struct config *c)
{
    return particles_settings_edit(pattern_settings_edit(c, &pattern_particles));
}

struct particle_dist particles_dist(const struct config *c)
{
    const struct particles_settings *s = particles_of(c);
    struct particle_dist d = s->dist;
    d.list = s->list;
    return d;
}

const char *particles_spelled(const struct config *c, const struct opt_row *row)
{
    return pattern_row_spelled(particles_own(c), &pattern_particles, row);
}

const char *particles_raw(const struct config *c, const struct opt_row *row)
{
    return pattern_row_raw(particles_own(c), &pattern_particles, row);
}

/* Their echo in the results' configuration (particles.c's part): the
 * count per process (null for a list), the distribution as
 * --distribution takes it, the seed of a draw (null for the others). */
static void particles_json_count(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct particles_settings *s = src;
    jsonw_key(w, r->json_key);
    if (s->dist.kind == DIST_LIST)
        jsonw_null(w);
    else
        jsonw_int(w, s->dist.mean);
}

static void particles_json_dist(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct particles_settings *s = src;
    struct particle_dist d = s->dist;
    char text[256];
    d.list = s->list;
    dist_text(&d, text, sizeof text);
    jsonw_key_string(w, r->json_key, text);
}

static void particles_json_seed(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct particles_settings *s = src;
    jsonw_key(w, r->json_key);
    if (s->dist.kind == DIST_NORMAL)
        jsonw_int(w, (int64_t)s->dist.seed); /* --seed: at most INT64_MAX */
    else
        jsonw_null(w);
}

/* --particles, --distribution or --seed (row), into the settings dest. */
static int particles_option(void *dest, const struct opt_row *row, const char *spelled,
                            const char *value, struct cli_msg *msg)
{
    struct particles_settings *s = dest;
    if (row == &particles_dist_row)
        return dist_value(&s->dist, s->list, spelled, value, msg);
    if (row == &particles_seed_row)
        return dist_seed_value(&s->dist, spelled, value, msg);
    return dist_mean_value(&s->dist, spelled, value, msg);
}

const struct opt_row particles_count_row =
    OPT_PATTERN_OTHER("--particles", "N", "a whole number", particles_option,
                      .help = "the mean count per process, at most 2^40", .dflt = "[1048576]",
                      .json_key = "per_process", .json = particles_json_count);
const struct opt_row particles_dist_row =
    OPT_PATTERN_OTHER("--distribution", "D", "a distribution", particles_option,
                      .help = "the counts per process: uniform (N each),\n"
                              "imbalance:F (from (1-F)N to (1+F)N, F from\n"
                              "0 to 1), normal:SD (drawn around N, SD in\n"
                              "particles, below zero counts 0), list:n0,n1,...\n"
                              "(one count per process; it fixes the process\n"
                              "count)",
                      .dflt = "[uniform]", .json_key = "distribution", .json = particles_json_dist);
const struct opt_row particles_seed_row = OPT_PATTERN_OTHER(
    "--seed", "N", "a whole number", particles_option, .help = "the draw of normal:SD, 0 to 2^63-1",
    .dflt = "[1]", .json_key = "seed", .json = particles_json_seed);

const struct opt_row *const particles_rows[] = {
    &particles_count_row, &particles_dist_row,    &particles_seed_row,
    &app_vars_row,        &app_layout_row,        &app_align_data_row,
    &app_shift_row,       &app_transfer_size_row, NULL,
};
