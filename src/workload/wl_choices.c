/* The choices of a workload file (docs/advisor.md, "Choices"): one row of
 * the table below per choice, from which the baseline and search sections
 * are read, their defaults filled and their values named; and the MPI-IO
 * hints' sections (a hint's name and value: wl_hint_values.c). Pure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/api.h"
#include "base/option.h"
#include "cli/dims.h"
#include "cli/places.h"
#include "options/options.h"
#include "pattern/block_options.h"
#include "plan/point.h"
#include "workload/wl_internal.h"

enum wl_kind { WL_WORD, WL_BOOL, WL_SIZE, WL_CHUNK };

/* The word of value v of a WL_WORD choice, NULL past the last. */
typedef const char *(*wl_word_fn)(int64_t v);

struct wl_dim {
    const char *baseline_key; /* in baseline: "api" */
    const char *search_key;   /* in search: "apis" */
    enum wl_kind kind;
    wl_word_fn word;       /* WL_WORD; and the search's words of a WL_BOOL */
    const char *what;      /* WL_WORD: the words allowed, for messages */
    const char *zero_word; /* WL_SIZE: the word of 0 ("whole"), or NULL */
    int64_t dflt;          /* the baseline's default */
    int nsearch;           /* the search's default candidates (WORKLOAD_API: the APIs built) */
    int64_t search[4];
    /* The APIs a value other than dflt applies to, beside its row's
     * (opt_row.apis); 0 and a row's 0: every API. */
    unsigned apis;
    /* Its option: a row of the core's table (enum opt_id), or an API's or
     * a pattern's own row (opt_row set): its spelling and the APIs it is
     * taken by. */
    int opt;
    const struct opt_row *row;
};

static const char *wl_api_word(int64_t v)
{
    return v >= 0 && v < API_COUNT ? api_desc((enum api_id)v)->key : NULL;
}

static const char *wl_layout_word(int64_t v)
{
    return v >= 0 && v < LAYOUT_COUNT ? layout_name((int)v) : NULL;
}

static const char *wl_mode_word(int64_t v)
{
    return v == 0 ? "independent" : v == 1 ? "collective" : NULL;
}

static const char *wl_bool_word(int64_t v)
{
    return v == 0 ? "false" : v == 1 ? "true" : NULL;
}

#define WL_KIB        INT64_C(1024)
#define WL_MIB        (WL_KIB * WL_KIB)
#define WL_OVER_MPIIO (API_BIT(API_MPIIO) | API_BIT(API_PHDF5) | API_BIT(API_PNETCDF))

static const struct wl_dim wl_dims[WORKLOAD_DIM_OPTIONS] = {
    [WORKLOAD_API] = {"api", "apis", WL_WORD, wl_api_word, "posix, mpiio, phdf5 or pnetcdf",
                      .dflt = API_PHDF5, .opt = OPT_API},
    [WORKLOAD_LAYOUT] = {"layout",
                         "layouts",
                         WL_WORD,
                         wl_layout_word,
                         "shared, chunked or fpp",
                         .dflt = LAYOUT_SHARED,
                         3,
                         {LAYOUT_SHARED, LAYOUT_CHUNKED, LAYOUT_FPP},
                         .opt = OPT_LAYOUT},
    [WORKLOAD_COLLECTIVE] = {"collective",
                             "io_modes",
                             WL_BOOL,
                             wl_mode_word,
                             "independent or collective",
                             .dflt = 0,
                             2,
                             {0, 1},
                             .apis = WL_OVER_MPIIO,
                             .opt = OPT_COLLECTIVE},
    [WORKLOAD_ALIGNMENT] = {"alignment",
                            "alignments",
                            WL_SIZE,
                            .dflt = 1,
                            3,
                            {1, 4 * WL_KIB, WL_MIB},
                            .apis = API_BIT(API_PHDF5) | API_BIT(API_PNETCDF),
                            .opt = OPT_ALIGN},
    [WORKLOAD_THRESHOLD] = {"threshold",
                            "thresholds",
                            WL_SIZE,
                            .dflt = 1,
                            1,
                            {1},
                            .apis = API_BIT(API_PHDF5),
                            .opt = OPT_THRESHOLD},
    [WORKLOAD_ALIGN_DATA] = {"align_data",
                             "align_data",
                             WL_SIZE,
                             .zero_word = "packed",
                             .dflt = 0,
                             3,
                             {0, 4 * WL_KIB, WL_MIB},
                             .apis = API_BIT(API_POSIX) | API_BIT(API_MPIIO),
                             .opt = OPT_ALIGN_DATA},
    [WORKLOAD_CHUNK] =
        {"chunk", "chunk_shapes", WL_CHUNK, .dflt = 0, 1, {0}, .row = &block_chunk_shape_row},
    [WORKLOAD_TRANSFER_SIZE] = {"transfer_size",
                                "transfer_sizes",
                                WL_SIZE,
                                .zero_word = "whole",
                                .dflt = 0,
                                3,
                                {0, WL_MIB, 16 * WL_MIB},
                                .opt = OPT_TRANSFER_SIZE},
    [WORKLOAD_BUFFER_OFFSET] = {"buffer_offset",
                                "buffer_offsets",
                                WL_SIZE,
                                .zero_word = "0",
                                .dflt = 0,
                                1,
                                {0},
                                .opt = OPT_BUFFER_OFFSET},
};

