/* An error record (base/err.h) filled from a library's error: an MPI error
 * code's string, the HDF5 error stack's innermost message. */
#ifndef H5PERF_ERR_LIB_H
#define H5PERF_ERR_LIB_H

#include <stdint.h>

#include "base/err.h"

/* err_set() with MPI_Error_string(mpi_code) as text; marks `exists` for
 * MPI_ERR_FILE_EXISTS. Returns -1. */
int err_mpi(struct err *e, const char *op, const char *path, int64_t offset, int64_t length,
            int mpi_code);

/* err_set() with the innermost message of the current HDF5 error stack as
 * text (the stack is then cleared); marks `exists` when that message says
 * the file exists (MPI_ERR_FILE_EXISTS, EEXIST). Call it before any other
 * HDF5 API call (even H5Pclose or H5Sclose): those clear the stack. Returns
 * -1. */
int err_hdf5(struct err *e, const char *op, const char *path, int64_t offset, int64_t length);

/* err_hdf5() with printf-style context before the HDF5 text: "<context>:
 * <innermost message>". Returns -1. */
int err_hdf5_ctx(struct err *e, const char *op, const char *path, int64_t offset, int64_t length,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#endif
