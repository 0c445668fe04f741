/* What the application patterns share beyond their arrays (app.h): their
 * run points (process count, layout in the order given, each placement,
 * the APIs), labels, leads and the page of the report they share. Pure. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pattern/app.h"
#include "pattern/app_points.h"
#include "report/text.h"

bool app_placeable(int layout, enum api_id api)
{
    return !layout_desc(layout)->per_process && (api_desc(api)->caps & API_CAP_FLAT_FILE);
}

/* The points of one process count and layout: each (--align-data, --shift)
 * pair in turn, the APIs of each; an API whose files they do not place
 * (HDF5, a file per process) once, packed. */
static int app_layout_points(const struct config *c, int p, int layout, const int *grid,
                             struct run_point *out, int n, int max)
{
    int na = c->nalign ? c->nalign : 1, ns = c->nshift ? c->nshift : 1;
    for (int i = 0; i < na * ns; i++) {
        int64_t align = c->nalign ? c->align_data[i / ns] : 0;
        int64_t shift = c->nshift ? c->shifts[i % ns] : 0;
        for (int a = 0; a < API_COUNT; a++) {
            bool placed = app_placeable(layout, (enum api_id)a);
            if (!(c->apis & API_BIT(a)) || (!placed && i > 0))
                continue;
            if (n < max) {
                out[n] = (struct run_point){.nprocs = p,
                                            .api = (enum api_id)a,
                                            .layout = layout,
                                            .align = placed ? align : 0,
                                            .shift = placed ? shift : 0};
                for (int d = 0; d < MODEL_MAX_DIMS; d++)
                    out[n].grid[d] = grid[d];
            }
            n++;
        }
    }
    return n;
}

int app_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
               struct run_point *out, int max)
{
    int n = 0;
    for (int i = 0; i < c->nlayouts; i++)
        n = app_layout_points(c, nprocs, c->layouts[i], grid, out, n, max);
    return n;
}

/* ", align-data 4KB" or ", shift 100" (bytes when exact) after a label,
 * for a placement option given more than one value. */
static void app_label_place(const char *name, int64_t v, bool exact, char *buf, size_t len)
{
    char size[32];
    if (exact)
        snprintf(size, sizeof size, "%" PRId64, v);
    else
        text_size(size, sizeof size, v);
    size_t at = strlen(buf);
    if (at < len)
        snprintf(buf + at, len - at, ", %s %s", name, size);
}

void app_label(const struct config *c, const struct run_point *p, bool exact, char *buf, size_t len)
{
    snprintf(buf, len, "layout %s", layout_name(p->layout));
    /* The points of one layout differ by their placement too: the label
     * names what was swept (the API's placed runs only). */
    if (!app_placeable(p->layout, p->api))
        return;
    if (c->nalign > 1)
        app_label_place("align-data", p->align, exact, buf, len);
    if (c->nshift > 1)
        app_label_place("shift", p->shift, exact, buf, len);
}

void app_lead(const char *option, const struct run_point *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s with %d process%s, layout %s", option, p->nprocs,
             p->nprocs == 1 ? "" : "es", layout_name(p->layout));
}

void app_memory_lead(const char *option, int nprocs, char *buf, size_t len)
{
    snprintf(buf, len, "%s over %d process%s", option, nprocs, nprocs == 1 ? "" : "es");
}

void app_file_lead(const struct config *c, const char *option, char *buf, size_t len)
{
    if (c->spelled[OPT_VARS] && c->nvars > 1)
        snprintf(buf, len, "%s '%s'", c->spelled[OPT_VARS], c->raw[OPT_VARS]);
    else
        snprintf(buf, len, "%s", option);
}
