/* The application patterns' run points, their labels and the leads of
 * their messages (app_points.c). Pure. */
#ifndef H5PERF_APP_POINTS_H
#define H5PERF_APP_POINTS_H

#include <stdbool.h>
#include <stddef.h>

#include "api/api.h"
#include "cli/config.h"
#include "plan/point.h"

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

#endif
