/* The JSON results document (docs/results.md, docs/results.schema.json,
 * schema version 3): the effective configuration, the context and every
 * sample of every run. Formats the results model only; no MPI. */
#ifndef H5PERF_JSON_H
#define H5PERF_JSON_H

#include <stdio.h>

#include "base/jsonw.h"
#include "report/run_context.h"
#include "report/results.h"
#include "report/settings.h"

#define JSON_SCHEMA_VERSION 3

/* What the document holds that the writer does not know, written by its
 * owners for the caller (engine/outputs.c): the configuration as the
 * option table echoes it with the pattern's part, and the pattern's part
 * of each run. */
struct json_parts {
    /* The configuration's keys, into the object open in w. */
    void (*config)(struct jsonw *w, const void *arg);
    /* The pattern's part of run r, after its layout; NULL: none. */
    void (*run)(struct jsonw *w, const void *arg, const struct api_result *r);
    const void *arg;
};

/* Writes one document to out; parts writes the configuration's keys and
 * the pattern's part of each run. Returns 0, or -1 if the stream reports
 * an error. */
int json_write(FILE *out, const struct report_settings *cfg, const struct json_parts *parts,
               const struct run_context *ctx, const struct results_log *log);

#endif
