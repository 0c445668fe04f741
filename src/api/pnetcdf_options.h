/* PnetCDF's own options (--pnetcdf.*, docs/pnetcdf.md) and the variants
 * they choose: blocking calls, one per variable and step, and with
 * --pnetcdf.nonblocking step k of every variable of a file posted without
 * blocking and completed by one wait. The flag chooses a variant and
 * nothing else, so PnetCDF has no settings struct (docs/design.md,
 * "Adding an API"): the configuration keeps the flag, the backend
 * (backend/pnetcdf.c) reads the run point's variant. Pure. */
#ifndef H5PERF_PNETCDF_OPTIONS_H
#define H5PERF_PNETCDF_OPTIONS_H

/* Variant v of PnetCDF (api/api.h). */
enum pnetcdf_variant { PNETCDF_BLOCKING = 0, PNETCDF_NONBLOCKING, PNETCDF_VARIANT_COUNT };

#endif
