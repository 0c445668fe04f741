/* wl_read.h: libyaml's nodes read as the workload's values, with one
 * message line naming the file, the line and the key path. Only nodes are
 * read here: libyaml has parsed the text (workload.c). Pure. */
#include "workload/wl_read.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/size.h"

/* The most characters of a value quoted in a message. */
#define WL_QUOTE_MAX 40

/* A string owned by the workload (w->strings is a list of them). */
struct wl_string {
    struct wl_string *next;
    char s[];
};

int wl_line(const yaml_node_t *n)
{
    return (int)n->start_mark.line + 1;
}

int wl_fail(struct wl *c, const yaml_node_t *n, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    char where[64] = "";
    if (n)
        snprintf(where, sizeof where, ", line %d", wl_line(n));
    return cli_fail(c->msg, "h5perf: workload '%s'%s%s%s: %s", c->path, where,
                    c->key[0] ? ", " : "", c->key, why);
}

int wl_expected(struct wl *c, const yaml_node_t *n, const char *what)
{
    if (n->type == YAML_SEQUENCE_NODE)
        return wl_fail(c, n, "expected %s, got a list", what);
    if (n->type == YAML_MAPPING_NODE)
        return wl_fail(c, n, "expected %s, got a mapping", what);
    const char *s = (const char *)n->data.scalar.value;
    size_t len = n->data.scalar.length;
    if (len == 0)
        return wl_fail(c, n, "expected %s, got nothing", what);
    return wl_fail(c, n, "expected %s, got '%.*s%s'", what,
                   (int)(len > WL_QUOTE_MAX ? WL_QUOTE_MAX : len), s,
                   len > WL_QUOTE_MAX ? "..." : "");
}

yaml_node_t *wl_node(struct wl *c, int i)
{
    return yaml_document_get_node(c->doc, i);
}

size_t wl_push(struct wl *c, const char *name)
{
    size_t at = strlen(c->key);
    snprintf(c->key + at, sizeof c->key - at, "%s%s", at ? "." : "", name);
    return at;
}

size_t wl_push_index(struct wl *c, int i)
{
    size_t at = strlen(c->key);
    snprintf(c->key + at, sizeof c->key - at, "[%d]", i);
    return at;
}

void wl_pop(struct wl *c, size_t at)
{
    c->key[at] = '\0';
}

const char *wl_scalar(struct wl *c, yaml_node_t *n, const char *what)
{
    if (n->type != YAML_SCALAR_NODE) {
        wl_expected(c, n, what);
        return NULL;
    }
    const char *s = (const char *)n->data.scalar.value;
    /* A NUL inside the value (an escape "\0") would cut it silently. */
    if (strlen(s) != n->data.scalar.length) {
        wl_fail(c, n, "expected %s, got a value holding a NUL character", what);
        return NULL;
    }
    return s;
}

const char *wl_strdup(struct wl *c, const yaml_node_t *n, const char *s)
{
    size_t len = strlen(s);
    struct wl_string *str = malloc(sizeof *str + len + 1);
    if (!str) {
        wl_fail(c, n, "out of memory");
        return NULL;
    }
    memcpy(str->s, s, len + 1);
    str->next = c->w->strings;
    c->w->strings = str;
    return str->s;
}

void workload_release(struct workload *w)
{
    struct wl_string *s = w->strings;
    while (s) {
        struct wl_string *next = s->next;
        free(s);
        s = next;
    }
    w->strings = NULL;
}

