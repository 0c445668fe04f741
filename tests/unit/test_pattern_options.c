/* Unit tests of the options a pattern owns (docs/design.md, "Options":
 * config.patterns, OPT_PATTERN_* rows): each own row has one owner and a
 * slot, is found by name and is no core row; parsing stores its value in
 * its pattern's settings and records how it was given there, not in
 * config.spelled; finishing fills the defaults there and refuses it under
 * another pattern with the generated line; the settings are copied with
 * the configuration (the block pattern's, the particles' list with it).
 * The guide's own rows keep the original's letters (-e, -B, ...). No
 * MPI. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "cli_args.h"
#include "cli/cli.h"
#include "options/options.h"
#include "pattern/app_options.h"
#include "pattern/block_options.h"
#include "pattern/guide.h"
#include "pattern/guide_options.h"
#include "pattern/madbench.h"
#include "pattern/map.h"
#include "pattern/particles_options.h"
#include "pattern/pattern.h"

/* Every pattern's own rows: one owner, a slot of its own, found by its
 * name, refused under another pattern. */
static void test_rows(void)
{
    int own = 0;
    for (int p = 0; p < pattern_count; p++) {
        const struct pattern_desc *d = pattern_table[p];
        CHECK_I64(pattern_index(d), p);
        int k = 0;
        for (int i = 0; d->rows[i]; i++) {
            const struct opt_row *r = d->rows[i];
            if (r->id != OPT_ID_PATTERN)
                continue;
            CHECK_I64(pattern_owner(r), p);
            CHECK_I64(pattern_row_index(d, r), k);
            CHECK(k < PATTERN_MAX_ROWS);
            CHECK(r->json_key != NULL);
            CHECK(r->short_name == NULL || d == &pattern_guide);
            CHECK(r->short_name == NULL || opt_find_short(r->short_name[1]) == r);
            CHECK(opt_find_long(r->long_name, strlen(r->long_name)) == r);
            CHECK(!opt_is_core(r) && opt_api_owner(r) < 0);
            for (int q = 0; q < pattern_count; q++)
                CHECK(q == p || pattern_row_index(pattern_table[q], r) < 0);
            k++;
            own++;
        }
    }
    /* the guide's 9, madbench's 10, map's 1, block's 4, particles' 3, trace's 4 */
    CHECK_I64(own, 31);
    /* A row the patterns share is the core's record. */
    CHECK_I64(pattern_owner(&app_layout_row), -1);
}

