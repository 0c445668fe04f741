/* Defaults and refusals of the block pattern (docs/block.md): the defaults
 * (8-byte elements, one variable, every layout), the grid against the
 * array, the process counts, the read grid and the chunk shape. What the
 * application patterns refuse alike is app_finish.c's. Pure. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dims.h"
#include "pattern/app_finish.h"
#include "pattern/block.h"
#include "pattern/block_options.h"

/* "4x4x4" of a grid. */
static void grid_text(char *buf, size_t len, int n, const int *grid)
{
    int64_t g[MODEL_MAX_DIMS] = {0, 0, 0};
    for (int d = 0; d < n; d++)
        g[d] = grid[d];
    dims_text(buf, len, n, g);
}

static int grid_dims(const int *grid)
{
    int n = 0;
    while (n < MODEL_MAX_DIMS && grid[n] > 0)
        n++;
    return n;
}

/* The grid's processes; -1 above 2147483647 (no MPI job has more, and
 * three factors below 2^31 could overflow 64 bits). */
static int64_t grid_procs(int n, const int *grid)
{
    int64_t p = 1;
    for (int d = 0; d < n; d++) {
        p *= grid[d]; /* below 2^31 times below 2^31: fits */
        if (p > 2147483647)
            return -1;
    }
    return p;
}

/* "4 processes", "1 process", "more than 2147483647 processes". */
static void procs_text(char *buf, size_t len, int64_t p)
{
    if (p < 0)
        snprintf(buf, len, "more than 2147483647 processes");
    else
        snprintf(buf, len, "%lld process%s", (long long)p, p == 1 ? "" : "es");
}

/* --grid or --read-grid: as many dimensions as --global. */
static int block_grid_dims(const struct config *cfg, const struct opt_row *row, const int *grid,
                           struct cli_msg *msg)
{
    const struct block_settings *b = block_of(cfg);
    if (!block_spelled(cfg, row) || grid_dims(grid) == b->ndims)
        return 0;
    return cli_fail(msg, "h5perf: %s '%s': has %d dimension%s, %s '%s' has %d",
                    block_spelled(cfg, row), block_raw(cfg, row), grid_dims(grid),
                    grid_dims(grid) == 1 ? "" : "s", block_spelled(cfg, &block_global_row),
                    block_raw(cfg, &block_global_row), b->ndims);
}

/* With --grid the run has its product of processes: -p and -P, if given,
 * must say the same. */
static int block_grid_procs(struct config *cfg, int world_size, struct cli_msg *msg)
{
    const struct block_settings *b = block_of(cfg);
    const char *grid = block_spelled(cfg, &block_grid_row);
    int64_t p = grid_procs(b->ndims, b->grid);
    char g[64], n[64];
    grid_text(g, sizeof g, b->ndims, b->grid);
    procs_text(n, sizeof n, p);
    if (p < 0 || p > world_size)
        return cli_fail(msg, "h5perf: %s '%s': needs %s, only %d %s started", grid,
                        block_raw(cfg, &block_grid_row), n, world_size,
                        world_size == 1 ? "was" : "were");
    const enum opt_id ids[2] = {OPT_MIN_PROCS, OPT_MAX_PROCS};
    const int values[2] = {cfg->min_procs, cfg->max_procs};
    for (int i = 0; i < 2; i++)
        if (cfg->spelled[ids[i]] && values[i] != p)
            return cli_fail(msg,
                            "h5perf: %s '%s': %s '%s' runs %lld processes; leave out -p and -P "
                            "or give them its product",
                            cfg->spelled[ids[i]], cfg->raw[ids[i]], grid, g, (long long)p);
    cfg->min_procs = cfg->max_procs = (int)p;
    return 0;
}

/* --read-grid reads the shared file back with the same number of processes
 * as the --grid that wrote it. */
static int block_read_grid(const struct config *cfg, struct cli_msg *msg)
{
    const struct block_settings *b = block_of(cfg);
    const char *rg = block_spelled(cfg, &block_read_grid_row);
    const char *rraw = block_raw(cfg, &block_read_grid_row);
    const char *grid = block_spelled(cfg, &block_grid_row);
    if (!rg)
        return 0;
    if (cfg->nlayouts != 1 || cfg->layouts[0] != LAYOUT_SHARED)
        return cli_fail(msg,
                        "h5perf: %s '%s': reads the shared layout back (the others follow the "
                        "writer's grid); give --layout shared",
                        rg, rraw);
    if (cfg->write_only)
        return cli_fail(msg, "h5perf: %s: cannot be combined with %s (there is no read phase)", rg,
                        cfg->spelled[OPT_WRITE_ONLY]);
    if (!grid)
        return cli_fail(msg, "h5perf: %s '%s': give the writing grid with --grid as well", rg,
                        rraw);
    /* A stonewalled write leaves each block partly unwritten: another grid
     * would read what no process wrote (docs/measuring.md). */
    if (cfg->stonewall > 0)
        return cli_fail(msg,
                        "h5perf: %s '%s': reads with another grid than the write, which %s "
                        "leaves partly unwritten; give one of them",
                        rg, rraw, cfg->spelled[OPT_STONEWALL]);
    int64_t rp = grid_procs(b->ndims, b->read_grid);
    int64_t wp = grid_procs(b->ndims, b->grid);
    char rn[64];
    procs_text(rn, sizeof rn, rp);
    if (rp != wp)
        return cli_fail(msg, "h5perf: %s '%s': has %s, %s '%s' has %lld", rg, rraw, rn, grid,
                        block_raw(cfg, &block_grid_row), (long long)wp);
    return 0;
}

