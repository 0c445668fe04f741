/* The particles pattern (docs/particles.md) as a pattern of the table:
 * VPIC-IO's variables, each a 1D array of the particles of every process,
 * a process's run at the exclusive scan of the counts (particles_dist.h),
 * planned as a 1D box of the application patterns (app.h); the HDF5 file
 * has VPIC-IO's layout (group Timestep_<iteration>, 32-bit floats and
 * integers). Its options' finish is particles_finish.c, its validation
 * app_check.c. */
#include "pattern/particles.h"

#include <stdio.h>
#include <string.h>

#include "cli/dist.h"
#include "pattern/app.h"
#include "pattern/app_points.h"
#include "pattern/app_options.h"
#include "pattern/particles_options.h"
#include "report/table.h"

void particles_params(const struct config *c, const struct run_point *p,
                      struct particle_params *out)
{
    *out = (struct particle_params){.nprocs = p->nprocs,
                                    .dist = particles_dist(c),
                                    .nvars = c->nvars,
                                    .layout = p->layout,
                                    .align = p->align,
                                    .shift = p->shift};
}

static void particles_name(const struct app_state *st, int v, char *buf, size_t len)
{
    snprintf(buf, len, "Timestep_%d/%s", st->iteration, particles_var_name(v));
}

static enum plan_kind particles_kind(int v)
{
    return particles_var_is_int(v) ? PLAN_SIGNED : PLAN_FLOAT;
}

/* The geometry of rank's particles: a 1D box of the array of every
 * process's, its run aligned to --align-data (docs/particles.md,
 * "Alignment"). */
static void particles_geom(const struct particle_params *q, int rank, struct app_geom *g)
{
    int64_t offset = 0, total = 0;
    particles_scan(&q->dist, q->nprocs, rank, &offset, &total);
    struct app_params a = {.nprocs = q->nprocs,
                           .ndims = 1,
                           .global = {total},
                           .grid = {q->nprocs},
                           .elem = 4,
                           .nvars = q->nvars,
                           .layout = q->layout,
                           .shift = q->shift};
    struct model_box box = {1, {offset}, {particles_count(&q->dist, q->nprocs, rank)}};
    app_place(g, &a, rank, &box);
    g->a.align = q->align;
    g->c_order = g->c_order && q->align == 0;
    if (q->align > 0)
        particles_places(&q->dist, q->nprocs, rank, q->align, &g->run_disp, &g->var_end,
                         &g->var_stride);
}

static void particles_state(const struct config *c, const struct run_point *p, int rank,
                            struct app_state *st)
{
    struct particle_params q;
    particles_params(c, p, &q);
    memset(st, 0, sizeof *st);
    particles_geom(&q, rank, &st->geom[0]);
    st->geom[1] = st->geom[0];
    /* Every process makes as many calls as the one with the most particles. */
    int64_t most = 4 * particles_max_count(&q.dist, q.nprocs);
    st->nsteps[0] = st->nsteps[1] = app_calls(most, 4, c->transfer_size);
    st->xfer_elems = c->transfer_size / 4;
    st->name = particles_name;
    st->kind = particles_kind;
}

static int particles_plan(const struct config *c, const struct run_point *p, int rank, int it,
                          struct plan *out)
{
    struct app_state st;
    particles_state(c, p, rank, &st);
    /* A read-only run reads the group of a kept one-iteration file. */
    st.iteration = c->read_only ? 0 : it;
    app_plan(out, &st, p->nprocs, rank, 1);
    return 0;
}

static int particles_grid_dims(const struct config *c)
{
    (void)c;
    return 0;
}

static int particles_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
                            struct run_point *out, int max)
{
    static const int none[MODEL_MAX_DIMS] = {0, 0, 0};
    (void)grid;
    return app_points(c, nprocs, none, out, max);
}

/* Each process holds its own particles of one variable. */
static void particles_measure(const struct config *c, const struct run_point *p,
                              struct pattern_measure *m, int64_t *buffers)
{
    struct app_state st;
    struct particle_params q;
    particles_params(c, p, &q);
    particles_state(c, p, 0, &st);
    memset(m, 0, sizeof *m);
    int64_t total = st.geom[0].a.global[0];
    m->phase_bytes = 4 * total * c->nvars;
    m->max_buffer = 4 * particles_max_count(&q.dist, q.nprocs);
    m->max_call = m->max_buffer;
    int64_t per = st.xfer_elems * 4;
    if (per > 0 && per < m->max_call)
        m->max_call = per;
    m->nvars = c->nvars;
    m->var_bytes = 4 * total;
    m->flat_bytes = app_file_end(&st.geom[0], c->nvars);
    m->max_dim = total;
    m->call_runs = 1;
    m->phase_runs = (int64_t)c->nvars * st.nsteps[0];
    for (int r = 0; buffers && r < p->nprocs; r++)
        buffers[r] = 4 * particles_count(&q.dist, q.nprocs, r);
}

static void particles_lead(const struct config *c, const struct run_point *p, char *buf, size_t len)
{
    char opt[160];
    particles_data_option(c, opt, sizeof opt);
    app_lead(opt, p, buf, len);
}

