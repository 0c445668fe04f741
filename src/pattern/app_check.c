/* Validation of the block pattern's sweep before any file exists
 * (docs/block.md): at every process count its grid must divide the array
 * (MPI_Dims_create's grid or --grid, and --read-grid), the array must fit
 * in 64-bit offsets, and each process's block within the call limit of
 * every API selected. Pure: no MPI, nothing printed. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/dims.h"
#include "cli/sweep.h"
#include "pattern/particles.h"

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
    for (int d = 0; d < c->ndims; d++)
        if (c->global[d] % grid[d] != 0) {
            snprintf(buf, len, "dimension %d: %" PRId64 " elements over %d processes", d + 1,
                     c->global[d], grid[d]);
            return;
        }
    buf[0] = '\0';
}

static int val_grid(const struct config *c, int nprocs, bool read, enum pattern_violation v,
                    struct cli_msg *m)
{
    const char *g = c->spelled[OPT_GLOBAL], *graw = c->raw[OPT_GLOBAL];
    if (v == PATTERN_OVERFLOW)
        return cli_fail(m,
                        "h5perf: %s '%s': %d variable%s of %d-byte elements do%s not fit in "
                        "64-bit offsets",
                        g, graw, c->nvars, c->nvars == 1 ? "" : "s", c->elem,
                        c->nvars == 1 ? "es" : "");
    int grid[MODEL_MAX_DIMS];
    char text[64], why[128];
    if (read)
        for (int d = 0; d < MODEL_MAX_DIMS; d++)
            grid[d] = c->read_grid[d];
    else
        sweep_grid(c, nprocs, grid);
    grid_text(text, sizeof text, c->ndims, grid);
    split_text(c, grid, why, sizeof why);
    enum opt_id id = read ? OPT_READ_GRID : OPT_GRID;
    if (c->spelled[id])
        return cli_fail(m, "h5perf: %s '%s': does not divide %s '%s' (%s)", c->spelled[id],
                        c->raw[id], g, graw, why);
    return cli_fail(m,
                    "h5perf: %s '%s': with %d process%s MPI_Dims_create's grid %s does not "
                    "divide it (%s); give --grid, or other process counts (-p, -P)",
                    g, graw, nprocs, nprocs == 1 ? "" : "es", text, why);
}

/* The option that set the particles' counts, as typed: --distribution,
 * else --particles (its default if not given). */
static void val_counts_option(const struct config *c, const char **spelled, const char **raw)
{
    enum opt_id id = c->spelled[OPT_DISTRIBUTION] ? OPT_DISTRIBUTION : OPT_PARTICLES;
    *spelled = c->spelled[id] ? c->spelled[id] : "--particles";
    *raw = c->raw[id] ? c->raw[id] : "1048576";
}

/* The particles pattern: the counts sum to nothing, or to more than
 * 64-bit offsets hold. */
static int val_particles(const struct config *c, int nprocs, enum pattern_violation v,
                         struct cli_msg *m)
{
    const char *spelled, *raw;
    val_counts_option(c, &spelled, &raw);
    if (v == PATTERN_NO_PARTICLES)
        return cli_fail(m, "h5perf: %s '%s': no process has any particles with %d process%s",
                        spelled, raw, nprocs, nprocs == 1 ? "" : "es");
    return cli_fail(m,
                    "h5perf: %s '%s': %d variable%s of the particles of %d process%s do%s not "
                    "fit in 64-bit offsets",
                    spelled, raw, c->nvars, c->nvars == 1 ? "" : "s", nprocs,
                    nprocs == 1 ? "" : "es", c->nvars == 1 ? "es" : "");
}

/* An API's limit on the bytes one call moves (api.h): a process's block
 * moves in one call. */
static int val_block_limit(const struct config *c, const struct run_point *p, int64_t bytes,
                           struct cli_msg *m)
{
    const struct api_desc *api = api_desc(p->api);
    if (!api->max_call_bytes || bytes <= api->max_call_bytes)
        return 0;
    char size[32];
    cli_bytes(size, sizeof size, bytes);
    if (c->pattern == PATTERN_PARTICLES) {
        const char *spelled, *raw;
        val_counts_option(c, &spelled, &raw);
        return cli_fail(m,
                        "h5perf: %s '%s': a process's particles of one variable are %s with %d "
                        "process%s, above %s's limit of %" PRId64 " bytes per call; give fewer "
                        "particles per process or leave out %s",
                        spelled, raw, size, p->nprocs, p->nprocs == 1 ? "" : "es", api->err_name,
                        api->max_call_bytes, api->key);
    }
    return cli_fail(m,
                    "h5perf: %s '%s': each process's block is %s with %d process%s, above "
                    "%s's limit of %" PRId64 " bytes per call; use more processes or leave "
                    "out %s",
                    c->spelled[OPT_GLOBAL], c->raw[OPT_GLOBAL], size, p->nprocs,
                    p->nprocs == 1 ? "" : "es", api->err_name, api->max_call_bytes, api->key);
}

/* The most one process moves in one call: its block (every block of a
 * grid that divides the array has the same size), or the largest count of
 * particles. */
static int64_t val_call_bytes(const struct config *c, const struct run_point *p,
                              const struct pattern *pt)
{
    if (c->pattern != PATTERN_PARTICLES)
        return pt->xfer_bytes;
    /* At most 7 * 2^40 particles: the product fits. */
    return particles_max_count(&pt->q.dist, p->nprocs) * 4;
}

int config_validate_block(const struct config *c, struct cli_msg *m)
{
    struct run_point pts[CONFIG_MAX_SWEEP * LAYOUT_COUNT * API_COUNT];
    int n = sweep_points(c, pts, (int)(sizeof pts / sizeof pts[0]));
    for (int i = 0; i < n; i++) {
        struct pattern pt;
        enum pattern_violation v;
        for (int read = 0; read < 2; read++) {
            if (sweep_plan(c, &pts[i], 0, 0, read, &pt, &v) < 0)
                return c->pattern == PATTERN_PARTICLES
                           ? val_particles(c, pts[i].nprocs, v, m)
                           : val_grid(c, pts[i].nprocs, read && c->read_grid[0] > 0, v, m);
            if (val_block_limit(c, &pts[i], val_call_bytes(c, &pts[i], &pt), m) < 0)
                return -1;
        }
        if (config_validate_extent(c, pts[i].nprocs, m) < 0)
            return -1;
    }
    return 0;
}
