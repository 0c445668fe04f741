/* The bytes a step's runs move, summed independently of the plan's own
 * byte counts, so that the unit tests and the map fuzzer can check one
 * against the other. */
#ifndef H5PERF_TEST_RUNS_BYTES_H
#define H5PERF_TEST_RUNS_BYTES_H

#include <stdint.h>

#include "plan/plan.h"

static inline int64_t runs_bytes(const struct model_runs *runs, int n)
{
    int64_t bytes = 0;
    for (int i = 0; i < n; i++)
        bytes += (runs[i].len > 0 ? runs[i].count[0] * runs[i].count[1] : 0) * runs[i].len;
    return bytes;
}

#endif
