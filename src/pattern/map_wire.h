/* The bytes of a map that every process keeps (map.h): written by the
 * builder on process 0 (map_build.c), read back into a map input by every
 * process (map_adopt.c). Internal to the map pattern. */
#ifndef H5PERF_MAP_WIRE_H
#define H5PERF_MAP_WIRE_H

#include <stdint.h>

#include "pattern/map.h"

#define MAP_MAGIC "h5pmap1"

struct map_wire_decomp {
    char name[16];
    int32_t ndims;
    int64_t dims[MODEL_MAX_DIMS];
    int64_t nboxes;
};

struct map_wire {
    char magic[8];
    int32_t nprocs, ndecomps;
    char format[32];
    struct map_wire_decomp d[MAP_MAX_DECOMPS];
    /* then per decomposition: int64_t first[nprocs + 1], struct model_box
     * boxes[nboxes] */
};

#endif
