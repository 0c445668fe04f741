/* The run's settings the writers show (docs/design.md, "Layers"), resolved
 * by the caller from the configuration (cli/report_settings.c): the
 * writers format these and the results model, and never read the
 * configuration nor call option or pattern code. The fields keep the
 * names of the configuration's (struct config). Plain data. */
#ifndef H5PERF_REPORT_SETTINGS_H
#define H5PERF_REPORT_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "api/api.h"
#include "plan/point.h"

#define REPORT_MAX_INFO    64 /* HDF5_MPI_INFO entries (CONFIG_MAX_INFO) */
#define REPORT_MAX_SWEEP   32 /* process counts of a sweep (CONFIG_MAX_SWEEP) */
#define REPORT_MAX_HEADERS 8  /* the APIs' header lines (api_header_at) */

struct report_settings {
    unsigned apis;                 /* API_BIT mask of the APIs run */
    unsigned variants[API_COUNT];  /* each API's variants chosen (api_variants) */
    int64_t bytes, block;          /* -e, -B */
    int64_t xfer_min, xfer_max;    /* -x, -X */
    int num_dsets, num_files;      /* -d, -F */
    int iterations;                /* -i */
    int min_procs, max_procs;      /* -p, -P */
    bool chunk, collective;        /* -c, -C */
    bool geometry_2d, interleaved; /* -g, -I */
    bool write_only, read_only;    /* -w, --read-only */
    int debug_level;               /* -D 0..4 */
    bool debug_raw, debug_times;   /* -D r, -D t */
    int nlayouts;                  /* --layout, in the order given */
    int layouts[LAYOUT_COUNT];     /* enum plan_layout */
    int nalign, nshift;            /* --align-data, --shift: how many values */
    int nbuf_offset;               /* --buffer-offset: how many values */
    double stonewall, duration;    /* --stonewall, --duration seconds; 0: none */
    bool repeat_overwrite;         /* --repeat overwrite */
    bool latency;                  /* --latency */
    double confidence;             /* --confidence as a fraction; 0: none */
    int max_iterations;            /* --max-iterations */
    double max_time;               /* --max-time seconds; 0: none */
    const char *paraprefix;        /* HDF5_PARAPREFIX, NULL if undefined */
    bool info_defined;             /* HDF5_MPI_INFO defined (even empty) */
    int info_count;                /* its entries, trimmed */
    struct {
        const char *key, *value;
    } info[REPORT_MAX_INFO];
    char hdf5_drivers[64]; /* "MPI-IO driver, subfiling driver" (hdf5_drivers_text) */
    /* The lines of the APIs' own options given (api/api.h, api_header):
     * "HDF5 metadata" and its text. */
    int nheaders;
    struct {
        const char *label;
        char text[256];
    } headers[REPORT_MAX_HEADERS];
};

#endif
