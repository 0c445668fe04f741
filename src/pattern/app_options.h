/* The rows of the options the application patterns share (app_options.c):
 * --vars, --element-size, --layout, --align-data, --shift,
 * --transfer-size. */
#ifndef H5PERF_APP_OPTIONS_H
#define H5PERF_APP_OPTIONS_H

#include "base/option.h"

/* The rows the application patterns share (app_options.c). */
extern const struct opt_row app_vars_row, app_elem_row, app_layout_row, app_align_data_row,
    app_shift_row, app_transfer_size_row;

#endif
