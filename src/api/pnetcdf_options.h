/* PnetCDF's own options (--pnetcdf.*, docs/pnetcdf.md) and the variants
 * they choose: blocking calls, one per variable and step, and with
 * --pnetcdf.nonblocking step k of every variable of a file posted without
 * blocking and completed by one wait. The flag chooses a variant and
 * nothing else: the backend (backend/pnetcdf.c) reads the run point's
 * variant. Pure. */
#ifndef H5PERF_PNETCDF_OPTIONS_H
#define H5PERF_PNETCDF_OPTIONS_H

#include <stdbool.h>

#include "api/api.h"

/* PnetCDF's own settings (--pnetcdf.*), one field per row of
 * pnetcdf_options.c, which store them in the configuration's PnetCDF
 * api_settings. Known to these two files only. */
struct pnetcdf_settings {
    int nonblocking; /* --pnetcdf.nonblocking: enum opt_join */
};

static inline const struct pnetcdf_settings *pnetcdf_settings_of(const struct api_settings *s)
{
    return (const struct pnetcdf_settings *)(const void *)s->own.bytes;
}

/* Variant v of PnetCDF (api/api.h). */
enum pnetcdf_variant { PNETCDF_BLOCKING = 0, PNETCDF_NONBLOCKING, PNETCDF_VARIANT_COUNT };

/* Its row the advisor offers as a choice (docs/advisor.md, "Choices"). */
extern const struct opt_row pnetcdf_nonblocking_row;

#endif
