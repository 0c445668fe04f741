/* Defaults and refusals of the particles pattern (docs/particles.md): VPIC-IO's
 * eight variables, the shared and fpp layouts, 1048576 particles per
 * process, uniform counts; --seed only for a drawn distribution; a list of
 * counts fixes the number of processes. Pure. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/dims.h"
#include "pattern/app_finish.h"
#include "pattern/particles.h"
#include "pattern/particles_dist.h"
#include "pattern/particles_options.h"

#define PARTICLES_DEFAULT_MEAN 1048576

/* A list gives one count per process: the run has that many processes, and
 * -p and -P, if given, must say the same. */
static int particles_list_procs(struct config *cfg, int world_size, struct cli_msg *msg)
{
    int n = particles_of(cfg)->dist.nlist;
    const char *d = particles_spelled(cfg, &particles_dist_row);
    const char *draw = particles_raw(cfg, &particles_dist_row);
    if (n > world_size)
        return cli_fail(msg,
                        "h5perf: %s '%s': needs %d process%s (one count each), only %d %s "
                        "started",
                        d, draw, n, n == 1 ? "" : "es", world_size,
                        world_size == 1 ? "was" : "were");
    const enum opt_id ids[2] = {OPT_MIN_PROCS, OPT_MAX_PROCS};
    const int values[2] = {cfg->min_procs, cfg->max_procs};
    for (int i = 0; i < 2; i++)
        if (cfg->spelled[ids[i]] && values[i] != n)
            return cli_fail(msg,
                            "h5perf: %s '%s': %s '%s' has %d counts, one per process; leave out "
                            "-p and -P or give them %d",
                            cfg->spelled[ids[i]], cfg->raw[ids[i]], d, draw, n, n);
    cfg->min_procs = cfg->max_procs = n;
    return 0;
}

void particles_data_option(const struct config *cfg, char *buf, size_t len)
{
    const struct opt_row *row = particles_spelled(cfg, &particles_dist_row) != NULL
                                    ? &particles_dist_row
                                    : &particles_count_row;
    if (particles_spelled(cfg, row))
        snprintf(buf, len, "%s '%s'", particles_spelled(cfg, row), particles_raw(cfg, row));
    else
        snprintf(buf, len, "--particles %lld (the default)",
                 (long long)particles_of(cfg)->dist.mean);
}

int particles_finish(struct config *cfg, int world_size, struct cli_warnings *w,
                     struct cli_msg *msg)
{
    (void)w;
    if (app_finish_common(cfg, msg) < 0 || app_finish_transfer(cfg, 4, msg) < 0)
        return -1;
    if (cfg->nvars > PARTICLES_MAX_VARS)
        return cli_fail(msg,
                        "h5perf: %s '%s': the particles pattern has %d variables (x, y, z, px, "
                        "py, pz, id_1, id_2); give 1 to %d",
                        cfg->spelled[OPT_VARS], cfg->raw[OPT_VARS], PARTICLES_MAX_VARS,
                        PARTICLES_MAX_VARS);
    if (!cfg->nvars)
        cfg->nvars = PARTICLES_MAX_VARS;
    struct particle_dist *dist = &particles_edit(cfg)->dist;
    const char *seed = particles_spelled(cfg, &particles_seed_row);
    const char *count = particles_spelled(cfg, &particles_count_row);
    if (seed && dist->kind != DIST_NORMAL)
        return cli_fail(msg,
                        "h5perf: %s: applies to --distribution normal (the other "
                        "distributions draw nothing)",
                        seed);
    if (!seed)
        dist->seed = 1;
    if (dist->kind == DIST_LIST) {
        if (count)
            return cli_fail(msg, "h5perf: %s: %s '%s' gives every process's count", count,
                            particles_spelled(cfg, &particles_dist_row),
                            particles_raw(cfg, &particles_dist_row));
        if (particles_list_procs(cfg, world_size, msg) < 0)
            return -1;
    } else if (!dist->mean) {
        dist->mean = PARTICLES_DEFAULT_MEAN;
    }
    return app_finish_shared_fpp(cfg,
                                 "the particles pattern stores shared or fpp (its counts "
                                 "differ, so no chunk size fits every process)",
                                 msg) < 0
               ? -1
               : app_finish_places(cfg, msg);
}
