/* What every process holds at a run point, over all processes
 * (docs/design.md, "The run plan"): each pattern measures its run points
 * (pattern/pattern.h), the session keeps the measures, and the memory and
 * pre-flight checks and the backends' refusals read them. Plain data. */
#ifndef H5PERF_BASE_MEASURE_H
#define H5PERF_BASE_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

struct pattern_measure {
    int64_t phase_bytes; /* all processes, one phase of one file */
    int64_t max_buffer;  /* the largest buffer of one process */
    int64_t max_call;    /* the most bytes one I/O call of one process moves */
    int64_t max_chunk;   /* the largest chunk (HDF5), in bytes; 0: none */
    int64_t flat_bytes;  /* a flat file's size (shared, or the largest per process) */
    int64_t max_dim;     /* the largest dimension of a variable, in elements */
    bool views;          /* some call moves several runs through one view (MPI-IO) */
    /* The most contiguous file runs one call of one process moves as one
     * selection (an MPI-IO view; 1: contiguous calls), and the runs one
     * process moves in one phase (at least one per call), the most of any
     * process: what a library holds per call and does per run. */
    int64_t call_runs, phase_runs;
    /* The most bytes one process's plan holds besides its buffer (a map's
     * boxes, slabs and runs: docs/map.md, "Memory"); 0: little. */
    int64_t plan_bytes;
    int nvars;                  /* variables of a file */
    int64_t var_bytes;          /* a variable's bytes in a shared file */
    const char *smaller_chunks; /* the pattern's remedy for chunks too large */
};

#endif
