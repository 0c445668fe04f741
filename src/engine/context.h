/* Filling the run context of report/run_context.h: versions, hosts, the target
 * directory's file system, times. Reads the system; writes nothing. */
#ifndef H5PERF_ENGINE_CONTEXT_H
#define H5PERF_ENGINE_CONTEXT_H

#include "engine/setup.h"
#include "report/run_context.h"

/* Collective over MPI_COMM_WORLD (the host names are gathered): fills c on
 * world rank 0 with everything but the end time and exit status; on other
 * ranks c is zeroed. Call it just before the sweep: it stamps the start. */
void context_init(struct run_context *c, const struct run *run, int argc, char **argv);

/* Local: fills the versions of c (h5perf, commit, build, HDF5, MPI and each
 * API's library) and nothing else; context_init() calls it too, so --version
 * and the JSON results say the same. */
void context_versions(struct run_context *c);

/* Local: the end time and the exit status. */
void context_end(struct run_context *c, int exit_status);

void context_release(struct run_context *c);

#endif
