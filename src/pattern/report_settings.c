/* config_report_settings() (pattern.h): the run's settings the report writers
 * show, resolved from the configuration once by their caller, so that the
 * writers read no configuration (report/settings.h; docs/design.md,
 * "Layers"). Pure. */
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "api/hdf5_options.h"
#include "cli/cli.h"
#include "pattern/guide_options.h"
#include "pattern/pattern.h"
#include "report/settings.h"

_Static_assert(REPORT_MAX_INFO == CONFIG_MAX_INFO, "report/settings.h: REPORT_MAX_INFO");
_Static_assert(REPORT_MAX_SWEEP == CONFIG_MAX_SWEEP, "report/settings.h: REPORT_MAX_SWEEP");

void config_report_settings(const struct config *cfg, struct report_settings *out)
{
    memset(out, 0, sizeof *out);
    out->apis = cfg->apis;
    for (int a = 0; a < API_COUNT; a++)
        out->variants[a] = api_variants(cfg->api, (enum api_id)a);
    const struct guide_settings *g = guide_of(cfg);
    out->bytes = g->bytes;
    out->block = g->block;
    out->xfer_min = g->xfer_min;
    out->xfer_max = g->xfer_max;
    out->num_dsets = g->num_dsets;
    out->num_files = g->num_files;
    out->iterations = cfg->iterations;
    out->min_procs = cfg->min_procs;
    out->max_procs = cfg->max_procs;
    out->chunk = g->chunk;
    out->collective = cfg->collective;
    out->geometry_2d = g->geometry_2d;
    out->interleaved = g->interleaved;
    out->write_only = cfg->write_only;
    out->read_only = cfg->read_only;
    out->debug_level = cfg->debug_level;
    out->debug_raw = cfg->debug_raw;
    out->debug_times = cfg->debug_times;
    out->nlayouts = cfg->nlayouts;
    memcpy(out->layouts, cfg->layouts, sizeof out->layouts);
    out->nalign = cfg->nalign;
    out->nshift = cfg->nshift;
    out->nbuf_offset = cfg->nbuf_offset;
    out->stonewall = cfg->stonewall;
    out->duration = cfg->duration;
    out->repeat_overwrite = cfg->repeat == REPEAT_OVERWRITE;
    out->latency = cfg->latency;
    out->confidence = cfg->confidence;
    out->max_iterations = cfg->max_iterations;
    out->max_time = cfg->max_time;
    out->paraprefix = cfg->paraprefix;
    out->info_defined = cfg->info_defined;
    out->info_count = cfg->info_count;
    for (int i = 0; i < CONFIG_MAX_INFO; i++) {
        out->info[i].key = cfg->info[i].key;
        out->info[i].value = cfg->info[i].value;
    }
    hdf5_drivers_text(&cfg->api[API_PHDF5], out->hdf5_drivers, sizeof out->hdf5_drivers);
    const struct api_header *h;
    enum api_id a;
    for (int i = 0; (h = api_header_at(i, &a)) && out->nheaders < REPORT_MAX_HEADERS; i++) {
        int n = out->nheaders;
        if (h->text(&cfg->api[a], out->headers[n].text, sizeof out->headers[n].text)) {
            out->headers[n].label = h->label;
            out->nheaders++;
        }
    }
}
