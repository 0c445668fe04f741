/* The bytes of a map (map.h): written by the builder on process 0
 * (map_build.c), divided into the part every process receives and each
 * process's own (map_input_parts()), read back into a map input by every
 * process (map_adopt.c). Internal to the map pattern. */
#ifndef H5PERF_MAP_WIRE_H
#define H5PERF_MAP_WIRE_H

#include <stdint.h>

#include "pattern/map.h"

#define MAP_MAGIC "h5pmap2"

struct map_wire_decomp {
    char name[16];
    int32_t ndims;
    int64_t dims[MODEL_MAX_DIMS];
    int64_t nboxes; /* every process's */
    int64_t end;    /* one past the last element any process has */
};

/* What a process's part of a decomposition is, as every process knows it:
 * its boxes, its elements and the contiguous runs of its boxes. */
struct map_wire_proc {
    int64_t nboxes, count, runs;
};

struct map_wire {
    char magic[8];
    int32_t nprocs, ndecomps;
    char format[32];
    struct map_wire_decomp d[MAP_MAX_DECOMPS];
    /* then, the common part's end: per decomposition, struct map_wire_proc
     * procs[nprocs]; then the parts: per process, its boxes (struct
     * model_box) of each decomposition in turn, in C order. */
};

/* The runs of box b of an array of ndims dims (what an MPI-IO view holds
 * of it, row by row). */
int64_t map_box_nruns(int ndims, const int64_t *dims, const struct model_box *b);

#endif
