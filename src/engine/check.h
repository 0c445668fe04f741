/* What each backend knows of a run before any file exists (its check
 * operation, backend/backend.h), asked of every run point of the session,
 * and the settings a run gives its backends. Pure. */
#ifndef H5PERF_CHECK_H
#define H5PERF_CHECK_H

#include "backend/backend.h"
#include "cli/cli.h"
#include "session/session.h"

/* The settings of a run (-C, --fsync, --direct, -a, -T). */
struct backend_settings engine_settings(const struct config *c);

/* Every run point's plan (of process 0) and measures through its backend's
 * check. Returns 0, or -1 with the line in m. */
int engine_check(const struct session *s, struct cli_msg *m);

#endif
