/* workload_parse() (workload.h): libyaml loads the text into a document
 * (its only parsing), whose nodes are walked section by section (name,
 * processes, arrays, particles, baseline, search), then the checks that
 * involve several sections: process counts, names, the baseline's chunk
 * shape.
 * Pure: the text comes in, nothing is read or printed here. */
#include "workload/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli/dims.h"
#include "plan/point.h"
#include "workload/wl_internal.h"

static int wl_name(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload *w = arg;
    const char *s = wl_scalar(c, v, "a name");
    return s && (w->name = wl_strdup(c, v, s)) ? 0 : -1;
}

static int wl_processes(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload *w = arg;
    int64_t p;
    if (wl_whole(c, v, 1, INT32_MAX, &p) < 0)
        return -1;
    w->processes = (int)p;
    w->processes_line = wl_line(v);
    return 0;
}

static int wl_arrays(struct wl *c, yaml_node_t *v, void *arg)
{
    return wl_list(c, v, WORKLOAD_MAX_SETS, "a list of arrays", wl_array, arg);
}

static int wl_particle_sets(struct wl *c, yaml_node_t *v, void *arg)
{
    return wl_list(c, v, WORKLOAD_MAX_SETS, "a list of particle sets", wl_particles, arg);
}

static int wl_traces(struct wl *c, yaml_node_t *v, void *arg)
{
    return wl_list(c, v, WORKLOAD_MAX_SETS, "a list of traces", wl_trace, arg);
}

/* The node at a set's key path: "arrays[0].decomposition.grid". */
static yaml_node_t *wl_set_node(struct wl *c, yaml_node_t *root, const struct workload_set *s,
                                const char *k1, const char *k2)
{
    yaml_node_t *list = wl_get(c, root,
                               s->kind == WORKLOAD_PARTICLES ? "particles"
                               : s->kind == WORKLOAD_TRACE   ? "traces"
                                                             : "arrays");
    int i = atoi(strchr(s->key, '[') + 1);
    yaml_node_t *n = wl_node(c, list->data.sequence.items.start[i]);
    n = k1 ? wl_get(c, n, k1) : n;
    return k2 && n ? wl_get(c, n, k2) : n;
}

/* Sets the key path to a set's key (key NULL: the set itself). */
static void wl_at(struct wl *c, const struct workload_set *s, const char *key)
{
    snprintf(c->key, sizeof c->key, "%s%s%s", s->key, key ? "." : "", key ? key : "");
}

/* The process count every set must run on: processes, or the first grid
 * or list; each set agrees with it. */
static int wl_check_processes(struct wl *c, yaml_node_t *root)
{
    struct workload *w = c->w;
    int64_t procs = w->processes;
    const char *from = "processes";
    for (int i = 0; i < w->nsets; i++) {
        const struct workload_set *s = &w->sets[i];
        bool grid = s->kind == WORKLOAD_GRID && s->grid[0];
        int64_t p = grid ? wl_grid_procs(s->grid) : s->nlist;
        if (!p)
            continue;
        const char *key = grid ? "decomposition.grid" : "distribution";
        if (procs && p != procs) {
            wl_at(c, s, key);
            return wl_fail(c,
                           grid ? wl_set_node(c, root, s, "decomposition", "grid")
                                : wl_set_node(c, root, s, "distribution", NULL),
                           "runs on %lld processes, and %s has %lld", (long long)p, from,
                           (long long)procs);
        }
        if (!procs) {
            procs = p;
            from = s->key;
        }
    }
    return 0;
}

/* Names are unique, so that messages and results can use them. */
static int wl_check_names(struct wl *c, yaml_node_t *root)
{
    struct workload *w = c->w;
    for (int i = 0; i < w->nsets; i++) {
        struct workload_set *s = &w->sets[i];
        if (!s->name)
            s->name = s->key;
        for (int j = 0; j < i; j++)
            if (strcmp(w->sets[j].name, s->name) == 0) {
                wl_at(c, s, "name");
                return wl_fail(c, wl_set_node(c, root, s, "name", NULL),
                               "'%s' is also the name of %s", s->name, w->sets[j].key);
            }
    }
    return 0;
}

bool workload_chunk_fits(const struct workload_set *s, int nd, const int64_t *shape, char *why,
                         size_t len)
{
    char text[96];
    dims_text(text, sizeof text, nd, shape);
    if (nd != s->ndims) {
        snprintf(why, len, "chunk shape %s has %d dimension%s, %s has %d", text, nd,
                 nd == 1 ? "" : "s", s->key, s->ndims);
        return false;
    }
    for (int d = 0; d < nd; d++)
        if (shape[d] > s->global[d]) {
            snprintf(why, len, "chunk shape %s is beyond %s's extent %lld in dimension %d", text,
                     s->key, (long long)s->global[d], d + 1);
            return false;
        }
    return true;
}

/* baseline.chunk: a shape is the chunked layout's (--chunk-shape), so
 * the baseline's layout must be chunked, and the shape must fit every
 * grid array: as many dimensions, each extent within the array's. */