/* The choices of the APIs' rows that carry an opt_advice
 * (WORKLOAD_DIM_OPTIONS on), in the APIs' order and their rows', made
 * from the rows once. */
static struct wl_dim wl_option_dims[WORKLOAD_DIM_MAX - WORKLOAD_DIM_OPTIONS];
static int wl_noptions = -1;

static void wl_find_options(void)
{
    if (wl_noptions >= 0)
        return;
    wl_noptions = 0;
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_opts *o = api_desc((enum api_id)a)->opts;
        for (int r = 0; o && o->rows[r]; r++) {
            const struct opt_advice *adv = o->rows[r]->advice;
            if (!adv)
                continue;
            if (wl_noptions == WORKLOAD_DIM_MAX - WORKLOAD_DIM_OPTIONS)
                abort(); /* WORKLOAD_DIM_MAX is too small for the rows */
            bool flag = adv->kind == OPT_ADVICE_FLAG;
            struct wl_dim *d = &wl_option_dims[wl_noptions++];
            *d = (struct wl_dim){adv->baseline_key,
                                 adv->search_key,
                                 flag ? WL_BOOL : WL_SIZE,
                                 flag ? wl_bool_word : NULL,
                                 flag ? "true or false" : NULL,
                                 .dflt = adv->dflt,
                                 .nsearch = adv->nsearch,
                                 .row = o->rows[r]};
            memcpy(d->search, adv->search, sizeof d->search);
        }
    }
}

static const struct wl_dim *wl_dim(enum workload_dim d)
{
    if (d < WORKLOAD_DIM_OPTIONS)
        return &wl_dims[d];
    wl_find_options();
    return &wl_option_dims[d - WORKLOAD_DIM_OPTIONS];
}

int workload_dim_count(void)
{
    wl_find_options();
    return WORKLOAD_DIM_OPTIONS + wl_noptions;
}

int workload_dim_of(const char *key)
{
    for (int d = 0; d < workload_dim_count(); d++)
        if (strcmp(wl_dim((enum workload_dim)d)->baseline_key, key) == 0)
            return d;
    return -1;
}

const struct opt_advice *wl_dim_advice(enum workload_dim d)
{
    return d >= WORKLOAD_DIM_OPTIONS ? wl_dim(d)->row->advice : NULL;
}

const char *workload_baseline_key(enum workload_dim d)
{
    return wl_dim(d)->baseline_key;
}

const char *workload_search_key(enum workload_dim d)
{
    return wl_dim(d)->search_key;
}

const struct opt_row *workload_dim_row(enum workload_dim d)
{
    return wl_dim(d)->row ? wl_dim(d)->row : opt_row_of((enum opt_id)wl_dim(d)->opt);
}

