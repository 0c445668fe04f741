/* Validation of the application patterns' sweeps before any file exists
 * (docs/block.md, docs/particles.md): at every process count the block
 * pattern's grid must divide the array (MPI_Dims_create's grid or --grid,
 * and --read-grid) and the particles' counts must add up within 64 bits;
 * the array must fit in 64-bit offsets, and each process's call within the
 * call limit of every API selected. Pure: no MPI, nothing printed. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/dims.h"
#include "api/file_model.h"
#include "pattern/app.h"
#include "pattern/app_finish.h"
#include "pattern/app_check.h"
#include "pattern/block.h"
#include "pattern/block_options.h"
#include "pattern/particles.h"
#include "pattern/particles_dist.h"
#include "pattern/particles_options.h"

static void grid_text(char *buf, size_t len, int n, const int *grid)
{
    int64_t g[MODEL_MAX_DIMS] = {0, 0, 0};
    for (int d = 0; d < n; d++)
        g[d] = grid[d];
    dims_text(buf, len, n, g);
}

/* The first dimension the grid does not divide, as "dimension 2: 10
 * elements over 3 processes". */
static void split_text(const struct config *c, const int *grid, char *buf, size_t len)
{
    const struct block_settings *b = block_of(c);
    for (int d = 0; d < b->ndims; d++)
        if (b->global[d] % grid[d] != 0) {
            snprintf(buf, len, "dimension %d: %" PRId64 " elements over %d processes", d + 1,
                     b->global[d], grid[d]);
            return;
        }
    buf[0] = '\0';
}

static int val_grid(const struct config *c, const struct run_point *p, bool read,
                    enum pattern_violation v, struct cli_msg *m)
{
    const struct block_settings *b = block_of(c);
    const char *g = block_spelled(c, &block_global_row), *graw = block_raw(c, &block_global_row);
    int nprocs = p->nprocs;
    if (v == PATTERN_OVERFLOW)
        return cli_fail(m,
                        "h5perf: %s '%s': %d variable%s of %d-byte elements do%s not fit in "
                        "64-bit offsets",
                        g, graw, c->nvars, c->nvars == 1 ? "" : "s", c->elem,
                        c->nvars == 1 ? "es" : "");
    const int *grid = read ? b->read_grid : p->grid;
    char text[64], why[128];
    grid_text(text, sizeof text, b->ndims, grid);
    split_text(c, grid, why, sizeof why);
    const struct opt_row *row = read ? &block_read_grid_row : &block_grid_row;
    if (block_spelled(c, row))
        return cli_fail(m, "h5perf: %s '%s': does not divide %s '%s' (%s)", block_spelled(c, row),
                        block_raw(c, row), g, graw, why);
    return cli_fail(m,
                    "h5perf: %s '%s': with %d process%s MPI_Dims_create's grid %s does not "
                    "divide it (%s); give --grid, or other process counts (-p, -P)",
                    g, graw, nprocs, nprocs == 1 ? "" : "es", text, why);
}

/* The option of a placement that pushes a file past 64-bit offsets where
 * the packed file fits: --align-data when the aligned file alone does not
 * fit (aligned_fits false), else --shift. */
int app_place_fail(const struct config *c, const struct run_point *p, bool aligned_fits,
                   const char *where, struct cli_msg *m)
{
    enum opt_id id = aligned_fits ? OPT_SHIFT : OPT_ALIGN_DATA;
    char how[96];
    if (aligned_fits)
        snprintf(how, sizeof how, "%" PRId64 " bytes more", p->shift);
    else
        snprintf(how, sizeof how, "at multiples of %" PRId64 " bytes", p->align);
    return cli_fail(m,
                    "h5perf: %s '%s': %s, the %s file of %d variable%s (%d process%s) %s; give "
                    "smaller values",
                    c->spelled[id], c->raw[id], how, layout_name(p->layout), c->nvars,
                    c->nvars == 1 ? "" : "s", p->nprocs, p->nprocs == 1 ? "" : "es", where);
}

int app_call_limit(const struct config *c, const struct run_point *p, int64_t bytes,
                   const char *lead, const char *what, const char *remedy, struct cli_msg *m)
{
    const struct api_desc *api = api_desc(p->api);
    if (!api->max_call_bytes || bytes <= api->max_call_bytes)
        return 0;
    char size[32], smaller[96];
    cli_bytes(size, sizeof size, bytes);
    if (c->transfer_size) {
        snprintf(smaller, sizeof smaller, "give %s at most %" PRId64 " bytes",
                 c->spelled[OPT_TRANSFER_SIZE], api->max_call_bytes);
        remedy = smaller;
    }
    return cli_fail(m,
                    "h5perf: %s: %s %s with %d process%s, above %s's limit of %" PRId64
                    " bytes per call; %s or leave out %s",
                    lead, what, size, p->nprocs, p->nprocs == 1 ? "" : "es", api->err_name,
                    api->max_call_bytes, remedy, api->key);
}

/* An array that does not fit in 64-bit offsets only with its placement:
 * -1 with the line naming --align-data or --shift; 0 when the packed array
 * does not fit either (--global's line). */
