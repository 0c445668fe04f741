/* The bytes of a trace (trace.h): written by the parser on process 0
 * (trace_text.c), divided into the part every process receives and each
 * process's own calls (trace_input_parts()), read back by every process
 * (trace_adopt()). Internal to the trace pattern. */
#ifndef H5PERF_TRACE_WIRE_H
#define H5PERF_TRACE_WIRE_H

#include <stdint.h>

#include "pattern/trace.h"

#define TRACE_MAGIC "h5ptrc1"

struct trace_wire {
    char magic[8];
    int32_t nprocs, nfiles;
    char level[8];
    /* then struct trace_file files[nfiles], struct trace_proc
     * procs[nprocs] (the common part); then each process's calls (struct
     * trace_call, procs[p].calls of them), process after process. */
};

#endif
