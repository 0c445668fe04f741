/* The map pattern's own options (docs/map.md): --map, one field per own
 * row of map_options.c, which store it in the configuration's map
 * pattern_settings (cli/config.h), opaque to every file but the
 * pattern's and the advisor's words of a workload (the row's spelling).
 * The options it shares with the other application patterns (--vars,
 * --element-size, --layout, --transfer-size) stay the core's. Pure. */
#ifndef H5PERF_MAP_OPTIONS_H
#define H5PERF_MAP_OPTIONS_H

#include "cli/config.h"

/* The map pattern's own settings. */
struct map_settings {
    const char *file; /* --map: the map file (into argv), NULL = not given */
};

/* Its settings in s, its pattern_settings. */
static inline const struct map_settings *map_settings_of(const struct pattern_settings *s)
{
    return (const struct map_settings *)(const void *)s->own.bytes;
}

/* The map pattern's pattern_settings in c, and its settings there. */
const struct pattern_settings *map_own(const struct config *c);
const struct map_settings *map_of(const struct config *c);

/* How --map was given in s and its value as typed (NULL: not given). */
const char *map_file_spelled(const struct pattern_settings *s);
const char *map_file_raw(const struct pattern_settings *s);

/* Its row, which the advisor's command lines spell (opt_word()). */
extern const struct opt_row map_file_row;

#endif