unsigned wl_dim_apis(enum workload_dim d)
{
    return wl_dim(d)->apis | workload_dim_row(d)->apis;
}

int64_t wl_dim_default(enum workload_dim d)
{
    return wl_dim(d)->dflt;
}

/* "4K", "16M", "1G", or bytes. */
static void wl_size_text(int64_t v, char *buf, size_t len)
{
    static const char units[] = "GMK";
    for (int u = 0; u < 3; u++) {
        int64_t unit = INT64_C(1) << (10 * (3 - u));
        if (v >= unit && v % unit == 0) {
            snprintf(buf, len, "%lld%c", (long long)(v / unit), units[u]);
            return;
        }
    }
    snprintf(buf, len, "%lld", (long long)v);
}

void workload_value_text(enum workload_dim d, int64_t v, char *buf, size_t len)
{
    const struct wl_dim *r = wl_dim(d);
    const char *w = NULL;
    if (r->kind == WL_WORD || (r->kind == WL_BOOL && r->word))
        w = r->word(v);
    else if (r->kind == WL_CHUNK && v == 0)
        w = "block";
    else if (r->kind == WL_SIZE && v == 0)
        w = r->zero_word;
    int64_t shape[MODEL_MAX_DIMS];
    if (w)
        snprintf(buf, len, "%s", w);
    else if (r->kind == WL_CHUNK)
        dims_text(buf, len, workload_chunk_decode(v, shape), shape);
    else
        wl_size_text(v, buf, len);
}

/* The bits of one extent with n dimensions. */
static int wl_chunk_bits(int n)
{
    return n == 1 ? 60 : n == 2 ? 30 : 20;
}

int64_t workload_chunk_encode(int ndims, const int64_t *shape)
{
    if (ndims < 1 || ndims > MODEL_MAX_DIMS)
        return -1;
    int bits = wl_chunk_bits(ndims);
    int64_t v = (int64_t)ndims << 60;
    for (int d = 0; d < ndims; d++) {
        if (shape[d] < 1 || shape[d] >= INT64_C(1) << bits)
            return -1;
        v |= shape[d] << (bits * (ndims - 1 - d));
    }
    return v;
}

int workload_chunk_decode(int64_t v, int64_t shape[MODEL_MAX_DIMS])
{
    int n = (int)(v >> 60);
    if (n < 1 || n > MODEL_MAX_DIMS)
        return 0;
    int bits = wl_chunk_bits(n);
    for (int d = 0; d < n; d++)
        shape[d] = v >> (bits * (n - 1 - d)) & ((INT64_C(1) << bits) - 1);
    return n;
}

/* One value of choice d in the baseline (search false) or a search list. */
static int wl_dim_value(struct wl *c, yaml_node_t *n, enum workload_dim d, bool search,
                        int64_t *out)
{
    const struct wl_dim *r = wl_dim(d);
    if (r->kind == WL_WORD || (r->kind == WL_BOOL && search)) {
        const char *words[8] = {NULL};
        int count = 0;
        while (count < 8 && (words[count] = r->word(count)))
            count++;
        int i;
        if (wl_word(c, n, words, count, r->what, &i) < 0)
            return -1;
        *out = i;
    } else if (r->kind == WL_BOOL) {
        bool b;
        if (wl_bool(c, n, &b) < 0)
            return -1;
        *out = b;
    } else if (r->kind == WL_CHUNK) {
        /* A shape is checked against each array (workload.c, wl_config.c). */
        const char *t = n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
        if (strcmp(t, "block") == 0)
            return *out = 0, 0;
        int64_t shape[MODEL_MAX_DIMS];
        int nd = wl_shape(c, n, INT64_MAX, shape);
        if (nd < 0)
            return -1;
        if ((*out = workload_chunk_encode(nd, shape)) < 0)
            return wl_fail(c, n,
                           "a chunk's extents are below 2^60, 2^30 or 2^20 elements with 1, 2 "
                           "or 3 dimensions");
    } else if (wl_size(c, n, r->zero_word, out) < 0) {
        return -1;
    }
    if (d == WORKLOAD_BUFFER_OFFSET && *out >= PLACES_PAGE)
        return wl_fail(c, n, "from 0 to %d bytes (past a page boundary), got %lld", PLACES_PAGE - 1,
                       (long long)*out);
    if (d == WORKLOAD_API && !api_built((enum api_id) * out))
        return wl_fail(c, n, "this h5perf is built without %s (%s)", r->word(*out),
                       api_desc((enum api_id) * out)->build_hint);
    return 0;
}