/* Plain decimal digits, no sign, at most max; -1 when not. */
static int64_t wl_digits(const char *s, int64_t max)
{
    int64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        /* v * 10 + d <= max, with max - d >= 0 so that the division floors. */
        if (!isdigit((unsigned char)*s) || *s - '0' > max || v > (max - (*s - '0')) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

int wl_whole(struct wl *c, yaml_node_t *n, int64_t min, int64_t max, int64_t *out)
{
    char what[96];
    snprintf(what, sizeof what, "a whole number from %lld to %lld", (long long)min, (long long)max);
    const char *s = wl_scalar(c, n, what);
    if (!s)
        return -1;
    int64_t v = wl_digits(s, max);
    if (v < min)
        return wl_expected(c, n, what);
    *out = v;
    return 0;
}

int wl_size(struct wl *c, yaml_node_t *n, const char *zero_word, int64_t *out)
{
    char what[160];
    snprintf(what, sizeof what,
             "a size in bytes (digits with an optional K, M or G, e.g. 4K, "
             "16M)%s%s",
             zero_word ? " or " : "", zero_word ? zero_word : "");
    const char *s = wl_scalar(c, n, what);
    if (!s)
        return -1;
    if (zero_word && strcmp(s, zero_word) == 0) {
        *out = 0;
        return 0;
    }
    if (size_scan(s, out) != SIZE_OK)
        return wl_expected(c, n, what);
    return 0;
}

int wl_bool(struct wl *c, yaml_node_t *n, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no", "off"};
    const char *what = "true or false";
    const char *s = wl_scalar(c, n, what);
    if (!s)
        return -1;
    for (int i = 0; i < 3; i++) {
        if (strcasecmp(s, yes[i]) == 0)
            return *out = true, 0;
        if (strcasecmp(s, no[i]) == 0)
            return *out = false, 0;
    }
    return wl_expected(c, n, what);
}

int wl_word(struct wl *c, yaml_node_t *n, const char *const *words, int nwords, const char *what,
            int *out)
{
    const char *s = wl_scalar(c, n, what);
    if (!s)
        return -1;
    for (int i = 0; i < nwords; i++)
        if (words[i] && strcasecmp(s, words[i]) == 0)
            return *out = i, 0;
    return wl_expected(c, n, what);
}

/* "512x512x512" (any case of x). */
static int wl_shape_text(const char *s, int64_t max, int64_t out[MODEL_MAX_DIMS])
{
    int nd = 0;
    while (nd < MODEL_MAX_DIMS) {
        size_t len = strcspn(s, "xX");
        char part[24];
        if (len == 0 || len >= sizeof part)
            return -1;
        memcpy(part, s, len);
        part[len] = '\0';
        if ((out[nd++] = wl_digits(part, max)) < 1)
            return -1;
        if (s[len] == '\0')
            return nd;
        s += len + 1;
    }
    return -1;
}

int wl_shape(struct wl *c, yaml_node_t *n, int64_t max, int64_t out[MODEL_MAX_DIMS])
{
    char what[128];
    snprintf(what, sizeof what, "1 to 3 whole numbers from 1 to %lld, e.g. [512, 512, 512]",
             (long long)max);
    int nd = -1;
    if (n->type == YAML_SCALAR_NODE) {
        const char *s = wl_scalar(c, n, what);
        if (!s)
            return -1;
        nd = wl_shape_text(s, max, out);
    } else if (n->type == YAML_SEQUENCE_NODE) {
        yaml_node_item_t *it = n->data.sequence.items.start;
        int count = (int)(n->data.sequence.items.top - it);
        if (count < 1 || count > MODEL_MAX_DIMS)
            return wl_fail(c, n, "expected %s, got %d numbers", what, count);
        for (int d = 0; d < count; d++) {
            yaml_node_t *v = wl_node(c, it[d]);
            const char *s = v ? wl_scalar(c, v, what) : NULL;
            if (!s)
                return -1;
            if ((out[d] = wl_digits(s, max)) < 1)
                return wl_expected(c, v, what);
        }
        nd = count;
    }
    if (nd < 0)
        return wl_expected(c, n, what);
    return nd;
}

int wl_items(const yaml_node_t *n)
{
    if (n->type == YAML_SEQUENCE_NODE)
        return (int)(n->data.sequence.items.top - n->data.sequence.items.start);
    return n->type == YAML_SCALAR_NODE ? 1 : -1;
}

/* The key's scalar, or NULL with the refusal. */
static const char *wl_key_text(struct wl *c, yaml_node_t *k)
{
    if (k->type != YAML_SCALAR_NODE) {
        wl_fail(c, k, "a key must be a word, not a %s",
                k->type == YAML_SEQUENCE_NODE ? "list" : "mapping");
        return NULL;
    }
    return (const char *)k->data.scalar.value;
}

/* "a, b or c" of the keys' names. */
static void wl_key_names(const struct wl_key *keys, int nkeys, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < nkeys && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s",
                               i == 0           ? ""
                               : i == nkeys - 1 ? " or "
                                                : ", ",
                               keys[i].name);
}

int wl_mapping(struct wl *c, yaml_node_t *n, const struct wl_key *keys, int nkeys, void *arg)
{
    if (n->type != YAML_MAPPING_NODE)
        return wl_expected(c, n, "a mapping of keys to values");
    bool seen[32] = {false};
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = wl_node(c, p->key), *v = wl_node(c, p->value);
        const char *name = k ? wl_key_text(c, k) : NULL;
        if (!name || !v)
            return -1;
        int i = 0;
        while (i < nkeys && strcmp(keys[i].name, name) != 0)
            i++;
        if (i == nkeys) {
            char names[512];
            wl_key_names(keys, nkeys, names, sizeof names);
            return wl_fail(c, k, "unknown key '%.*s' (expected %s)", WL_QUOTE_MAX, name, names);
        }
        if (seen[i])
            return wl_fail(c, k, "key '%s' given twice", name);
        seen[i] = true;
        size_t at = wl_push(c, name);
        c->id = keys[i].id;
        int rc = keys[i].read(c, v, arg);
        if (rc < 0)
            return -1;
        wl_pop(c, at);
    }
    return 0;
}

yaml_node_t *wl_get(struct wl *c, yaml_node_t *n, const char *name)
{
    if (n->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = wl_node(c, p->key);
        if (k && k->type == YAML_SCALAR_NODE &&
            strcmp((const char *)k->data.scalar.value, name) == 0)
            return wl_node(c, p->value);
    }
    return NULL;
}

int wl_list(struct wl *c, yaml_node_t *n, int max, const char *what,
            int (*item)(struct wl *c, yaml_node_t *v, int i, void *arg), void *arg)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return wl_expected(c, n, what);
    int count = wl_items(n);
    if (count > max)
        return wl_fail(c, n, "at most %d entries, got %d", max, count);
    for (int i = 0; i < count; i++) {
        yaml_node_t *v = wl_node(c, n->data.sequence.items.start[i]);
        if (!v)
            return wl_fail(c, n, "entry %d is missing", i);
        size_t at = wl_push_index(c, i);
        if (item(c, v, i, arg) < 0)
            return -1;
        wl_pop(c, at);
    }
    return 0;
}
