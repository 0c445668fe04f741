/* The particles pattern's own rows of the option table (cli/option.h):
 * the counts per process and their draw; with the rows it shares with the
 * block pattern, its list. Its part of the results' configuration is
 * particles.c's (its variables are named, not counted). Pure. */
#include "cli/dist.h"
#include "pattern/app_finish.h"
#include "pattern/particles.h"

static const struct opt_row particles_count_row =
    OPT_OTHER(OPT_PARTICLES, NULL, "--particles", "N", "a whole number", dist_option,
              .help = "the mean count per process, at most 2^40", .dflt = "[1048576]");
static const struct opt_row particles_dist_row =
    OPT_OTHER(OPT_DISTRIBUTION, NULL, "--distribution", "D", "a distribution", dist_option,
              .help = "the counts per process: uniform (N each),\n"
                      "imbalance:F (from (1-F)N to (1+F)N, F from\n"
                      "0 to 1), normal:SD (drawn around N, SD in\n"
                      "particles, below zero counts 0), list:n0,n1,...\n"
                      "(one count per process; it fixes the process\n"
                      "count)",
              .dflt = "[uniform]");
static const struct opt_row particles_seed_row =
    OPT_OTHER(OPT_SEED, NULL, "--seed", "N", "a whole number", dist_option,
              .help = "the draw of normal:SD, 0 to 2^63-1", .dflt = "[1]");

const struct opt_row *const particles_rows[] = {
    &particles_count_row, &particles_dist_row,    &particles_seed_row,
    &app_vars_row,        &app_layout_row,        &app_align_data_row,
    &app_shift_row,       &app_transfer_size_row, NULL,
};
