/* The run points of sweep.h and the plan of each. Pure. */
#include "cli/sweep.h"

#include <stdlib.h>
#include <string.h>

#include "cli/dist.h"

bool sweep_placeable(enum pattern_layout layout, enum api_id api)
{
    return layout != LAYOUT_FPP && (api_desc(api)->caps & API_CAP_FLAT_FILE);
}

/* The application patterns' points of one process count and layout: each
 * (--align-data, --shift) pair in turn, the APIs of each; an API whose
 * files they do not place (HDF5, a file per process) once, packed. */
static int sweep_app_points(const struct config *c, int p, enum pattern_layout layout,
                            struct run_point *out, int n, int max)
{
    int na = c->nalign ? c->nalign : 1, ns = c->nshift ? c->nshift : 1;
    for (int i = 0; i < na * ns; i++) {
        int64_t align = c->nalign ? c->align_data[i / ns] : 0;
        int64_t shift = c->nshift ? c->shifts[i % ns] : 0;
        for (int a = 0; a < API_COUNT; a++) {
            bool placed = sweep_placeable(layout, (enum api_id)a);
            if (!(c->apis & API_BIT(a)) || (!placed && i > 0))
                continue;
            if (n < max)
                out[n] = (struct run_point){
                    p, 0, layout, (enum api_id)a, placed ? align : 0, placed ? shift : 0};
            n++;
        }
    }
    return n;
}

int sweep_points(const struct config *c, struct run_point *out, int max)
{
    int n = 0;
    for (int p = sweep_procs_first(c); p != 0; p = sweep_procs_next(c, p)) {
        if (c->pattern != PATTERN_GUIDE) {
            for (int i = 0; i < c->nlayouts; i++)
                n = sweep_app_points(c, p, c->layouts[i], out, n, max);
            continue;
        }
        for (int64_t x = sweep_xfer_first(c); x != 0; x = sweep_xfer_next(c, x))
            for (int a = 0; a < API_COUNT; a++) {
                if (!(c->apis & API_BIT(a)))
                    continue;
                if (n < max)
                    out[n] = (struct run_point){p, x, LAYOUT_SHARED, (enum api_id)a, 0, 0};
                n++;
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
        struct particle_params qp = {.nprocs = p->nprocs,
                                     .dist = dist_of(c),
                                     .nvars = c->nvars,
                                     .layout = p->layout,
                                     .align = p->align,
                                     .shift = p->shift};
        return pattern_init_particles(pt, &qp, exec_rank, data_rank, why);
    }
    struct block_params bp = {.nprocs = p->nprocs,
                              .ndims = c->ndims,
                              .elem = c->elem,
                              .nvars = c->nvars,
                              .layout = p->layout,
                              .align = p->align,
                              .shift = p->shift};
    memcpy(bp.global, c->global, sizeof bp.global);
    if (read && c->read_grid[0] > 0)
        memcpy(bp.grid, c->read_grid, sizeof bp.grid);
    else
        sweep_grid(c, p->nprocs, bp.grid);
    return pattern_init_block(pt, &bp, exec_rank, data_rank, why);
}

int64_t sweep_file_bytes(const struct config *c, int nprocs)
{
    struct run_point p = {nprocs, c->xfer_max, LAYOUT_SHARED, API_POSIX, 0, 0};
    struct pattern pt;
    if (sweep_plan(c, &p, 0, 0, false, &pt, NULL) < 0)
        return -1;
    int64_t bytes;
    return __builtin_mul_overflow(pt.dset_bytes, (int64_t)sweep_datasets(c), &bytes) ? -1 : bytes;
}
