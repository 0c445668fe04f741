/* The reading a pattern's load() is lent on process 0 (pattern/pattern.h,
 * struct pattern_files): whole files, and the dimensions, file attributes
 * and 1D integer variables of HDF5 files and netCDF classic files (through
 * PnetCDF on MPI_COMM_SELF, where the build has it). It reads only what the
 * pattern asks for and never writes. Local (process 0). */
#ifndef H5PERF_INPUT_H
#define H5PERF_INPUT_H

#include "pattern/pattern.h"

/* The state of one open file: HDF5's or PnetCDF's handle. */
struct input_ctx {
    enum pattern_file_kind kind;
    int64_t hid; /* hid_t of an open HDF5 file, or -1 */
    int ncid;    /* an open netCDF file, or -1 */
};

/* Fills files with the functions, ctx their state. */
void input_files(struct pattern_files *files, struct input_ctx *ctx);

#endif