static int block_place_fail(const struct config *c, const struct run_point *p,
                            const struct app_params *a, struct cli_msg *m)
{
    struct app_params packed = *a, aligned = *a;
    packed.align = packed.shift = aligned.shift = 0;
    if (app_check_block(&packed) != PATTERN_OK)
        return 0;
    return app_place_fail(c, p, app_check_block(&aligned) == PATTERN_OK,
                          "would end beyond the largest 64-bit file offset", m);
}

int block_validate(const struct config *c, const struct run_point *pts, int n, struct cli_msg *m)
{
    for (int i = 0; i < n; i++) {
        int64_t box = 0;
        for (int read = 0; read < 2; read++) {
            struct app_params a;
            block_params(c, &pts[i], read, &a);
            enum pattern_violation v = app_check_block(&a);
            if (v == PATTERN_OVERFLOW && block_place_fail(c, &pts[i], &a, m) < 0)
                return -1;
            if (v != PATTERN_OK)
                return val_grid(c, &pts[i], read && block_of(c)->read_grid[0] > 0, v, m);
            int64_t g[MODEL_MAX_DIMS];
            for (int d = 0; d < a.ndims; d++)
                g[d] = a.global[d] / a.grid[d];
            box = model_product(a.ndims, g) * a.elem;
            char lead[160];
            snprintf(lead, sizeof lead, "%s '%s'", block_spelled(c, &block_global_row),
                     block_raw(c, &block_global_row));
            if (app_call_limit(c, &pts[i], app_call_bytes(c, box, a.elem), lead,
                               c->transfer_size ? "each process's call is"
                                                : "each process's block is",
                               "use more processes", m) < 0)
                return -1;
        }
        /* The point's file: the whole array, or one process's block in
         * its own file (fpp). */
        int64_t total = model_product(block_of(c)->ndims, block_of(c)->global) * c->elem;
        bool fpp = layout_desc(pts[i].layout)->per_process;
        struct extent_file f = {c->nvars, fpp ? box : total,
                                pts[i].layout == LAYOUT_CHUNKED ? box : 0};
        if (pattern_validate_extent(c, pts[i].nprocs, &f, m) < 0)
            return -1;
    }
    return 0;
}

/* The option that set the particles' counts, as typed: --distribution,
 * else --particles (its default if not given). */
static void val_counts_option(const struct config *c, char *buf, size_t len)
{
    const struct opt_row *row =
        particles_spelled(c, &particles_dist_row) ? &particles_dist_row : &particles_count_row;
    const char *spelled = particles_spelled(c, row), *raw = particles_raw(c, row);
    snprintf(buf, len, "%s '%s'", spelled ? spelled : "--particles", raw ? raw : "1048576");
}

/* As block_place_fail(), for the particles' variables. */
static int particles_place_fail(const struct config *c, const struct run_point *p,
                                const struct particle_params *q, struct cli_msg *m)
{
    struct particle_params packed = *q, aligned = *q;
    packed.align = packed.shift = aligned.shift = 0;
    if (particles_check(&packed) == PATTERN_OVERFLOW)
        return 0;
    return app_place_fail(c, p, particles_check(&aligned) != PATTERN_OVERFLOW,
                          "would end beyond the largest 64-bit file offset", m);
}

int particles_validate(const struct config *c, const struct run_point *pts, int n,
                       struct cli_msg *m)
{
    for (int i = 0; i < n; i++) {
        int nprocs = pts[i].nprocs;
        struct particle_params q;
        particles_params(c, &pts[i], &q);
        enum pattern_violation v = particles_check(&q);
        char lead[160];
        val_counts_option(c, lead, sizeof lead);
        if (v == PATTERN_NO_PARTICLES)
            return cli_fail(m, "h5perf: %s: no process has any particles with %d process%s", lead,
                            nprocs, nprocs == 1 ? "" : "es");
        if (v == PATTERN_OVERFLOW && particles_place_fail(c, &pts[i], &q, m) < 0)
            return -1;
        if (v != PATTERN_OK)
            return cli_fail(m,
                            "h5perf: %s: %d variable%s of the particles of %d process%s do%s "
                            "not fit in 64-bit offsets",
                            lead, c->nvars, c->nvars == 1 ? "" : "s", nprocs,
                            nprocs == 1 ? "" : "es", c->nvars == 1 ? "es" : "");
        /* At most 7 * 2^40 particles: the product fits. */
        int64_t most = particles_max_count(&q.dist, nprocs) * 4;
        if (app_call_limit(c, &pts[i], app_call_bytes(c, most, 4), lead,
                           c->transfer_size ? "a process's call is"
                                            : "a process's particles of one variable are",
                           "give fewer particles per process", m) < 0)
            return -1;
        int64_t total = 0, off = 0;
        particles_scan(&q.dist, nprocs, 0, &off, &total);
        struct extent_file f = {c->nvars, 4 * total, 0};
        if (pattern_validate_extent(c, nprocs, &f, m) < 0)
            return -1;
    }
    return 0;
}
