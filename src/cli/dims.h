/* Values of the application patterns' options: dimensions, "512x512x512"
 * (scanned here; the block pattern's own rows --global, --grid,
 * --read-grid and --chunk-shape store them, pattern/block_options.c), and
 * "shared,chunked,fpp" (--layout, which they share). Pure and
 * local: no I/O; messages name the option as the user spelled it. */
#ifndef H5PERF_DIMS_H
#define H5PERF_DIMS_H

#include <stdint.h>

#include "cli/cli.h"
#include "cli/option.h"

/* Scans 1 to 3 whole numbers from 1 to max separated by 'x' (any case):
 * ^[0-9]+([xX][0-9]+){0,2}$. Returns the number of dimensions, or -1. */
int dims_scan(const char *text, int64_t max, int64_t out[MODEL_MAX_DIMS]);

/* "512x512x512" into buf. */
void dims_text(char *buf, size_t len, int n, const int64_t *dims);

/* Stores the value of --layout (row) in cfg, dest. Returns 0, or -1 with msg naming the option as
 * spelled. */
int dims_option(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                struct cli_msg *msg);

#endif
