/* The run points of sweep.h and the plan of each. Pure. */
#include "cli/sweep.h"

#include <stdlib.h>
#include <string.h>

#include "cli/dist.h"

int sweep_points(const struct config *c, struct run_point *out, int max)
{
    int n = 0;
    for (int p = sweep_procs_first(c); p != 0; p = sweep_procs_next(c, p)) {
        bool block = c->pattern != PATTERN_GUIDE;
        int inner = block ? c->nlayouts : 0;
        int64_t x = block ? 0 : sweep_xfer_first(c);
        for (int i = 0; block ? i < inner : x != 0; i++) {
            for (int a = 0; a < API_COUNT; a++) {
                if (!(c->apis & API_BIT(a)))
                    continue;
                if (n < max)
                    out[n] = (struct run_point){p, x, block ? c->layouts[i] : LAYOUT_SHARED,
                                                (enum api_id)a};
                n++;
            }
            if (!block)
                x = sweep_xfer_next(c, x);
        }
    }
    return n;
}

struct run_point *sweep_points_all(const struct config *c, int *n)
{
    *n = sweep_points(c, NULL, 0);
    struct run_point *pts = malloc(sizeof *pts * (size_t)(*n > 0 ? *n : 1));
    if (pts)
        sweep_points(c, pts, *n);
    return pts;
}

void sweep_grid(const struct config *c, int nprocs, int grid[MODEL_MAX_DIMS])
{
    if (c->grid[0] > 0) {
        memcpy(grid, c->grid, sizeof c->grid);
        return;
    }
    int k = 0;
    for (int p = sweep_procs_first(c); p != 0 && p != nprocs; p = sweep_procs_next(c, p))
        k++;
    memcpy(grid, c->auto_grid[k < CONFIG_MAX_SWEEP ? k : 0], sizeof c->grid);
}

int sweep_plan(const struct config *c, const struct run_point *p, int exec_rank, int data_rank,
               bool read, struct pattern *pt, enum pattern_violation *why)
{
    if (c->pattern == PATTERN_GUIDE) {
        struct pattern_params pp = sweep_pattern_params(c, p->nprocs, p->xfer);
        return pattern_init(pt, &pp, exec_rank, data_rank, why);
    }
    if (c->pattern == PATTERN_PARTICLES) {
        struct particle_params qp = {
            .nprocs = p->nprocs, .dist = dist_of(c), .nvars = c->nvars, .layout = p->layout};
        return pattern_init_particles(pt, &qp, exec_rank, data_rank, why);
    }
    struct block_params bp = {.nprocs = p->nprocs,
                              .ndims = c->ndims,
                              .elem = c->elem,
                              .nvars = c->nvars,
                              .layout = p->layout};
    memcpy(bp.global, c->global, sizeof bp.global);
    if (read && c->read_grid[0] > 0)
        memcpy(bp.grid, c->read_grid, sizeof bp.grid);
    else
        sweep_grid(c, p->nprocs, bp.grid);
    return pattern_init_block(pt, &bp, exec_rank, data_rank, why);
}

int64_t sweep_file_bytes(const struct config *c, int nprocs)
{
    struct run_point p = {nprocs, c->xfer_max, LAYOUT_SHARED, API_POSIX};
    struct pattern pt;
    if (sweep_plan(c, &p, 0, 0, false, &pt, NULL) < 0)
        return -1;
    int64_t bytes;
    return __builtin_mul_overflow(pt.dset_bytes, (int64_t)sweep_datasets(c), &bytes) ? -1 : bytes;
}
