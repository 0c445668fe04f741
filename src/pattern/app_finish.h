/* What the application patterns refuse and default alike after parsing
 * (app_finish.c). Pure. */
#ifndef H5PERF_APP_FINISH_H
#define H5PERF_APP_FINISH_H

#include <stdint.h>

#include "cli/config.h"
#include "base/msg.h"

/* -D levels, r and t: the guide's only (v applies); and --vars one count
 * (a list is --pattern map's). Returns 0 or -1 with m. */
int app_finish_common(const struct config *cfg, struct cli_msg *msg);

/* -D levels, r and t: the guide's only (v applies). Returns 0 or -1 with m. */
int app_finish_debug(const struct config *cfg, struct cli_msg *msg);

/* --align-data and --shift: only where the run has flat shared files, and
 * one value of each with --read-only. Returns 0 or -1 with m. */
int app_finish_places(const struct config *cfg, struct cli_msg *msg);

/* --layout of a pattern that stores shared or fpp only: both by default;
 * chunked refused with why ("the particles pattern stores shared or fpp
 * (...)"); --read-only with the shared layout alone. Returns 0 or -1
 * with m. */
int app_finish_shared_fpp(struct config *cfg, const char *why, struct cli_msg *msg);

/* --transfer-size: at least one element of elem bytes. Returns 0 or -1
 * with m. */
int app_finish_transfer(const struct config *cfg, int elem, struct cli_msg *msg);

/* The most bytes one call moves of a part of rank_bytes of elem-byte
 * elements, with --transfer-size (0: the part). */
int64_t app_call_bytes(const struct config *cfg, int64_t rank_bytes, int elem);

#endif
