/* The backends' checks of every run point, before any file exists
 * (docs/design.md: validation knows the API table's limits, a backend what
 * only it knows). */
#include "engine/check.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/dims.h"

struct backend_settings engine_settings(const struct config *c, const struct run_point *p)
{
    return (struct backend_settings){
        .collective = c->collective,
        .chunked = c->pattern != PATTERN_GUIDE ? p->layout == LAYOUT_CHUNKED : c->chunk,
        .fsync = c->fsync,
        .direct = c->direct,
        .align = c->align,
        .threshold = c->threshold,
        .num_dsets = sweep_datasets(c),
    };
}

/* "--global '65536x65536' with 2 processes, layout chunked"; in the guide's
 * pattern "-c with -B of 4 GiB" for HDF5's chunks, else "transfer size
 * 4 GiB with 2 processes" (PnetCDF's limit per call). */
static void check_lead(const struct config *c, const struct run_point *p, char *buf, size_t len)
{
    const char *s = p->nprocs == 1 ? "" : "es";
    if (c->pattern != PATTERN_GUIDE) {
        char opt[160];
        cli_app_option(c, opt, sizeof opt);
        snprintf(buf, len, "%s with %d process%s, layout %s", opt, p->nprocs, s,
                 dims_layout_name(p->layout));
        return;
    }
    char b[32];
    if (p->api != API_PHDF5 || !c->chunk) {
        cli_bytes(b, sizeof b, p->xfer);
        snprintf(buf, len, "transfer size %s with %d process%s", b, p->nprocs, s);
        return;
    }
    cli_bytes(b, sizeof b, c->block);
    snprintf(buf, len, "%s with -B of %s", c->spelled[OPT_CHUNK] ? c->spelled[OPT_CHUNK] : "-c", b);
}

static int check_fail(const struct config *c, const struct run_point *p, const char *why,
                      struct cli_msg *m)
{
    char lead[256];
    const struct api_desc *api = api_desc(p->api);
    check_lead(c, p, lead, sizeof lead);
    return cli_fail(m, "h5perf: %s: %s: %s, or leave %s out of -A", lead, api->err_name, why,
                    api->key);
}

int engine_check(const struct config *c, struct cli_msg *m)
{
    int n = 0, rc = 0;
    struct run_point *pts = sweep_points_all(c, &n);
    if (!pts)
        return cli_fail(m, "h5perf: out of memory for the %d runs of the sweep", n);
    for (int i = 0; rc == 0 && i < n; i++) {
        const struct backend_ops *ops = backend_get(pts[i].api);
        struct backend_settings set = engine_settings(c, &pts[i]);
        for (int read = 0; rc == 0 && ops && read < 2; read++) {
            struct pattern pt;
            char why[256];
            if (sweep_plan(c, &pts[i], 0, 0, read, &pt, NULL) == 0 &&
                ops->check(&set, &pt, why, sizeof why) < 0)
                rc = check_fail(c, &pts[i], why, m);
        }
    }
    free(pts);
    return rc;
}
