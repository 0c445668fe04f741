/* Values of --align-data, --shift and --buffer-offset: lists of sizes in
 * bytes. Pure and local; messages name the option as the user spelled it. */
#ifndef H5PERF_PLACES_H
#define H5PERF_PLACES_H

#include "cli/cli.h"
#include "cli/option.h"

/* The page size a --buffer-offset stays below: the smallest page of the
 * systems h5perf runs on (the buffers themselves are aligned to the
 * system's own page, engine.c). */
#define PLACES_PAGE 4096

/* Stores the list of --align-data, --shift or --buffer-offset (row->id)
 * in cfg. Returns 0, or -1 with msg. */
int places_option(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                  struct cli_msg *msg);

#endif
