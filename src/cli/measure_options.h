/* The core rows that bound and repeat the measurement (docs/measuring.md):
 * --stonewall, --duration, --repeat, --latency, --confidence,
 * --max-iterations, --max-time; and their refusals after parsing. Pure. */
#ifndef H5PERF_MEASURE_OPTIONS_H
#define H5PERF_MEASURE_OPTIONS_H

#include "cli/option.h"

/* The longest phase bound: a day, in seconds. */
#define MEASURE_MAX_SECONDS 86400.0
/* --confidence's range, in percent. */
#define MEASURE_MIN_PERCENT 0.1
#define MEASURE_MAX_PERCENT 50.0
/* --max-iterations when --confidence is given without it. */
#define MEASURE_DEFAULT_MAX_ITERATIONS 50

extern const struct opt_row measure_stonewall_row, measure_duration_row, measure_repeat_row,
    measure_latency_row, measure_confidence_row, measure_max_iterations_row, measure_max_time_row,
    measure_budget_row;

/* Refuses what cannot be combined (--stonewall or --duration with
 * --read-only, --stonewall with --duration, --repeat without --duration,
 * the bounds without --confidence, --max-iterations below -i) and fills the
 * defaults. Returns 0, or -1 with msg. */
int measure_finish(struct config *cfg, struct cli_msg *msg);

/* The iterations a point may run: -i, or with --confidence at most
 * --max-iterations. */
int measure_max_iterations(const struct config *cfg);

#endif
