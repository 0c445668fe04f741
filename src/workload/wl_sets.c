/* The data sets of a workload file (docs/advisor.md, "Arrays", "Particle
 * sets" and "Traces"): each entry of arrays, particles and traces read into a struct
 * workload_set, with its defaults, and the checks of one entry alone (the
 * grid against the array, the type against the element size). Pure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pattern/particles_options.h"
#include "cli/option.h"
#include "pattern/particles_dist.h"
#include "workload/wl_internal.h"
#include "options/options.h"

/* Element types and their sizes. */
static const char *const wl_types[] = {"u8",  "u16", "u32", "u64", "i8",
                                       "i16", "i32", "i64", "f32", "f64"};
static const int wl_type_sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 4, 8};
#define WL_NTYPES ((int)(sizeof wl_types / sizeof wl_types[0]))

/* The largest grid dimension (a process count). */
#define WL_MAX_PROCS INT64_C(2147483647)

struct workload_set *wl_new_set(struct wl *c, yaml_node_t *e, const char *section, int i)
{
    struct workload *w = c->w;
    if (w->nsets == WORKLOAD_MAX_SETS) {
        wl_fail(c, e, "at most %d arrays, particle sets and traces together", WORKLOAD_MAX_SETS);
        return NULL;
    }
    struct workload_set *s = &w->sets[w->nsets++];
    memset(s, 0, sizeof *s);
    snprintf(s->key, sizeof s->key, "%s[%d]", section, i);
    s->line = wl_line(e);
    s->steps = 1;
    return s;
}

const char *wl_option_reason(const char *line, const char *spelled, const char *value)
{
    char prefix[sizeof(struct cli_msg)];
    snprintf(prefix, sizeof prefix, "h5perf: %s '%s': ", spelled, value);
    if (strncmp(line, prefix, strlen(prefix)) == 0)
        return line + strlen(prefix);
    /* A long value is quoted cut short ("'1,2,3...': "). */
    snprintf(prefix, sizeof prefix, "h5perf: %s '", spelled);
    const char *end = strstr(line, "...': ");
    if (strncmp(line, prefix, strlen(prefix)) == 0 && end)
        return end + strlen("...': ");
    return strncmp(line, "h5perf: ", 8) == 0 ? line + 8 : line;
}

/* Refuses key of mapping e, at its line and with its key path. */
static int wl_fail_key(struct wl *c, yaml_node_t *e, const char *key, const char *why)
{
    size_t at = wl_push(c, key);
    wl_fail(c, wl_get(c, e, key), "%s", why);
    wl_pop(c, at);
    return -1;
}

static int wl_set_name(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    const char *t = wl_scalar(c, v, "a name");
    if (!t)
        return -1;
    if (!t[0])
        return wl_expected(c, v, "a name");
    return (s->name = wl_strdup(c, v, t)) ? 0 : -1;
}

static int wl_set_steps(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    return wl_whole(c, v, 1, INT64_MAX, &s->steps);
}

static int wl_global(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    s->ndims = wl_shape(c, v, INT64_MAX, s->global);
    s->line_global = wl_line(v);
    return s->ndims < 0 ? -1 : 0;
}

static int wl_element_size(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    static const char *const sizes[] = {NULL, "1", "2", NULL, "4", NULL, NULL, NULL, "8"};
    int e;
    if (wl_word(c, v, sizes, 9, "1, 2, 4 or 8 (bytes per element)", &e) < 0)
        return -1;
    if (s->elem && s->elem != e)
        return wl_fail(c, v, "%d bytes, and type '%s' has %d", e, s->type, s->elem);
    s->elem = e;
    return 0;
}

static int wl_type(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    int t;
    if (wl_word(c, v, wl_types, WL_NTYPES, "u8, u16, u32, u64, i8, i16, i32, i64, f32 or f64", &t) <
        0)
        return -1;
    if (s->elem && s->elem != wl_type_sizes[t])
        return wl_fail(c, v, "'%s' has %d bytes, and element_size is %d", wl_types[t],
                       wl_type_sizes[t], s->elem);
    s->elem = wl_type_sizes[t];
    s->type = wl_types[t];
    return 0;
}

