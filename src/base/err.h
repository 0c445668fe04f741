/* The error record of one process: what failed, where, and the system or
 * library text. The first error wins; later ones are ignored. Functions that
 * fail return err_*(...), which is -1. Nothing here prints or exits; the
 * backends fill records from MPI and HDF5 errors through backend/err_lib.h,
 * the engine keeps, agrees on and prints them. */
#ifndef H5PERF_ERR_H
#define H5PERF_ERR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest path an error record keeps (the engine's SETUP_PATH_MAX). */
#define ERR_PATH_MAX 4096
/* Longest system or library text kept. */
#define ERR_TEXT_MAX 320
/* Size of the buffer err_format() needs so that no line is truncated (the
 * path plus the other fields and the fixed words), with room for a newline
 * the caller appends; checked at compile time in err.c. */
#define ERR_LINE_MAX (ERR_PATH_MAX + 512)

struct err {
    bool set;
    bool exists;             /* a create failed because a file this run did not create is there
                                (exclusive create; POSIX: also a symbolic link) */
    char api[16];            /* "POSIX", "MPI-IO", "HDF5", "h5perf" */
    char op[48];             /* "create", "write", "read", "close", "verify" ... */
    char path[ERR_PATH_MAX]; /* file concerned, "" if none */
    int64_t offset;          /* file offset, -1 if not applicable */
    int64_t length;          /* bytes asked for, -1 if not applicable */
    char text[ERR_TEXT_MAX]; /* system or library text, on one line */
};

void err_clear(struct err *e);

/* Records an error with printf-style text. Returns -1. */
int err_set(struct err *e, const char *api, const char *op, const char *path, int64_t offset,
            int64_t length, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* The same with strerror(errnum) as text. Returns -1. */
int err_errno(struct err *e, const char *api, const char *op, const char *path, int64_t offset,
              int64_t length, int errnum);

/* One line (no newline) describing e as seen by world rank `rank`:
 * "h5perf: rank 1: POSIX write '/d/#pio_tmp_1.posix' at offset 8192, length
 * 4096: No space left on device". A buffer of ERR_LINE_MAX bytes (len)
 * always holds the whole line and a newline; a shorter one truncates it. */
void err_format(const struct err *e, int rank, char *buf, size_t len);

#endif
