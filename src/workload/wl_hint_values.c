/* The MPI-IO hints of a workload file (docs/advisor.md, "Hints"): a
 * hint's name, and its value, typed when h5perf knows the key. Pure. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "workload/wl_internal.h"

enum wl_hint_kind { WL_HINT_TEXT = 0, WL_HINT_SIZE, WL_HINT_COUNT, WL_HINT_SWITCH };

/* Hints whose values h5perf knows (docs/advisor.md, "Hints"); any other
 * key is passed as written. */
static const struct {
    const char *key;
    enum wl_hint_kind kind;
} wl_known_hints[] = {
    {"cb_buffer_size", WL_HINT_SIZE},       {"cb_nodes", WL_HINT_COUNT},
    {"romio_cb_write", WL_HINT_SWITCH},     {"romio_cb_read", WL_HINT_SWITCH},
    {"romio_ds_write", WL_HINT_SWITCH},     {"romio_ds_read", WL_HINT_SWITCH},
    {"striping_factor", WL_HINT_COUNT},     {"striping_unit", WL_HINT_SIZE},
    {"nc_header_align_size", WL_HINT_SIZE},
};

static enum wl_hint_kind wl_hint_kind_of(const char *key)
{
    for (size_t i = 0; i < sizeof wl_known_hints / sizeof wl_known_hints[0]; i++)
        if (strcmp(wl_known_hints[i].key, key) == 0)
            return wl_known_hints[i].kind;
    return WL_HINT_TEXT;
}

/* A hint's key (c->key ends with it): letters, digits, '_'. */
int wl_hint_key(struct wl *c, yaml_node_t *k, const char *key)
{
    size_t len = strlen(key);
    if (len == 0 || len > WORKLOAD_HINT_KEY_MAX ||
        strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != len)
        return wl_fail(c, k, "a hint's name is 1 to %d letters, digits or '_'",
                       WORKLOAD_HINT_KEY_MAX);
    if (strcmp(key, "nc_var_align_size") == 0)
        return wl_fail(c, k, "PnetCDF's variable alignment is alignment (h5perf's -a)");
    return 0;
}

/* A value of hint key, as HDF5_MPI_INFO passes it (sizes in bytes). */
int wl_hint_value(struct wl *c, yaml_node_t *v, const char *key, const char **out)
{
    static const char *const switches[] = {"enable", "disable", "automatic"};
    char buf[32];
    const char *text = NULL;
    int64_t n;
    int i;
    switch (wl_hint_kind_of(key)) {
    case WL_HINT_SIZE:
        if (wl_size(c, v, NULL, &n) < 0)
            return -1;
        snprintf(buf, sizeof buf, "%lld", (long long)n);
        text = buf;
        break;
    case WL_HINT_COUNT:
        if (wl_whole(c, v, 1, INT32_MAX, &n) < 0)
            return -1;
        snprintf(buf, sizeof buf, "%lld", (long long)n);
        text = buf;
        break;
    case WL_HINT_SWITCH:
        if (wl_word(c, v, switches, 3, "enable, disable or automatic", &i) < 0)
            return -1;
        text = switches[i];
        break;
    default:
        text = wl_scalar(c, v, "a hint's value");
        if (!text)
            return -1;
        size_t len = strlen(text);
        if (len == 0 || len > WORKLOAD_HINT_VAL_MAX || strpbrk(text, ";=") ||
            isspace((unsigned char)text[0]) || isspace((unsigned char)text[len - 1]))
            return wl_fail(c, v,
                           "a hint's value is 1 to %d characters, without ';', '=' or blanks "
                           "around it",
                           WORKLOAD_HINT_VAL_MAX);
    }
    return (*out = wl_strdup(c, v, text)) ? 0 : -1;
}