/* A process grid: whole numbers, as many as the array's dimensions. */
static int wl_grid_of(struct wl *c, yaml_node_t *v, int grid[MODEL_MAX_DIMS], int *line)
{
    int64_t g[MODEL_MAX_DIMS];
    int nd = wl_shape(c, v, WL_MAX_PROCS, g);
    if (nd < 0)
        return -1;
    for (int d = 0; d < MODEL_MAX_DIMS; d++)
        grid[d] = d < nd ? (int)g[d] : 0;
    *line = wl_line(v);
    return 0;
}

static int wl_grid(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    s->kind = WORKLOAD_GRID;
    return wl_grid_of(c, v, s->grid, &s->line_grid);
}

static int wl_map(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    const char *t = wl_scalar(c, v, "the name of a map file");
    if (!t)
        return -1;
    if (!t[0])
        return wl_expected(c, v, "the name of a map file");
    s->kind = WORKLOAD_MAP;
    s->line_map = wl_line(v);
    return (s->map = wl_strdup(c, v, t)) ? 0 : -1;
}

static int wl_use(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    int64_t u;
    if (wl_whole(c, v, 1, WORKLOAD_MAX_VAR_COUNTS, &u) < 0)
        return -1;
    s->map_use = (int)u;
    s->line_use = wl_line(v);
    return 0;
}

static int wl_decomposition(struct wl *c, yaml_node_t *v, void *arg)
{
    static const struct wl_key keys[] = {
        {"grid", wl_grid, 0}, {"map", wl_map, 0}, {"use", wl_use, 0}};
    struct workload_set *s = arg;
    s->line_decomp = wl_line(v);
    if (wl_mapping(c, v, keys, 3, s) < 0)
        return -1;
    yaml_node_t *grid = wl_get(c, v, "grid"), *map = wl_get(c, v, "map");
    if (grid && map)
        return wl_fail(c, v, "give a grid or a map, not both");
    if (!grid && !map)
        return wl_fail(c, v, "give grid (a process grid, e.g. [2, 2, 2]) or map (a map file)");
    if (s->map_use && !map)
        return wl_fail_key(c, v, "use", "picks a decomposition of a map; give map");
    return 0;
}

/* variables: a count; a map array's may be a list, one per decomposition. */
static int wl_var_count(struct wl *c, yaml_node_t *v, int i, void *arg)
{
    struct workload_set *s = arg;
    int64_t n;
    if (wl_whole(c, v, 0, INT32_MAX, &n) < 0)
        return -1;
    s->var_counts[i] = (int)n;
    s->nvar_counts = i + 1;
    return 0;
}

static int wl_array_variables(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    s->line_vars = wl_line(v);
    if (v->type == YAML_SEQUENCE_NODE)
        return wl_list(c, v, WORKLOAD_MAX_VAR_COUNTS, "a list of counts", wl_var_count, s);
    int64_t n;
    if (wl_whole(c, v, 1, INT32_MAX, &n) < 0)
        return -1;
    s->nvars = (int)n;
    return 0;
}

static int wl_read_grid(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    int line;
    if (wl_grid_of(c, v, s->read_grid, &line) < 0)
        return -1;
    s->read_back = WORKLOAD_READ_GRID;
    return 0;
}

static int wl_read_back(struct wl *c, yaml_node_t *v, void *arg)
{
    static const struct wl_key keys[] = {{"grid", wl_read_grid, 0}};
    struct workload_set *s = arg;
    s->line_read = wl_line(v);
    if (v->type == YAML_MAPPING_NODE) {
        if (wl_mapping(c, v, keys, 1, s) < 0)
            return -1;
        if (s->read_back != WORKLOAD_READ_GRID)
            return wl_fail(c, v, "give grid: the process grid that reads the array back");
        return 0;
    }
    bool b;
    if (v->type != YAML_SCALAR_NODE || wl_bool(c, v, &b) < 0)
        return wl_expected(c, v, "true, false or {grid: [...]}");
    s->read_back = b ? WORKLOAD_READ_SAME : WORKLOAD_READ_NONE;
    return 0;
}

/* How many processes a grid has, or -1 above WL_MAX_PROCS. */
int64_t wl_grid_procs(const int grid[MODEL_MAX_DIMS])
{
    int64_t p = 1;
    for (int d = 0; d < MODEL_MAX_DIMS && grid[d]; d++)
        if ((p *= grid[d]) > WL_MAX_PROCS)
            return -1;
    return p;
}

