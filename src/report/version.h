/* What --version prints: the versions of the run context (report/run_context.h),
 * the same facts the JSON results record under "context". Formats only; no
 * MPI, no computation of its own. */
#ifndef H5PERF_VERSION_H
#define H5PERF_VERSION_H

#include <stdio.h>

#include "report/run_context.h"

/* Writes, one "name: value" line each (docs/install.md):
 *   h5perf 0.1.0
 *   commit: <git commit of the build, or unknown>
 *   build: <type>; <compiler>; <C flags>
 *   hdf5: <the HDF5 library running>
 *   mpi: <first line of the MPI library's version> (MPI <standard>)
 *   apis: <the APIs this build includes, space-separated>
 * then "<api>: <its library>" for each API with a version (api_versions).
 * Local. Returns 0, or -1 if the stream reports an error. */
int report_version(FILE *out, const struct run_context *c);

#endif
