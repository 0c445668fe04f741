/* What each backend knows of a run before any file exists (its check
 * operation, backend/backend.h), asked of every run point of the session,
 * and the settings a run gives its backends. Pure. */
#ifndef H5PERF_CHECK_H
#define H5PERF_CHECK_H

#include "backend/backend.h"
#include "cli/cli.h"
#include "session/session.h"

/* The settings of run point p (-C, --fsync, --direct, -a, -T, its
 * variant, its API's own settings, which point into c). */
struct backend_settings engine_settings(const struct config *c, const struct run_point *p);

/* Every run point's plan (of process rank, or of process 0 at a point of
 * fewer processes) and measures through its backend's check. Returns 0,
 * or -1 with the line in m. */
int engine_check(const struct session *s, int rank, struct cli_msg *m);

/* The least time a run takes for the runs of data it moves: at
 * ENGINE_RUN_SECONDS per contiguous run at the least (the cost of a call's
 * piece, docs/performance.md), a run past ENGINE_SLOW_SECONDS is announced
 * in w before it starts, with the point that moves the most runs. */
#define ENGINE_RUN_SECONDS  1e-6
#define ENGINE_SLOW_SECONDS 1800.0
void engine_warn_slow(const struct session *s, struct cli_warnings *w);

/* That least time, in seconds, of the whole session (its iterations
 * included), and the point that moves the most runs into *most (NULL
 * without points). Pure. */
double engine_least_seconds(const struct session *s, const struct session_point **most);

#endif
