/* What each backend knows of a run before any file exists (its check
 * operation, backend/backend.h), asked of every run point of the sweep,
 * and the settings a run point gives its backend. Pure. */
#ifndef H5PERF_CHECK_H
#define H5PERF_CHECK_H

#include "backend/backend.h"
#include "cli/cli.h"
#include "cli/sweep.h"

/* The settings of run point p (the block pattern's chunked layout: HDF5's
 * chunks are the blocks; otherwise -c). */
struct backend_settings engine_settings(const struct config *c, const struct run_point *p);

/* Every run point's write and read plans through its backend's check.
 * Returns 0, or -1 with the line in m. */
int engine_check(const struct config *c, struct cli_msg *m);

#endif