static int wl_check_chunk(struct wl *c, yaml_node_t *root)
{
    struct workload *w = c->w;
    yaml_node_t *b = wl_get(c, root, "baseline"), *n = b ? wl_get(c, b, "chunk") : NULL;
    int64_t shape[MODEL_MAX_DIMS];
    snprintf(c->key, sizeof c->key, "baseline.chunk");
    int nd = workload_chunk_decode(w->baseline.v[WORKLOAD_CHUNK], shape);
    if (!n || nd == 0)
        return 0;
    if (w->baseline.v[WORKLOAD_LAYOUT] != LAYOUT_CHUNKED)
        return wl_fail(c, n, "is the chunked layout's chunk, and the baseline's layout is %s",
                       layout_name((int)w->baseline.v[WORKLOAD_LAYOUT]));
    for (int i = 0; i < w->nsets; i++) {
        char why[256];
        if (w->sets[i].kind == WORKLOAD_GRID &&
            !workload_chunk_fits(&w->sets[i], nd, shape, why, sizeof why))
            return wl_fail(c, n, "%s", why);
    }
    return 0;
}

/* The document's sections, then the checks across them. */
static int wl_document(struct wl *c, yaml_node_t *root)
{
    static const struct wl_key keys[] = {
        {"name", wl_name, 0},     {"processes", wl_processes, 0},
        {"arrays", wl_arrays, 0}, {"particles", wl_particle_sets, 0},
        {"traces", wl_traces, 0}, {"baseline", wl_baseline, 0},
        {"search", wl_search, 0},
    };
    if (root->type != YAML_MAPPING_NODE)
        return wl_expected(c, root, "a mapping with arrays, particles or traces (docs/advisor.md)");
    if (wl_mapping(c, root, keys, (int)(sizeof keys / sizeof keys[0]), c->w) < 0)
        return -1;
    if (c->w->nsets == 0)
        return wl_fail(c, root, "declares no data: give arrays, particles or traces");
    return wl_check_names(c, root) < 0 || wl_check_processes(c, root) < 0 ||
                   wl_check_chunk(c, root) < 0
               ? -1
               : 0;
}

/* libyaml's refusal as one line. */
static int wl_yaml_fail(struct wl *c, const yaml_parser_t *p)
{
    const char *problem = p->problem ? p->problem : "cannot be parsed";
    if (p->error == YAML_READER_ERROR)
        return cli_fail(c->msg, "h5perf: workload '%s', byte %zu: %s", c->path, p->problem_offset,
                        problem);
    if (p->error == YAML_MEMORY_ERROR)
        return cli_fail(c->msg, "h5perf: workload '%s': out of memory", c->path);
    if (p->context)
        return cli_fail(c->msg, "h5perf: workload '%s', line %zu: %s (%s from line %zu)", c->path,
                        p->problem_mark.line + 1, problem, p->context, p->context_mark.line + 1);
    return cli_fail(c->msg, "h5perf: workload '%s', line %zu: %s", c->path,
                    p->problem_mark.line + 1, problem);
}

/* Loads the one document of the text into doc. Returns 0, or -1. */
static int wl_load(struct wl *c, const char *text, size_t len, yaml_document_t *doc)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return cli_fail(c->msg, "h5perf: workload '%s': out of memory", c->path);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    int rc = 0;
    if (!yaml_parser_load(&p, doc)) {
        rc = wl_yaml_fail(c, &p);
    } else if (!yaml_document_get_root_node(doc)) {
        yaml_document_delete(doc);
        rc = cli_fail(c->msg, "h5perf: workload '%s': is empty (docs/advisor.md shows one)",
                      c->path);
    } else {
        yaml_document_t next;
        if (!yaml_parser_load(&p, &next)) {
            rc = wl_yaml_fail(c, &p);
        } else {
            yaml_node_t *extra = yaml_document_get_root_node(&next);
            if (extra)
                rc = cli_fail(c->msg,
                              "h5perf: workload '%s', line %zu: a second YAML document; give "
                              "one",
                              c->path, extra->start_mark.line + 1);
            yaml_document_delete(&next);
        }
        if (rc < 0)
            yaml_document_delete(doc);
    }
    yaml_parser_delete(&p);
    return rc;
}

int workload_parse(const char *path, const char *text, size_t len, struct workload *out,
                   struct cli_msg *msg)
{
    memset(out, 0, sizeof *out);
    struct wl c = {.path = path, .w = out, .msg = msg};
    if (len > WORKLOAD_MAX_BYTES)
        return cli_fail(msg, "h5perf: workload '%s': larger than %d bytes", path,
                        WORKLOAD_MAX_BYTES);
    yaml_document_t doc;
    if (wl_load(&c, text, len, &doc) < 0)
        return -1;
    c.doc = &doc;
    out->path = wl_strdup(&c, NULL, path);
    wl_choices_defaults(out);
    int rc = out->path ? wl_document(&c, yaml_document_get_root_node(&doc)) : -1;
    yaml_document_delete(&doc);
    if (rc < 0)
        workload_release(out);
    return rc;
}

int workload_processes(const struct workload *w, int world_size)
{
    if (w->processes)
        return w->processes;
    for (int i = 0; i < w->nsets; i++) {
        const struct workload_set *s = &w->sets[i];
        if (s->kind == WORKLOAD_GRID && s->grid[0])
            return (int)wl_grid_procs(s->grid);
        if (s->nlist)
            return s->nlist;
    }
    return world_size;
}
