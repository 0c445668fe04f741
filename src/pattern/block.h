/* The block pattern (docs/block.md), an entry of the pattern table: an
 * array of 1 to 3 dimensions decomposed in blocks over a process grid,
 * stored shared, chunked or one file per process. Pure. */
#ifndef H5PERF_BLOCK_H
#define H5PERF_BLOCK_H

#include "pattern/app.h"
#include "pattern/pattern.h"

extern const struct pattern_desc pattern_block;

/* The array's parameters at point p, with the writers' grid or (read) the
 * readers' (--read-grid). */
void block_params(const struct config *c, const struct run_point *p, bool read,
                  struct app_params *out);

/* Every point's grids divide the array, sizes fit, blocks within the APIs'
 * call limits (app_check.c). Returns 0, or -1 with m. */
int block_validate(const struct config *c, const struct run_point *pts, int n, struct cli_msg *m);

/* Its finish (pattern.h): defaults and refusals (block_finish.c). */
int block_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg);

/* Its rows of the option table (block_options.c), NULL after the last. */
extern const struct opt_row *const block_rows[];

#endif
