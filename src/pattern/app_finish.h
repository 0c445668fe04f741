/* What the application patterns refuse and default alike after parsing
 * (block_finish.c, particles_finish.c), and their validation
 * (app_check.c). Pure. */
#ifndef H5PERF_APP_FINISH_H
#define H5PERF_APP_FINISH_H

#include "cli/cli.h"
#include "cli/option.h"
#include "pattern/pattern.h"

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

/* The block pattern's and the particles pattern's finish (pattern.h). */
int block_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg);
int particles_finish(struct config *cfg, int world_size, struct cli_warnings *w,
                     struct cli_msg *msg);

/* An API's limit on the bytes one call moves (api.h): bytes is the most a
 * process moves in one call at point p; what says what that is ("each
 * process's block is", "a process's particles of one variable are"),
 * remedy what to change. The lead is the option that sizes the data
 * (lead). Returns 0, or -1 with m. */
int app_call_limit(const struct config *c, const struct run_point *p, int64_t bytes,
                   const char *lead, const char *what, const char *remedy, struct cli_msg *m);

/* The refusal of a file that the placement of point p (--align-data,
 * --shift) makes too large where the packed file is not: names --shift when
 * the file aligned but not shifted fits (aligned_fits), else --align-data;
 * where says what the file would do ("would end beyond the largest 64-bit
 * file offset"). Returns -1 with m. */
int app_place_fail(const struct config *c, const struct run_point *p, bool aligned_fits,
                   const char *where, struct cli_msg *m);

/* Do --align-data and --shift place the files of this layout and API (the
 * flat files of the shared layouts)? */
bool app_placeable(int layout, enum api_id api);

/* The run points of one process count (app_points.c): the layouts in the
 * order given, each placement, the APIs; grid: the point's process grid. */
int app_points(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
               struct run_point *out, int max);

/* "layout shared"; ", align-data 4KB" and ", shift 100" after it for a
 * placed point when that option was given more than one value. */
void app_label(const struct config *c, const struct run_point *p, bool exact, char *buf,
               size_t len);

/* "<option> with 2 processes, layout chunked"; "<option> over 4
 * processes"; "--vars '3'" (more than one variable given) or option. */
void app_lead(const char *option, const struct run_point *p, char *buf, size_t len);
void app_memory_lead(const char *option, int nprocs, char *buf, size_t len);
void app_file_lead(const struct config *c, const char *option, char *buf, size_t len);

/* The rows the application patterns share (app_options.c). */
extern const struct opt_row app_vars_row, app_elem_row, app_layout_row, app_align_data_row,
    app_shift_row, app_transfer_size_row;

#endif
