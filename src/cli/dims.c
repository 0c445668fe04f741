/* dims.h: the scanner of dimensions and the value of --layout. */
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
    (void)row;
    return dims_layouts_option(dest, spelled, value, msg);
}