/* A grid array: the grid (and the read grid) divide the array. */
static int wl_grid_check(struct wl *c, yaml_node_t *e, const struct workload_set *s,
                         const int grid[MODEL_MAX_DIMS], const char *what)
{
    int nd = 0;
    while (nd < MODEL_MAX_DIMS && grid[nd])
        nd++;
    if (nd != s->ndims)
        return wl_fail(c, e, "%s has %d dimension%s, global has %d", what, nd, nd == 1 ? "" : "s",
                       s->ndims);
    if (wl_grid_procs(grid) < 0)
        return wl_fail(c, e, "%s has more than %lld processes", what, (long long)WL_MAX_PROCS);
    for (int d = 0; d < nd; d++)
        if (s->global[d] % grid[d])
            return wl_fail(c, e,
                           "%s does not divide global (dimension %d: %lld elements over %d "
                           "processes)",
                           what, d, (long long)s->global[d], grid[d]);
    return 0;
}

/* The checks of an array entry e once read. */
static int wl_array_check(struct wl *c, yaml_node_t *e, struct workload_set *s)
{
    if (!wl_get(c, e, "decomposition"))
        return wl_fail(c, e,
                       "give decomposition: a process grid (grid: [2, 2, 2]) or a map file "
                       "(map: FILE)");
    if (!s->elem)
        s->elem = 8;
    /* variables left out: one, for a grid as for a map (one per
     * decomposition, or the one use picks), as --vars defaults
     * (docs/advisor.md, "Arrays"). */
    if (!s->nvars && !s->nvar_counts)
        s->nvars = 1;
    if (s->kind == WORKLOAD_MAP) {
        if (s->ndims)
            return wl_fail_key(c, e, "global",
                               "the map file gives the arrays' shapes; leave out global");
        if (s->read_back == WORKLOAD_READ_GRID)
            return wl_fail_key(c, e, "read_back",
                               "a map array is read back with its map: give true or false");
        if (s->map_use && s->nvar_counts)
            return wl_fail_key(c, e, "variables",
                               "use picks one decomposition: give one count, not a list");
        return 0;
    }
    if (!s->ndims)
        return wl_fail(c, e,
                       "give global: the array's shape in elements, slowest first, e.g. "
                       "[512, 512, 512]");
    if (s->nvar_counts)
        return wl_fail_key(c, e, "variables",
                           "a list of counts is for a map's decompositions: give one count");
    size_t at = wl_push(c, "decomposition.grid");
    int rc =
        wl_grid_check(c, wl_get(c, wl_get(c, e, "decomposition"), "grid"), s, s->grid, "the grid");
    wl_pop(c, at);
    if (rc < 0 || s->read_back != WORKLOAD_READ_GRID)
        return rc;
    yaml_node_t *rb = wl_get(c, e, "read_back");
    at = wl_push(c, "read_back.grid");
    rc = wl_grid_check(c, wl_get(c, rb, "grid"), s, s->read_grid, "the read grid");
    if (rc == 0 && wl_grid_procs(s->read_grid) != wl_grid_procs(s->grid))
        rc = wl_fail(c, wl_get(c, rb, "grid"), "has %lld processes, the grid has %lld",
                     (long long)wl_grid_procs(s->read_grid), (long long)wl_grid_procs(s->grid));
    wl_pop(c, at);
    return rc;
}

int wl_array(struct wl *c, yaml_node_t *e, int i, void *arg)
{
    static const struct wl_key keys[] = {
        {"name", wl_set_name, 0},
        {"global", wl_global, 0},
        {"element_size", wl_element_size, 0},
        {"type", wl_type, 0},
        {"decomposition", wl_decomposition, 0},
        {"variables", wl_array_variables, 0},
        {"steps", wl_set_steps, 0},
        {"read_back", wl_read_back, 0},
    };
    (void)arg;
    struct workload_set *s = wl_new_set(c, e, "arrays", i);
    if (!s || wl_mapping(c, e, keys, (int)(sizeof keys / sizeof keys[0]), s) < 0)
        return -1;
    return wl_array_check(c, e, s);
}

static int wl_per_process(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    return wl_whole(c, v, 1, PARTICLES_MAX_COUNT, &s->per_process);
}

/* The distribution, checked by --distribution's own parser; its reason
 * follows the workload's "file, line, key". */