/* --chunk-shape shapes the chunks of the chunked layout's HDF5 datasets
 * (the shared and fpp layouts' are contiguous): as many dimensions as the
 * array, each within it, a chunk below HDF5's 4 GiB. */
static int block_chunk_shape(const struct config *cfg, struct cli_msg *msg)
{
    const struct block_settings *b = block_of(cfg);
    const char *opt = block_spelled(cfg, &block_chunk_shape_row);
    const char *raw = block_raw(cfg, &block_chunk_shape_row);
    const char *global = block_spelled(cfg, &block_global_row);
    const char *graw = block_raw(cfg, &block_global_row);
    if (!opt)
        return 0;
    int n = 0;
    while (n < MODEL_MAX_DIMS && b->chunk_shape[n] > 0)
        n++;
    if (n != b->ndims)
        return cli_fail(msg, "h5perf: %s '%s': has %d dimension%s, %s '%s' has %d", opt, raw, n,
                        n == 1 ? "" : "s", global, graw, b->ndims);
    for (int d = 0; d < n; d++)
        if (b->chunk_shape[d] > b->global[d])
            return cli_fail(msg,
                            "h5perf: %s '%s': dimension %d is %lld elements, beyond the "
                            "array's %lld (%s '%s'); each is from 1 to the array's",
                            opt, raw, d + 1, (long long)b->chunk_shape[d], (long long)b->global[d],
                            global, graw);
    bool chunked = false;
    for (int l = 0; l < cfg->nlayouts; l++)
        chunked |= cfg->layouts[l] == LAYOUT_CHUNKED;
    if (!chunked)
        return cli_fail(msg,
                        "h5perf: %s '%s': shapes the chunks of the chunked layout, and %s '%s' "
                        "does not select it (the shared and fpp layouts' HDF5 datasets are "
                        "contiguous)",
                        opt, raw, cfg->spelled[OPT_LAYOUT], cfg->raw[OPT_LAYOUT]);
    int64_t bytes = cfg->elem;
    for (int d = 0; d < n; d++)
        if (__builtin_mul_overflow(bytes, b->chunk_shape[d], &bytes))
            bytes = INT64_MAX;
    if (bytes > (int64_t)UINT32_MAX)
        return cli_fail(msg,
                        "h5perf: %s '%s': a chunk of %lld bytes is above HDF5's limit of %lu "
                        "bytes per chunk",
                        opt, raw, (long long)bytes, (unsigned long)UINT32_MAX);
    return 0;
}

int block_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg)
{
    (void)w;
    if (app_finish_common(cfg, msg) < 0)
        return -1;
    const struct block_settings *b = block_of(cfg);
    if (!b->ndims)
        return cli_fail(msg,
                        "h5perf: %s block: give the array with --global, e.g. --global "
                        "512x512x512",
                        cfg->spelled[OPT_PATTERN]);
    if (!cfg->elem)
        cfg->elem = 8;
    if (app_finish_transfer(cfg, cfg->elem, msg) < 0)
        return -1;
    if (!cfg->nvars)
        cfg->nvars = 1;
    if (!cfg->nlayouts) {
        cfg->nlayouts = LAYOUT_COUNT;
        for (int l = 0; l < LAYOUT_COUNT; l++)
            cfg->layouts[l] = l;
    }
    if (block_grid_dims(cfg, &block_grid_row, b->grid, msg) < 0 ||
        block_grid_dims(cfg, &block_read_grid_row, b->read_grid, msg) < 0 ||
        (block_spelled(cfg, &block_grid_row) && block_grid_procs(cfg, world_size, msg) < 0) ||
        block_read_grid(cfg, msg) < 0)
        return -1;
    if (cfg->read_only && (cfg->nlayouts != 1 || cfg->layouts[0] != LAYOUT_SHARED))
        return cli_fail(msg,
                        "h5perf: %s: reads a kept shared file (the other layouts follow the "
                        "writer's grid); give --layout shared",
                        cfg->spelled[OPT_READ_ONLY]);
    return block_chunk_shape(cfg, msg) < 0 ? -1 : app_finish_places(cfg, msg);
}
