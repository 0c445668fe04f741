/* Values of --align-data and --shift: lists of sizes in bytes. Pure and
 * local; messages name the option as the user spelled it. */
#ifndef H5PERF_PLACES_H
#define H5PERF_PLACES_H

#include "cli/cli.h"
#include "cli/option.h"

/* Stores the list of --align-data or --shift (id) in cfg. Returns 0, or
 * -1 with msg. */
int places_option(struct config *cfg, const struct opt_row *row, const char *spelled,
                  const char *value, struct cli_msg *msg);

#endif
