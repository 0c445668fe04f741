/* The guide's own options (docs/original.md): its sizes (-e, -x, -X, -B),
 * its geometry and storage (-g, -I, -c) and its datasets and files (-d,
 * -F), one field per own row of guide_options.c, which store them in the
 * configuration's guide pattern_settings (cli/config.h), opaque to every
 * file but the pattern's and the engine's, which names the run's files
 * (-F). --direct, --read-shift and --overhead, which only the guide
 * takes but which the results echo whatever the pattern and the core
 * reads, stay the core's. Pure. */
#ifndef H5PERF_GUIDE_OPTIONS_H
#define H5PERF_GUIDE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/config.h"

/* The guide's own settings; zeros until given, its defaults after
 * guide_finish() (and options/finish.c's, -d and -F 1). */
struct guide_settings {
    int64_t bytes;    /* -e, 0 = default */
    int64_t xfer_min; /* -x, 0 = default */
    int64_t xfer_max; /* -X, 0 = default */
    int64_t block;    /* -B, 0 = default (e/2) until defaults applied */
    int num_dsets;    /* -d */
    int num_files;    /* -F */
    bool chunk;       /* -c */
    bool geometry_2d; /* -g */
    bool interleaved; /* -I */
};

/* Its settings in s, its pattern_settings. */
static inline const struct guide_settings *guide_settings_of(const struct pattern_settings *s)
{
    return (const struct guide_settings *)(const void *)s->own.bytes;
}

static inline struct guide_settings *guide_settings_edit(struct pattern_settings *s)
{
    return (struct guide_settings *)(void *)s->own.bytes;
}

/* The guide's pattern_settings in c, and its settings there. */
const struct pattern_settings *guide_own(const struct config *c);
const struct guide_settings *guide_of(const struct config *c);
struct guide_settings *guide_edit(struct config *c);

/* The spelling and raw value of its own row as given in c (NULL: not). */
const char *guide_spelled(const struct config *c, const struct opt_row *row);
const char *guide_raw(const struct config *c, const struct opt_row *row);

/* Its own rows, which its messages name. */
extern const struct opt_row guide_bytes_row, guide_min_xfer_row, guide_max_xfer_row,
    guide_block_row, guide_interleaved_row, guide_chunk_row, guide_geometry_row, guide_dsets_row,
    guide_files_row;

#endif
