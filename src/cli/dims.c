/* dims.h: the values of --global, --grid, --read-grid and --layout. */
#include "cli/dims.h"

#include <stdbool.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int dims_scan(const char *text, int64_t max, int64_t out[MODEL_MAX_DIMS])
{
    int n = 0;
    const char *p = text;
    for (;;) {
        int64_t v = 0;
        const char *start = p;
        while (*p >= '0' && *p <= '9') {
            if (v > (max - (*p - '0')) / 10)
                return -1;
            v = v * 10 + (*p++ - '0');
        }
        if (p == start || v == 0 || n == MODEL_MAX_DIMS)
            return -1;
        out[n++] = v;
        if (*p == '\0')
            return n;
        if (*p != 'x' && *p != 'X')
            return -1;
        p++;
    }
}

void dims_text(char *buf, size_t len, int n, const int64_t *dims)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < n && used < len; d++) {
        int w = snprintf(buf + used, len - used, "%s%lld", d ? "x" : "", (long long)dims[d]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}

/* --global (elements), --grid and --read-grid (processes). */
static int dims_values(struct config *cfg, enum opt_id id, const char *spelled, const char *value,
                       struct cli_msg *msg)
{
    int64_t d[MODEL_MAX_DIMS];
    bool global = id == OPT_GLOBAL;
    int n = dims_scan(value, global ? INT64_MAX : 2147483647, d);
    if (n < 0)
        return cli_fail(msg,
                        "h5perf: %s '%s': expected 1 to 3 whole numbers of %s separated by x, "
                        "e.g. %s",
                        spelled, value, global ? "elements" : "processes",
                        global ? "512x512x512" : "4x4x4");
    int *grid = id == OPT_GRID ? cfg->grid : cfg->read_grid;
    for (int i = 0; i < MODEL_MAX_DIMS; i++) {
        if (global)
            cfg->global[i] = i < n ? d[i] : 0;
        else
            grid[i] = i < n ? (int)d[i] : 0;
    }
    if (global)
        cfg->ndims = n;
    return 0;
}

static int dims_layouts_option(struct config *cfg, const char *spelled, const char *value,
                               struct cli_msg *msg)
{
    const char *s = value;
    cfg->nlayouts = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        int l = layout_find(s, len);
        if (l < 0) {
            char names[128] = "";
            for (int k = 0; k < LAYOUT_COUNT; k++)
                opt_list_add(names, sizeof names, k, LAYOUT_COUNT, layout_name(k), NULL, ", ");
            return cli_fail(msg,
                            "h5perf: %s '%s': %s layout '%.*s'; expected a comma-separated list "
                            "of %s",
                            spelled, value, len ? "unknown" : "empty", (int)len, s, names);
        }
        for (int i = 0; i < cfg->nlayouts; i++)
            if (cfg->layouts[i] == l)
                return cli_fail(msg, "h5perf: %s '%s': layout '%s' given twice", spelled, value,
                                layout_name(l));
        cfg->layouts[cfg->nlayouts++] = l;
        if (s[len] == '\0')
            return 0;
        s += len + 1;
    }
}

int dims_option(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                struct cli_msg *msg)
{
    struct config *cfg = dest;
    enum opt_id id = row->id;
    if (id == OPT_LAYOUT)
        return dims_layouts_option(cfg, spelled, value, msg);
    return dims_values(cfg, id, spelled, value, msg);
}
