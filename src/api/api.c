/* The table of api.h, built from H5PERF_APIS. */
#include "api/api.h"

#include "base/option.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const struct api_desc api_descs[API_COUNT] = {
#define API_DESC(id, key, report, err, suffix, caps, limit, over, model, hint, opts, advice)       \
    [API_##                                                                                        \
        id] = {API_##id, #key, report, err, suffix, caps, limit, over, model, hint, opts, advice},
    H5PERF_APIS(API_DESC)
#undef API_DESC
};

void api_addf(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    if (*at >= len)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    *at += n > 0 ? (size_t)n : 0;
}

const struct api_desc *api_desc(enum api_id id)
{
    return (int)id >= 0 && id < API_COUNT ? &api_descs[id] : NULL;
}

int api_find(const char *s, size_t len)
{
    for (int a = 0; a < API_COUNT; a++) {
        const char *key = api_descs[a].key;
        size_t i = 0;
        while (i < len && key[i] && tolower((unsigned char)s[i]) == key[i])
            i++;
        if (i == len && key[i] == '\0')
            return a;
    }
    return -1;
}

const char *api_key_list(void)
{
    static const char list[] =
#define API_KEY(id, key, report, err, suffix, caps, limit, over, model, hint, opts, advice)        \
    ", " #key
        H5PERF_APIS(API_KEY)
#undef API_KEY
        ;
    return list + 2; /* the first ", " */
}

void api_key_choices(char *buf, size_t len)
{
    buf[0] = '\0';
    for (int a = 0; a < API_COUNT; a++) {
        char gloss[128];
        snprintf(gloss, sizeof gloss, "(when this build includes %s: \"APIs in this build\" below)",
                 api_descs[a].err_name);
        opt_list_add(buf, len, a, API_COUNT, api_descs[a].key,
                     api_descs[a].build_hint ? gloss : NULL, ", ");
    }
}

bool api_built(enum api_id id)
{
#ifndef H5PERF_HAVE_PNETCDF
    if (id == API_PNETCDF)
        return false;
#endif
    return (int)id >= 0 && id < API_COUNT;
}

int api_reference(void)
{
    for (int a = 0; a < API_COUNT; a++)
        if (api_descs[a].caps & API_CAP_REFERENCE)
            return a;
    return -1;
}

/* Words' order: the APIs over the reference (table order), then the
 * reference over its own base; the report puts the default APIs' first.
 * The default APIs' ratios are always given, the others' when selected. */
int api_ratios(unsigned apis, bool report, int out[API_COUNT])
{
    int ref = api_reference(), n = 0;
    for (int pass = 0; pass < (report ? 2 : 1); pass++)
        for (int k = 0; k <= API_COUNT; k++) {
            /* k < API_COUNT: an API over the reference; k == API_COUNT: the
             * reference itself, over its base. */
            int a = k < API_COUNT ? k : ref;
            if (a < 0 || api_descs[a].over < 0 || (k < API_COUNT && api_descs[a].over != ref))
                continue;
            bool dflt = API_DEFAULT_SET >> a & 1u;
            if ((report && dflt != (pass == 0)) || !(dflt || (apis & API_BIT(a))))
                continue;
            out[n++] = a;
        }
    return n;
}

unsigned api_variants(const struct api_settings *settings, enum api_id api)
{
    const struct api_opts *o = api_descs[api].opts;
    return o ? o->chosen(&settings[api]) : 1u;
}

const struct api_variant *api_variant(enum api_id api, int v)
{
    const struct api_opts *o = api_descs[api].opts;
    return o && v >= 0 && v < o->nvariants ? &o->variants[v] : NULL;
}

const char *api_report_name(enum api_id api, int v)
{
    const struct api_variant *var = api_variant(api, v);
    return var ? var->report_name : api_descs[api].report_name;
}

int api_variant_per_process(enum api_id api, int v)
{
    const struct api_variant *var = api_variant(api, v);
    return var ? var->per_process : 0;
}

int64_t api_variant_buffer(enum api_id api, int v, int64_t bytes, int64_t nvars)
{
    const struct api_variant *var = api_variant(api, v);
    if (!var || !var->joins_vars || nvars <= 1)
        return bytes;
    return bytes > INT64_MAX / nvars ? INT64_MAX : bytes * nvars;
}

void api_variant_text(enum api_id api, int v, const char *what, char *buf, size_t len)
{
    const struct api_variant *var = api_variant(api, v);
    if (var && var->label)
        snprintf(buf, len, "%s%s%s", what, what[0] ? ", " : "", var->label);
    else
        snprintf(buf, len, "%s", what);
}

const struct api_header *api_header_at(int i, enum api_id *api)
{
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_opts *o = api_descs[a].opts;
        for (const struct api_header *h = o ? o->headers : NULL; h && h->label; h++)
            if (i-- == 0) {
                *api = (enum api_id)a;
                return h;
            }
    }
    return NULL;
}

int api_need_threads(unsigned apis, const struct api_settings *settings)
{
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_opts *o = api_descs[a].opts;
        unsigned bits = o && (!apis || (apis & API_BIT(a))) ? o->chosen(&settings[a]) : 0;
        for (int v = 0; o && v < o->nvariants; v++)
            if ((bits >> v & 1u) && o->variants[v].threads)
                return a;
    }
    return -1;
}

int api_row_index(enum api_id api, const struct opt_row *row)
{
    const struct api_opts *o = api_desc(api) ? api_descs[api].opts : NULL;
    for (int k = 0; o && o->rows[k] && k < API_MAX_ROWS; k++)
        if (o->rows[k] == row)
            return k;
    return -1;
}

const char *api_row_spelled(const struct api_settings *s, enum api_id api,
                            const struct opt_row *row)
{
    int k = api_row_index(api, row);
    return k >= 0 ? s->spelled[k] : NULL;
}

const char *api_row_raw(const struct api_settings *s, enum api_id api, const struct opt_row *row)
{
    int k = api_row_index(api, row);
    return k >= 0 ? s->raw[k] : NULL;
}

int64_t api_view_bytes(enum api_id a, bool collective, int64_t runs)
{
    const struct api_desc *d = api_desc(a);
    bool view = d && ((d->caps & API_CAP_FILE_VIEW) ||
                      (collective && (d->caps & API_CAP_FILE_VIEW_COLLECTIVE)));
    if (!view || runs <= 1)
        return 0;
    return runs > INT64_MAX / API_VIEW_RUN_BYTES ? INT64_MAX : runs * API_VIEW_RUN_BYTES;
}