static void particles_memory_lead(const struct config *c, int nprocs, char *buf, size_t len)
{
    char opt[160];
    particles_data_option(c, opt, sizeof opt);
    app_memory_lead(opt, nprocs, buf, len);
}

static void particles_file_lead(const struct config *c, char *buf, size_t len)
{
    char opt[160];
    particles_data_option(c, opt, sizeof opt);
    app_file_lead(c, opt, buf, len);
}

static int particles_read_source(const struct config *c, int nprocs, int rank)
{
    (void)c, (void)nprocs;
    return rank;
}

/* --- the report and the results ----------------------------------------- */

/* "Particles pattern: imbalance:0.5 around 1048576 per process, 8
 * variables of 4-byte elements (x, y, z, px, py, pz, id_1, id_2)". */
static void particles_header(FILE *out, const struct config *c, int rank, const char *hdf5_version,
                             int max_info_val)
{
    struct particle_dist d = particles_dist(c);
    char dist[256], line[512];
    size_t n = 0;
    (void)rank, (void)max_info_val;
    dist_text(&d, dist, sizeof dist);
    n += (size_t)snprintf(line + n, sizeof line - n, "Particles pattern: %s", dist);
    if (d.kind == DIST_UNIFORM)
        n += (size_t)snprintf(line + n, sizeof line - n, ", %lld per process", (long long)d.mean);
    else if (d.kind != DIST_LIST)
        n += (size_t)snprintf(line + n, sizeof line - n, " around %lld per process",
                              (long long)d.mean);
    if (d.kind == DIST_NORMAL)
        n += (size_t)snprintf(line + n, sizeof line - n, ", seed %llu", (unsigned long long)d.seed);
    n += (size_t)snprintf(line + n, sizeof line - n, ", %d variable%s of 4-byte elements (",
                          c->nvars, c->nvars == 1 ? "" : "s");
    for (int v = 0; v < c->nvars && n < sizeof line; v++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", v ? ", " : "",
                              particles_var_name(v));
    if (n < sizeof line)
        snprintf(line + n, sizeof line - n, ")\n");
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_header(out, &rs, hdf5_version, line);
}

/* "4194304 particles, 0 to 2097152 per process" */
static void particles_nprocs_end(FILE *out, const struct config *c, const struct results_log *log,
                                 int nprocs)
{
    struct particle_dist d = particles_dist(c);
    int64_t total, least, most;
    char what[128];
    particles_summary(&d, nprocs, &total, &least, &most);
    snprintf(what, sizeof what, "%lld particles, %lld to %lld per process", (long long)total,
             (long long)least, (long long)most);
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_write(out, &rs, log, nprocs, what);
}

static const struct pattern_report particles_report = {
    .header = particles_header,
    .nprocs_end = particles_nprocs_end,
};

static void particles_json_config(struct jsonw *w, const struct config *c)
{
    jsonw_key(w, "particles");
    jsonw_object(w);
    opt_json_rows(w, particles_of(c),
                  (const struct opt_row *const[]){&particles_count_row, &particles_dist_row,
                                                  &particles_seed_row},
                  3, false);
    jsonw_key(w, "vars");
    jsonw_array(w);
    for (int v = 0; v < c->nvars; v++)
        jsonw_string(w, particles_var_name(v));
    jsonw_end(w);
    opt_json_rows(w, c,
                  (const struct opt_row *const[]){&app_layout_row, &app_align_data_row,
                                                  &app_shift_row, &app_transfer_size_row},
                  4, false);
    jsonw_end(w);
}

/* The particles of a run: all processes', and the fewest and the most of
 * one process. */
static void particles_json_run(struct jsonw *w, const struct config *c, const struct api_result *r)
{
    struct particle_dist d = particles_dist(c);
    int64_t total, least, most;
    particles_summary(&d, r->nprocs, &total, &least, &most);
    jsonw_key(w, "particles");
    jsonw_object(w);
    jsonw_key_int(w, "total", total);
    jsonw_key_int(w, "min", least);
    jsonw_key_int(w, "max", most);
    jsonw_end(w);
}

const struct pattern_desc pattern_particles = {
    .key = "particles",
    .title = "--pattern particles",
    .rows = particles_rows,
    .help_heading = "--pattern particles (VPIC-IO's particles with uneven counts per "
                    "process: x, y, z, px, py, pz, id_2 of 32-bit floats and id_1 of 32-bit "
                    "integers, docs/particles.md) takes",
    .layouts = 1u << LAYOUT_SHARED | 1u << LAYOUT_FPP,
    .finish = particles_finish,
    .grid_dims = particles_grid_dims,
    .points = particles_points,
    .validate = particles_validate,
    .measure = particles_measure,
    .plan = particles_plan,
    .label = app_label,
    .lead = particles_lead,
    .smaller_chunks = "more processes",
    .read_source = particles_read_source,
    .cache_advice = "use more particles than the hosts' memory holds",
    .memory_lead = particles_memory_lead,
    .buffer_name = "variable's particles",
    .buffer_remedy = "more processes, on more hosts",
    .file_lead = particles_file_lead,
    .var_word = "variable",
    .report = &particles_report,
    .json_config = particles_json_config,
    .json_run = particles_json_run,
};