static void test_madbench(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(finish(A("--pattern", "madbench", "--pixels", "64", "--busy-exponent", "full",
                       "--file-block=16"),
                     &cfg, &msg),
              0);
    const struct madbench_settings *s = madbench_of(&cfg);
    CHECK_I64(s->pixels, 64);
    CHECK_I64(s->bins, MADBENCH_DEFAULT_BINS);
    CHECK_I64(s->fblock, 16);
    CHECK(s->busy < 0);
    /* Recorded in the pattern's settings, found through the row. */
    CHECK_STR(madbench_spelled(madbench_own(&cfg), &madbench_pixels_row), "--pixels");
    CHECK_STR(madbench_raw(madbench_own(&cfg), &madbench_fblock_row), "16");
    CHECK(madbench_spelled(madbench_own(&cfg), &madbench_bins_row) == NULL);
    CHECK_STR(opt_spelled(&cfg, &madbench_busy_row), "--busy-exponent");
    /* Copied whole with the configuration. */
    struct config copy = cfg;
    CHECK_I64(madbench_of(&copy)->pixels, 64);
    CHECK_STR(madbench_raw(madbench_own(&copy), &madbench_pixels_row), "64");
    /* Its refusals name it as given. */
    CHECK_I64(finish(A("--pattern", "madbench", "--gangs", "2"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --gangs '2': MADbench2's gangs are square: give a square number "
                        "(1, 4, 9, 16...) that divides the processes and --bins");
    CHECK_I64(finish(A("--pattern", "block", "--global", "8", "--bins", "2"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --bins: applies to --pattern madbench, not to --pattern block");
    CHECK_I64(finish(A("--pixels", "64"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --pixels: applies to --pattern madbench");
}

static void test_map(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(parse(A("--pattern", "map", "--map", "two.txt"), &cfg, &msg), 0);
    CHECK_STR(map_of(&cfg)->file, "two.txt");
    CHECK_STR(map_file_spelled(map_own(&cfg)), "--map");
    CHECK_STR(map_file_raw(map_own(&cfg)), "two.txt");
    CHECK(map_of(&cfg)->file == opt_raw(&cfg, &map_file_row));
    CHECK_I64(finish(A("--pattern", "map"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --pattern map: give the decompositions with --map FILE (an "
                        "E3SM-IO map, or a text map: docs/map.md)");
}

static void test_block(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(finish(A("--pattern", "block", "--global", "8x4", "--grid", "2x2", "--layout",
                       "shared", "--read-grid", "4x1"),
                     &cfg, &msg),
              0);
    const struct block_settings *b = block_of(&cfg);
    CHECK_I64(b->ndims, 2);
    CHECK_I64(b->global[1], 4);
    CHECK_I64(b->grid[0], 2);
    CHECK_I64(b->read_grid[0], 4);
    CHECK_STR(block_spelled(&cfg, &block_global_row), "--global");
    CHECK_STR(block_raw(&cfg, &block_read_grid_row), "4x1");
    CHECK(block_spelled(&cfg, &block_chunk_shape_row) == NULL);
    /* Copied whole with the configuration. */
    struct config copy = cfg;
    CHECK_I64(block_of(&copy)->global[0], 8);
    CHECK_I64(finish(A("--pattern", "block", "--global", "8", "--grid", "2x2"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --grid '2x2': has 2 dimensions, --global '8' has 1");
    CHECK_I64(finish(A("--pattern", "particles", "--global", "8"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --global: applies to --pattern block, not to --pattern particles");
}

static void test_guide(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(finish(A("-e", "64K", "--block-size=4K", "-x", "8K", "-X16K", "-d", "3", "-c", "-I"),
                     &cfg, &msg),
              0);
    const struct guide_settings *g = guide_of(&cfg);
    CHECK_I64(g->bytes, 65536);
    CHECK_I64(g->block, 4096);
    CHECK_I64(g->xfer_min, 8192);
    CHECK_I64(g->xfer_max, 16384);
    CHECK_I64(g->num_dsets, 3);
    CHECK_I64(g->num_files, 1); /* the default, filled by the guide's finish */
    CHECK(g->chunk && g->interleaved && !g->geometry_2d);
    CHECK_STR(guide_spelled(&cfg, &guide_block_row), "--block-size");
    CHECK_STR(guide_raw(&cfg, &guide_block_row), "4K");
    CHECK_STR(guide_spelled(&cfg, &guide_max_xfer_row), "-X");
    CHECK_STR(guide_raw(&cfg, &guide_max_xfer_row), "16K");
    CHECK_STR(guide_spelled(&cfg, &guide_chunk_row), "-c");
    CHECK(guide_raw(&cfg, &guide_chunk_row) == NULL);
    CHECK(guide_spelled(&cfg, &guide_files_row) == NULL);
    CHECK_I64(pattern_files(&cfg), 1);
    /* Copied whole with the configuration. */
    struct config copy = cfg;
    CHECK_I64(guide_of(&copy)->bytes, 65536);
    /* Its defaults (docs/original.md §1.6), in 2D too. */
    CHECK_I64(finish(A("-g", "-F", "2"), &cfg, &msg), 0);
    CHECK_I64(guide_of(&cfg)->bytes, 8192);
    CHECK_I64(guide_of(&cfg)->block, 4096);
    CHECK_I64(guide_of(&cfg)->num_dsets, 1);
    CHECK_I64(pattern_files(&cfg), 2);
    CHECK_I64(finish(A("-e", "1"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: -e '1': half of -e, the default of -x and -B, is 0; give -x "
                        "and -B explicitly");
    CHECK_I64(finish(A("--pattern", "block", "--global", "8", "-d", "2"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: -d: applies to the guide's patterns, not to --pattern block");
    CHECK_I64(finish(A("--pattern", "block", "--global", "8"), &cfg, &msg), 0);
    CHECK_I64(pattern_files(&cfg), 1);
}

static void test_particles(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(finish(A("--pattern", "particles", "--distribution", "list:3,0,5,1"), &cfg, &msg), 0);
    struct particle_dist d = particles_dist(&cfg);
    CHECK_I64(d.kind, DIST_LIST);
    CHECK_I64(d.nlist, 4);
    CHECK_I64(d.list[2], 5);
    CHECK(d.list == particles_of(&cfg)->list);
    CHECK_I64(cfg.min_procs, 4);
    CHECK_STR(particles_raw(&cfg, &particles_dist_row), "list:3,0,5,1");
    CHECK_I64(finish(A("--pattern", "particles", "--seed", "7"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --seed: applies to --distribution normal (the other "
                        "distributions draw nothing)");
    CHECK_I64(finish(A("--pattern", "particles", "--distribution", "normal:10", "--seed", "7"),
                     &cfg, &msg),
              0);
    CHECK_I64(particles_of(&cfg)->dist.seed, 7);
    CHECK_I64(particles_of(&cfg)->dist.mean, 1048576);
}

int main(void)
{
    test_rows();
    test_madbench();
    test_map();
    test_block();
    test_guide();
    test_particles();
    return check_done("test_pattern_options");
}
