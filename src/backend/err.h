/* The error record of one process: what failed, where, and the system or
 * library text. The first error wins; later ones are ignored. Functions that
 * fail return err_*(...), which is -1. Nothing here prints or exits. */
#ifndef H5PERF_ERR_H
#define H5PERF_ERR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct err {
    bool set;
    bool exists;     /* an exclusive create failed because the file exists */
    char api[16];    /* "POSIX", "MPI-IO", "HDF5", "h5perf" */
    char op[48];     /* "create", "write", "read", "close", "verify" ... */
    char path[1024]; /* file concerned, "" if none */
    int64_t offset;  /* file offset, -1 if not applicable */
    int64_t length;  /* bytes asked for, -1 if not applicable */
    char text[320];  /* system or library text */
};

void err_clear(struct err *e);

/* Records an error with printf-style text. Returns -1. */
int err_set(struct err *e, const char *api, const char *op, const char *path, int64_t offset,
            int64_t length, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* The same with strerror(errnum) as text. Returns -1. */
int err_errno(struct err *e, const char *api, const char *op, const char *path, int64_t offset,
              int64_t length, int errnum);

/* The same with MPI_Error_string(mpi_code) as text; marks `exists` for
 * MPI_ERR_FILE_EXISTS. Returns -1. */
int err_mpi(struct err *e, const char *op, const char *path, int64_t offset, int64_t length,
            int mpi_code);

/* The same with the innermost message of the current HDF5 error stack as
 * text (the stack is then cleared). Returns -1. */
int err_hdf5(struct err *e, const char *op, const char *path, int64_t offset, int64_t length);

/* One line (no newline) describing e as seen by world rank `rank`:
 * "h5perf: rank 1: POSIX write '/d/#pio_tmp_1.posix' at offset 8192, length
 * 4096: No space left on device". */
void err_format(const struct err *e, int rank, char *buf, size_t len);

#endif
