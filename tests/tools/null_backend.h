/* The null backend of the test tools (null_backend.c). */
#ifndef H5PERF_NULL_BACKEND_H
#define H5PERF_NULL_BACKEND_H

#include "backend/backend.h"

extern const struct backend_ops backend_null;

/* The synthetic clock: seconds advanced only by the null backend's
 * transfers, by $H5PERF_NULL_SECONDS. */
double null_clock(void);

#endif
