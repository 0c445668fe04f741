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

/* For a map streamed process by process (map_stream.c, in map_build.c):
 * the boxes of the entries of decomposition d (one process's) in C order,
 * as map_builder_finish() makes them, into *boxes (malloc'd, counted in b
 * as *bytes, which the caller gives back); their count, or -1 with why. */
int64_t map_proc_boxes(struct map_builder *b, const struct map_decomp_build *d,
                       struct model_box **boxes, int64_t *bytes, char *why, size_t wlen);

/* One process's figures of its n boxes of d into q; returns one past the
 * last element they hold (0: none). */
int64_t map_proc_figures(const struct map_decomp_build *d, const struct model_box *boxes, int64_t n,
                         struct map_wire_proc *q);

/* "D1: process 1's run 0 (3:6) overlaps process 0's run 0 (0:4) at
 * element 3" into why (second's start at or after first's); returns -1. */
int map_overlap_fail(const struct map_builder *b, const struct map_decomp_build *d,
                     const struct map_entry *first, const struct map_entry *second, int64_t at,
                     char *why, size_t wlen);

#endif
