/* The table of api.h, built from H5PERF_APIS. */
#include "api/api.h"

#include <ctype.h>
#include <string.h>

const struct api_desc api_descs[API_COUNT] = {
#define API_DESC(id, key, report, err, suffix, caps, limit)                                        \
    [API_##id] = {API_##id, #key, report, err, suffix, caps, limit},
    H5PERF_APIS(API_DESC)
#undef API_DESC
};

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
#define API_KEY(id, key, report, err, suffix, caps, limit) ", " #key
        H5PERF_APIS(API_KEY)
#undef API_KEY
        ;
    return list + 2; /* the first ", " */
}

bool api_built(enum api_id id)
{
#ifdef H5PERF_HAVE_PNETCDF
    return (int)id >= 0 && id < API_COUNT;
#else
    return (int)id >= 0 && id < API_COUNT && id != API_PNETCDF;
#endif
}

int api_reference(void)
{
    for (int a = 0; a < API_COUNT; a++)
        if (api_descs[a].caps & API_CAP_REFERENCE)
            return a;
    return -1;
}