static int wl_distribution(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    const char *t = wl_scalar(c, v, "a distribution: uniform, imbalance:F, normal:SD or list:...");
    if (!t)
        return -1;
    struct particles_settings *own = calloc(1, sizeof *own);
    if (!own)
        return wl_fail(c, v, "out of memory");
    const struct opt_row *row = &particles_dist_row;
    int rc = row->parse(own, row, opt_word(row), t, c->msg);
    s->nlist = own->dist.kind == DIST_LIST ? own->dist.nlist : 0;
    free(own);
    if (rc < 0)
        return wl_fail(c, v, "%s", wl_option_reason(c->msg->line, opt_word(row), t));
    s->line_dist = wl_line(v);
    return (s->distribution = wl_strdup(c, v, t)) ? 0 : -1;
}

static int wl_particle_name(struct wl *c, yaml_node_t *v, int i, void *arg)
{
    struct workload_set *s = arg;
    const char *t = wl_scalar(c, v, "a variable's name");
    if (!t)
        return -1;
    if (!t[0])
        return wl_expected(c, v, "a variable's name");
    for (int k = 0; k < i; k++)
        if (strcmp(s->names[k], t) == 0)
            return wl_fail(c, v, "'%s' is named twice", t);
    s->nnames = i + 1;
    return (s->names[i] = wl_strdup(c, v, t)) ? 0 : -1;
}

static int wl_particle_variables(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    s->line_vars = wl_line(v);
    if (v->type == YAML_SEQUENCE_NODE) {
        if (wl_items(v) == 0)
            return wl_fail(c, v, "name 1 to %d variables", WORKLOAD_MAX_PARTICLE_VARS);
        if (wl_list(c, v, WORKLOAD_MAX_PARTICLE_VARS, "a list of names", wl_particle_name, s) < 0)
            return -1;
        s->nvars = s->nnames;
        return 0;
    }
    int64_t n;
    if (wl_whole(c, v, 1, WORKLOAD_MAX_PARTICLE_VARS, &n) < 0)
        return -1;
    s->nvars = (int)n;
    return 0;
}

static int wl_particle_read_back(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    bool b;
    if (wl_bool(c, v, &b) < 0)
        return -1;
    s->read_back = b ? WORKLOAD_READ_SAME : WORKLOAD_READ_NONE;
    return 0;
}

int wl_particles(struct wl *c, yaml_node_t *e, int i, void *arg)
{
    static const struct wl_key keys[] = {
        {"name", wl_set_name, 0},
        {"per_process", wl_per_process, 0},
        {"distribution", wl_distribution, 0},
        {"variables", wl_particle_variables, 0},
        {"steps", wl_set_steps, 0},
        {"read_back", wl_particle_read_back, 0},
    };
    (void)arg;
    struct workload_set *s = wl_new_set(c, e, "particles", i);
    if (!s || wl_mapping(c, e, keys, (int)(sizeof keys / sizeof keys[0]), s) < 0)
        return -1;
    s->kind = WORKLOAD_PARTICLES;
    s->elem = 4;
    if (!s->nvars)
        s->nvars = WORKLOAD_MAX_PARTICLE_VARS;
    if (s->nlist && s->per_process)
        return wl_fail_key(c, e, "per_process",
                           "the list distribution gives every process's count; leave out "
                           "per_process");
    if (!s->nlist && !s->per_process)
        return wl_fail(c, e, "give per_process: the mean count of particles per process");
    return 0;
}

static int wl_trace_file(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload_set *s = arg;
    const char *t = wl_scalar(c, v, "the name of a trace file");
    if (!t)
        return -1;
    if (!t[0])
        return wl_expected(c, v, "the name of a trace file");
    s->line_trace = wl_line(v);
    return (s->trace = wl_strdup(c, v, t)) ? 0 : -1;
}

/* An entry of traces: an application's calls (docs/trace.md), replayed
 * with --pattern trace; the trace gives its files, calls and processes. */
int wl_trace(struct wl *c, yaml_node_t *e, int i, void *arg)
{
    static const struct wl_key keys[] = {
        {"name", wl_set_name, 0},
        {"trace", wl_trace_file, 0},
    };
    (void)arg;
    struct workload_set *s = wl_new_set(c, e, "traces", i);
    if (!s || wl_mapping(c, e, keys, (int)(sizeof keys / sizeof keys[0]), s) < 0)
        return -1;
    s->kind = WORKLOAD_TRACE;
    s->nvars = 1;
    if (!s->trace)
        return wl_fail(c, e, "give trace: the application's trace file (docs/trace.md)");
    return 0;
}
