/* The application patterns' validation against the APIs' limits
 * (app_check.c). Pure. */
#ifndef H5PERF_APP_CHECK_H
#define H5PERF_APP_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "base/msg.h"
#include "cli/config.h"
#include "plan/point.h"

/* An API's limit on the bytes one call moves (api.h): bytes is the most a
 * process moves in one call at point p; what says what that is ("each
 * process's block is", "a process's particles of one variable are"),
 * remedy what to change. The lead is the option that sizes the data
 * (lead). Returns 0, or -1 with m. */
int app_call_limit(const struct config *c, const struct run_point *p, int64_t bytes,
                   const char *lead, const char *what, const char *remedy, struct cli_msg *m);

/* The refusal of a file that the placement of point p (--align-data,
 * --shift) makes too large where the packed file is not: names --shift when
 * the file aligned but not shifted fits (aligned_fits), else --align-data;
 * where says what the file would do ("would end beyond the largest 64-bit
 * file offset"). Returns -1 with m. */
int app_place_fail(const struct config *c, const struct run_point *p, bool aligned_fits,
                   const char *where, struct cli_msg *m);

#endif
