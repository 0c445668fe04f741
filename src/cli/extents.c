/* config_validate_extent() (cli.h): the files of the selected APIs that
 * place data themselves (HDF5's and PnetCDF's alignment, api/file_model.h) must
 * fit in 64-bit offsets, -a must be one the library takes, and the files
 * within the library's own limits (api_opts.check_file); asked of every
 * API alike, the words the API's. Pure: no MPI. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "cli/cli.h"

/* Appends to buf the template with %t (the threshold that aligns, with
 * where its value came from), %a and %T (how -a and -T were spelled)
 * expanded. */
static void extents_expand(const struct config *cfg, const char *tpl, char *buf, size_t len)
{
    size_t used = strlen(buf);
    for (const char *p = tpl; *p && used + 1 < len; p++) {
        if (p[0] != '%' || !p[1]) {
            buf[used++] = *p;
            buf[used] = '\0';
            continue;
        }
        p++;
        if (*p == 't') {
            char note[160];
            if (cfg->spelled[OPT_THRESHOLD])
                snprintf(note, sizeof note, " (%s '%s')", cfg->spelled[OPT_THRESHOLD],
                         cfg->raw[OPT_THRESHOLD]);
            else
                snprintf(note, sizeof note, " (the default -T)");
            used += (size_t)snprintf(buf + used, len - used, "%" PRId64 " byte%s%s", cfg->threshold,
                                     cfg->threshold == 1 ? "" : "s", note);
        } else {
            used += (size_t)snprintf(
                buf + used, len - used, "%s",
                cli_name(cfg, *p == 'T' ? OPT_THRESHOLD : OPT_ALIGN, *p == 'T' ? "-T" : "-a"));
        }
        used = used < len ? used : len - 1;
    }
}

/* "h5perf: -a '1G': body", or "h5perf: body" when -a was not given. */
static int extents_fail(const struct config *cfg, const char *body, struct cli_msg *m)
{
    if (cfg->spelled[OPT_ALIGN])
        return cli_fail(m, "h5perf: %s '%s': %s", cfg->spelled[OPT_ALIGN], cfg->raw[OPT_ALIGN],
                        body);
    return cli_fail(m, "h5perf: %s", body);
}

int config_validate_extent(const struct config *cfg, int nprocs, const struct extent_file *f,
                           const char *lead, struct cli_msg *m)
{
    char body[1024];
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_model *mo = api_desc((enum api_id)a)->model;
        if (!(cfg->apis & API_BIT(a)) || !mo || !mo->max_align || cfg->align <= mo->max_align)
            continue;
        snprintf(body, sizeof body, "%s, or leave %s out of %s '%s'", mo->max_align_why,
                 api_desc((enum api_id)a)->key, cli_name(cfg, OPT_API, "-A"),
                 cli_raw(cfg, OPT_API));
        return extents_fail(cfg, body, m);
    }
    /* The libraries' own limits on the file without alignment, before -a
     * is blamed for a file that would not fit without it either: the line
     * leads with the option that sizes the file (lead). */
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_opts *o = api_desc((enum api_id)a)->opts;
        if (!(cfg->apis & API_BIT(a)) || !o || !o->check_file)
            continue;
        char leave_out[256];
        config_leave_out(cfg, (enum api_id)a, leave_out, sizeof leave_out);
        if (o->check_file(&cfg->api[a], f, nprocs, lead, leave_out, m) < 0)
            return -1;
    }
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_model *mo = api_desc((enum api_id)a)->model;
        if (!(cfg->apis & API_BIT(a)) || !mo || (mo->needs_align && cfg->align <= 1) ||
            mo->extent(f, cfg->align, cfg->threshold, true) >= 0)
            continue;
        body[0] = '\0';
        extents_expand(cfg, mo->places, body, sizeof body);
        size_t n = strlen(body);
        snprintf(body + n, sizeof body - n,
                 "; a file of %d %s%s with %d process%s would end beyond the largest 64-bit "
                 "file offset; ",
                 f->nvars, mo->unit, f->nvars == 1 ? "" : "s", nprocs, nprocs == 1 ? "" : "es");
        extents_expand(cfg, mo->remedy, body, sizeof body);
        return extents_fail(cfg, body, m);
    }
    return 0;
}

void config_leave_out(const struct config *cfg, enum api_id a, char *buf, size_t len)
{
    const char *key = api_desc(a)->key;
    if (cfg->spelled[OPT_API])
        snprintf(buf, len, "leave %s out of %s '%s'", key, cfg->spelled[OPT_API],
                 cfg->raw[OPT_API]);
    else
        snprintf(buf, len, "give -A without %s (it is in the default)", key);
}