/* baseline: KEY: VALUE of a choice (c->id). */
static int wl_base_dim(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload *w = arg;
    enum workload_dim d = (enum workload_dim)c->id;
    w->baseline_line[d] = wl_line(v);
    return wl_dim_value(c, v, d, false, &w->baseline.v[d]);
}

/* A word of an MPI-IO component: letters, digits, '_'. */
static int wl_component_word(struct wl *c, yaml_node_t *v, const char **out)
{
    const char *what = "the name of an MPI-IO component, e.g. ompio or romio321";
    const char *s = wl_scalar(c, v, what);
    if (!s)
        return -1;
    size_t len = strlen(s);
    if (len == 0 || len > 63 || strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
        return wl_expected(c, v, what);
    return (*out = wl_strdup(c, v, s)) ? 0 : -1;
}

static int wl_base_component(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload *w = arg;
    w->baseline_component_line = wl_line(v);
    return wl_component_word(c, v, &w->baseline.mpiio_component);
}

/* ---- MPI-IO hints ---- */

/* The key scalar of pair p, or NULL with msg. */
static const char *wl_pair_key(struct wl *c, yaml_node_pair_t *p, yaml_node_t **k)
{
    *k = wl_node(c, p->key);
    if (!*k || (*k)->type != YAML_SCALAR_NODE) {
        wl_fail(c, *k, "a hint's name must be a word");
        return NULL;
    }
    return (const char *)(*k)->data.scalar.value;
}

/* The hints of n (a mapping), each with one value (baseline) or a list
 * (search: call each with its key, its node and its index). */
static int wl_hints_walk(struct wl *c, yaml_node_t *n,
                         int (*each)(struct wl *c, yaml_node_t *k, const char *key, yaml_node_t *v,
                                     void *arg),
                         void *arg)
{
    if (n->type != YAML_MAPPING_NODE)
        return wl_expected(c, n, "a mapping of hint names to values");
    int count = (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    if (count > WORKLOAD_MAX_HINTS)
        return wl_fail(c, n, "at most %d hints, got %d", WORKLOAD_MAX_HINTS, count);
    for (int i = 0; i < count; i++) {
        yaml_node_pair_t *p = n->data.mapping.pairs.start + i;
        yaml_node_t *k, *v = wl_node(c, p->value);
        const char *key = wl_pair_key(c, p, &k);
        if (!key || !v)
            return -1;
        for (int j = 0; j < i; j++) {
            yaml_node_t *kj = wl_node(c, n->data.mapping.pairs.start[j].key);
            if (strcmp((const char *)kj->data.scalar.value, key) == 0)
                return wl_fail(c, k, "hint '%s' given twice", key);
        }
        size_t at = wl_push(c, key);
        if (wl_hint_key(c, k, key) < 0 || each(c, k, key, v, arg) < 0)
            return -1;
        wl_pop(c, at);
    }
    return 0;
}

static int wl_base_hint(struct wl *c, yaml_node_t *k, const char *key, yaml_node_t *v, void *arg)
{
    struct workload_choice *b = arg;
    struct workload_hint *h = &b->hints[b->nhints];
    if (wl_hint_value(c, v, key, &h->value) < 0 || !(h->key = wl_strdup(c, k, key)))
        return -1;
    b->nhints++;
    return 0;
}

static int wl_base_hints(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload *w = arg;
    w->baseline_hints_line = wl_line(v);
    return wl_hints_walk(c, v, wl_base_hint, &w->baseline);
}

int wl_baseline(struct wl *c, yaml_node_t *v, void *arg)
{
    struct wl_key keys[WORKLOAD_DIM_MAX + 2];
    int n = 0;
    for (int d = 0; d < workload_dim_count(); d++)
        keys[n++] = (struct wl_key){wl_dim((enum workload_dim)d)->baseline_key, wl_base_dim, d};
    keys[n++] = (struct wl_key){"mpiio_component", wl_base_component, 0};
    keys[n++] = (struct wl_key){"hints", wl_base_hints, 0};
    return wl_mapping(c, v, keys, n, arg);
}

/* ---- the search ---- */

/* The default hint dimensions (docs/advisor.md, "Hints"). */
static const struct {
    const char *key;
    const char *values[2];
} wl_default_hints[] = {
    {"romio_cb_write", {"enable", "disable"}},
    {"romio_cb_read", {"enable", "disable"}},
};

void wl_choices_defaults(struct workload *w)
{
    struct workload_search *s = &w->search;
    for (int d = 0; d < workload_dim_count(); d++) {
        const struct wl_dim *r = wl_dim((enum workload_dim)d);
        w->baseline.v[d] = r->dflt;
        s->dim[d].n = r->nsearch;
        memcpy(s->dim[d].v, r->search, sizeof r->search);
    }
    s->dim[WORKLOAD_API].n = 0;
    for (int a = 0; a < API_COUNT; a++)
        if (api_built((enum api_id)a))
            s->dim[WORKLOAD_API].v[s->dim[WORKLOAD_API].n++] = a;
    s->nhints = (int)(sizeof wl_default_hints / sizeof wl_default_hints[0]);
    for (int h = 0; h < s->nhints; h++) {
        s->hints[h].key = wl_default_hints[h].key;
        s->hints[h].n = 2;
        s->hints[h].values[0] = wl_default_hints[h].values[0];
        s->hints[h].values[1] = wl_default_hints[h].values[1];
    }
}

static int wl_find(const struct workload_values *l, int64_t v)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i] == v)
            return i;
    return -1;
}

