/* The JSON results document (docs/results.md, docs/results.schema.json,
 * schema version 3): the effective configuration, the context and every
 * sample of every run. Formats the results model only; no MPI. */
#ifndef H5PERF_JSON_H
#define H5PERF_JSON_H

#include <stdio.h>

#include "cli/config.h"
#include "pattern/pattern.h"
#include "report/context.h"
#include "report/results.h"

#define JSON_SCHEMA_VERSION 3

/* Writes one document to out; the pattern pd writes its part of the
 * configuration and of each run. Returns 0, or -1 if the stream reports an
 * error. */
int json_write(FILE *out, const struct pattern_desc *pd, const struct config *cfg,
               const struct run_context *ctx, const struct results_log *log);

#endif
