/* Reading libyaml's document nodes for the workload parser (workload.h):
 * the key path of the node being read, one-line messages with the file,
 * line and key, scalars as whole numbers, sizes, booleans, words and
 * shapes, and mappings walked against a table of keys (unknown and
 * repeated keys refused). Internal to src/workload. Pure. */
#ifndef H5PERF_WL_READ_H
#define H5PERF_WL_READ_H

#include <stdbool.h>
#include <stdint.h>
#include <yaml.h>

#include "workload/workload.h"

/* The walk's state. */
struct wl {
    const char *path;
    yaml_document_t *doc;
    struct workload *w;
    struct cli_msg *msg;
    char key[256]; /* the key path being read: "arrays[0].global" */
    int id;        /* the id of the key being read (struct wl_key) */
};

/* One key a mapping may hold, and how its value is read (arg is the
 * mapping's caller's). */
struct wl_key {
    const char *name;
    int (*read)(struct wl *c, yaml_node_t *value, void *arg);
    int id; /* set in struct wl while its value is read */
};

/* "h5perf: workload 'F', line N, KEY: " + the formatted reason, for node n
 * (NULL: without a line). Returns -1. */
int wl_fail(struct wl *c, const yaml_node_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* wl_fail() with "expected <what>, got '<scalar>'" (or "got a list", "got
 * a mapping"). */
int wl_expected(struct wl *c, const yaml_node_t *n, const char *what);

/* The line of a node, from 1. */
int wl_line(const yaml_node_t *n);

/* The node at index i of the document (libyaml's indices), or NULL. */
yaml_node_t *wl_node(struct wl *c, int i);

/* Appends ".name" or "[i]" to the key path; returns the length to restore
 * with wl_pop(). */
size_t wl_push(struct wl *c, const char *name);
size_t wl_push_index(struct wl *c, int i);
void wl_pop(struct wl *c, size_t at);

/* A scalar's text (NUL-terminated by libyaml), or NULL with "expected
 * <what>" in msg. */
const char *wl_scalar(struct wl *c, yaml_node_t *n, const char *what);

/* A copy owned by the workload, or NULL (out of memory, in msg). */
const char *wl_strdup(struct wl *c, const yaml_node_t *n, const char *s);

/* A whole number from min to max. */
int wl_whole(struct wl *c, yaml_node_t *n, int64_t min, int64_t max, int64_t *out);

/* A size (h5perf's: digits with an optional K, M or G and an optional B),
 * or zero_word (NULL: none) for 0. */
int wl_size(struct wl *c, yaml_node_t *n, const char *zero_word, int64_t *out);

/* true, false (YAML 1.1's yes, no, on, off too). */
int wl_bool(struct wl *c, yaml_node_t *n, bool *out);

/* One of n words (any case); its index. */
int wl_word(struct wl *c, yaml_node_t *n, const char *const *words, int nwords, const char *what,
            int *out);

/* A shape: a list of 1 to 3 whole numbers, or "AxBxC"; each from 1 to
 * max. Returns the number of dimensions, or -1. */
int wl_shape(struct wl *c, yaml_node_t *n, int64_t max, int64_t out[MODEL_MAX_DIMS]);

/* Walks the mapping n: each key must be one of keys[0..nkeys) and given
 * once; its reader is called with the key path extended. Returns 0 or -1. */
int wl_mapping(struct wl *c, yaml_node_t *n, const struct wl_key *keys, int nkeys, void *arg);

/* The value of key name in mapping n, or NULL. */
yaml_node_t *wl_get(struct wl *c, yaml_node_t *n, const char *name);

/* Calls item for each element of the list n (at most max, else refused),
 * with the key path extended by "[i]". Returns 0 or -1. */
int wl_list(struct wl *c, yaml_node_t *n, int max, const char *what,
            int (*item)(struct wl *c, yaml_node_t *v, int i, void *arg), void *arg);

/* The number of items of list n, or of 1 for a scalar (-1 for a mapping). */
int wl_items(const yaml_node_t *n);

#endif