struct wl_edit {
    enum workload_dim d;
    struct workload_values *l;
    bool remove;
};

/* An item of a search list: added (or removed) once. */
static int wl_search_item(struct wl *c, yaml_node_t *n, int i, void *arg)
{
    (void)i;
    struct wl_edit *e = arg;
    int64_t v;
    char text[64];
    if (wl_dim_value(c, n, e->d, true, &v) < 0)
        return -1;
    int at = wl_find(e->l, v);
    workload_value_text(e->d, v, text, sizeof text);
    if (e->remove) {
        if (at < 0)
            return wl_fail(c, n, "removes %s, which is not a candidate", text);
        e->l->v[at] = e->l->v[--e->l->n];
        return 0;
    }
    if (at >= 0)
        return wl_fail(c, n, "lists %s twice", text);
    if (e->l->n == WORKLOAD_MAX_VALUES)
        return wl_fail(c, n, "at most %d candidates", WORKLOAD_MAX_VALUES);
    e->l->v[e->l->n++] = v;
    return 0;
}

/* A list of items (or one scalar) into e. */
static int wl_search_items(struct wl *c, yaml_node_t *n, struct wl_edit *e)
{
    if (n->type == YAML_SCALAR_NODE)
        return wl_search_item(c, n, 0, e);
    return wl_list(c, n, WORKLOAD_MAX_VALUES, "a list of candidates", wl_search_item, e);
}

static int wl_search_add(struct wl *c, yaml_node_t *v, void *arg)
{
    struct wl_edit *e = arg;
    e->remove = false;
    return wl_search_items(c, v, e);
}

static int wl_search_remove(struct wl *c, yaml_node_t *v, void *arg)
{
    struct wl_edit *e = arg;
    e->remove = true;
    return wl_search_items(c, v, e);
}

/* search: KEY: [candidates] (replaces the defaults) or {add: [...],
 * remove: [...]} (edits them). */
