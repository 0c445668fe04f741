/* What the files of src/workload share: the readers of the file's sections
 * (wl_sets.c, wl_choices.c) and the table of choices. Internal. Pure. */
#ifndef H5PERF_WL_INTERNAL_H
#define H5PERF_WL_INTERNAL_H

#include "workload/wl_read.h"

/* The next set of the workload, entry i of section ("arrays"), its key
 * and line filled; NULL with msg when there are WORKLOAD_MAX_SETS. */
struct workload_set *wl_new_set(struct wl *c, yaml_node_t *e, const char *section, int i);

/* An entry of arrays, of particles, of traces (wl_list items). */
int wl_array(struct wl *c, yaml_node_t *e, int i, void *arg);
int wl_particles(struct wl *c, yaml_node_t *e, int i, void *arg);
int wl_trace(struct wl *c, yaml_node_t *e, int i, void *arg);

/* The processes of a grid, -1 above 2^31-1. */
int64_t wl_grid_procs(const int grid[MODEL_MAX_DIMS]);

/* The reason of an option's refusal line "h5perf: SPELLED 'VALUE': REASON":
 * REASON, or the line without "h5perf: " when it has another form. */
const char *wl_option_reason(const char *line, const char *spelled, const char *value);

/* The baseline and search sections, and their defaults (wl_choices.c). */
void wl_choices_defaults(struct workload *w);
int wl_baseline(struct wl *c, yaml_node_t *v, void *arg);
int wl_search(struct wl *c, yaml_node_t *v, void *arg);

/* What a choice's non-default value applies to (wl_choices.c): the APIs
 * (API_BIT mask, 0: every one). */
unsigned wl_dim_apis(enum workload_dim d);

/* A hint's key (c->key ends with it): letters, digits, '_'; and a value
 * of hint key, as HDF5_MPI_INFO passes it (sizes in bytes), into *out
 * (wl_hint_values.c). Return 0, or -1 with the message. */
int wl_hint_key(struct wl *c, yaml_node_t *k, const char *key);
int wl_hint_value(struct wl *c, yaml_node_t *v, const char *key, const char **out);

/* Does the chunk shape of nd dimensions fit grid array s (as many
 * dimensions, each extent from 1 to the array's)? False with the reason
 * in why (workload.c). */
bool workload_chunk_fits(const struct workload_set *s, int nd, const int64_t *shape, char *why,
                         size_t len);

/* The default value of a choice. */
int64_t wl_dim_default(enum workload_dim d);

/* What the advisor races of an API row's choice (d from
 * WORKLOAD_DIM_OPTIONS on), NULL for the core's choices. */
struct opt_advice;
const struct opt_advice *wl_dim_advice(enum workload_dim d);

#endif
