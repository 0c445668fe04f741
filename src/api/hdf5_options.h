/* HDF5's own options (--hdf5.*, docs/hdf5.md) and the variants they
 * choose: the file driver (MPI-IO or subfiling) and whether the variables
 * of a file move in one call (H5Dwrite_multi). What the HDF5 h5perf was
 * built against has of them. Pure: the backend (backend/phdf5.c) reads a
 * run point's variant through these functions. */
#ifndef H5PERF_HDF5_OPTIONS_H
#define H5PERF_HDF5_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"

/* --hdf5.driver's words, in run order. */
enum hdf5_driver { HDF5_DRIVER_MPIO = 0, HDF5_DRIVER_SUBFILING, HDF5_DRIVER_COUNT };

/* Variant v of HDF5 (api/api.h) is driver + HDF5_DRIVER_COUNT * multi. */
static inline enum hdf5_driver hdf5_variant_driver(int v)
{
    return (enum hdf5_driver)(v % HDF5_DRIVER_COUNT);
}

static inline bool hdf5_variant_multi(int v)
{
    return v >= HDF5_DRIVER_COUNT;
}

/* HDF5's own settings (--hdf5.*), one field per row of hdf5_options.c,
 * which store them: in the configuration's HDF5 api_settings, handed to
 * the backend (backend/phdf5.c) as backend_settings.api. Known to these
 * two files and the backend only. */
struct hdf5_settings {
    unsigned drivers;   /* --hdf5.driver: bits 1 << enum hdf5_driver; 0: mpio */
    int64_t stripe;     /* --hdf5.subfiling-stripe, 0: HDF5's */
    int ioc_per_node;   /* --hdf5.ioc-per-node, 0: HDF5's */
    int multi_dataset;  /* --hdf5.multi-dataset: enum opt_join */
    bool coll_metadata; /* --hdf5.collective-metadata */
    int64_t meta_block; /* --hdf5.metadata-block-size, 0: HDF5's (2K) */
};

/* HDF5's settings in s, its api_settings (or in the bytes the backend is
 * handed). */
static inline const struct hdf5_settings *hdf5_settings_of(const struct api_settings *s)
{
    return (const struct hdf5_settings *)(const void *)s->own.bytes;
}

/* The drivers HDF5 runs with, for the guide's header: "MPI-IO driver",
 * "MPI-IO driver, subfiling driver". */
void hdf5_drivers_text(const struct api_settings *s, char *buf, size_t len);

/* Does the HDF5 of this build have the subfiling driver
 * (H5_HAVE_SUBFILING_VFD), multi-dataset I/O (H5Dwrite_multi, 1.14)? */
bool hdf5_built_subfiling(void);
bool hdf5_built_multi_dataset(void);

/* Its rows the advisor offers as choices (docs/advisor.md, "Choices"). */
extern const struct opt_row hdf5_coll_metadata_row, hdf5_meta_block_row;

#endif