static int wl_search_dim(struct wl *c, yaml_node_t *v, void *arg)
{
    static const struct wl_key edits[] = {{"add", wl_search_add, 0},
                                          {"remove", wl_search_remove, 0}};
    struct workload *w = arg;
    struct wl_edit e = {(enum workload_dim)c->id, &w->search.dim[c->id], false};
    if (v->type == YAML_MAPPING_NODE) {
        if (wl_mapping(c, v, edits, 2, &e) < 0)
            return -1;
    } else {
        e.l->n = 0;
        if (wl_search_items(c, v, &e) < 0)
            return -1;
    }
    if (e.l->n == 0)
        return wl_fail(c, v, "leaves no candidate");
    return 0;
}

static int wl_search_component(struct wl *c, yaml_node_t *n, int i, void *arg)
{
    struct workload_search *s = arg;
    if (wl_component_word(c, n, &s->components[i]) < 0)
        return -1;
    for (int k = 0; k < i; k++)
        if (strcmp(s->components[k], s->components[i]) == 0)
            return wl_fail(c, n, "lists %s twice", s->components[i]);
    s->ncomponents = i + 1;
    return 0;
}

static int wl_search_components(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload *w = arg;
    if (v->type == YAML_SCALAR_NODE)
        return wl_search_component(c, v, 0, &w->search);
    if (wl_items(v) == 0)
        return wl_fail(c, v,
                       "leaves no candidate (leave it out for every component the MPI "
                       "library has)");
    return wl_list(c, v, WORKLOAD_MAX_VALUES, "a list of MPI-IO components", wl_search_component,
                   &w->search);
}

static int wl_search_hint_value(struct wl *c, yaml_node_t *n, int i, void *arg)
{
    struct workload_hint_values *h = arg;
    if (wl_hint_value(c, n, h->key, &h->values[i]) < 0)
        return -1;
    for (int k = 0; k < i; k++)
        if (strcmp(h->values[k], h->values[i]) == 0)
            return wl_fail(c, n, "lists %s twice", h->values[i]);
    h->n = i + 1;
    return 0;
}

/* search.hints.KEY: its candidates replace the default ones; [] leaves
 * the hint unset. */
static int wl_search_hint(struct wl *c, yaml_node_t *k, const char *key, yaml_node_t *v, void *arg)
{
    struct workload_search *s = arg;
    int h = 0;
    while (h < s->nhints && strcmp(s->hints[h].key, key) != 0)
        h++;
    if (h == s->nhints) {
        if (s->nhints == WORKLOAD_MAX_HINTS)
            return wl_fail(c, k, "at most %d hints", WORKLOAD_MAX_HINTS);
        if (!(s->hints[h].key = wl_strdup(c, k, key)))
            return -1;
        s->nhints++;
    }
    struct workload_hint_values *hv = &s->hints[h];
    hv->n = 0;
    if (v->type == YAML_SCALAR_NODE)
        return wl_search_hint_value(c, v, 0, hv);
    if (wl_list(c, v, WORKLOAD_MAX_VALUES, "a list of values", wl_search_hint_value, hv) < 0)
        return -1;
    if (hv->n == 0) /* removed */
        *hv = s->hints[--s->nhints];
    return 0;
}

static int wl_search_hints(struct wl *c, yaml_node_t *v, void *arg)
{
    struct workload *w = arg;
    return wl_hints_walk(c, v, wl_search_hint, &w->search);
}

int wl_search(struct wl *c, yaml_node_t *v, void *arg)
{
    struct wl_key keys[WORKLOAD_DIM_MAX + 2];
    int n = 0;
    for (int d = 0; d < workload_dim_count(); d++)
        keys[n++] = (struct wl_key){wl_dim((enum workload_dim)d)->search_key, wl_search_dim, d};
    keys[n++] = (struct wl_key){"mpiio_components", wl_search_components, 0};
    keys[n++] = (struct wl_key){"hints", wl_search_hints, 0};
    return wl_mapping(c, v, keys, n, arg);
}
