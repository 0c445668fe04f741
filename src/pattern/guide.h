/* The guide's 1D and 2D patterns (docs/original.md), an entry of the
 * pattern table (pattern.h); the functions its entry names from
 * guide_finish.c and guide_check.c. Pure. */
#ifndef H5PERF_GUIDE_H
#define H5PERF_GUIDE_H

#include "pattern/pattern.h"

extern const struct pattern_desc pattern_guide;

/* Defaults of -e, -x, -X and -B, and the transfer sizes and block size
 * lowered with a warning (docs/original.md §1.6). Returns 0, or -1 with m. */
int guide_finish(struct config *c, int world_size, struct cli_warnings *w, struct cli_msg *m);

/* Every (process count, transfer size) of the sweep: divisibility, 64-bit
 * sizes, --direct's alignment, each API's call limit (docs/original.md
 * §3.5). Returns 0, or -1 with m naming the option and value to change. */
int guide_validate(const struct config *c, const struct run_point *pts, int n, struct cli_msg *m);

/* "-X '16G'", "-e '16G' (the default -X)", with " with -B '4K'" in 2D. */
void guide_memory_lead(const struct config *c, int nprocs, char *buf, size_t len);

/* "-d '4'" (more than one dataset), else "-e '1G'" or "-e". */
void guide_file_lead(const struct config *c, char *buf, size_t len);

/* -F: the data files of each run point. */
int guide_files(const struct config *c);

/* Its rows of the option table (guide_options.c), NULL after the last. */
extern const struct opt_row *const guide_rows[];

#endif
