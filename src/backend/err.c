/* Filling and formatting error records (err.h). Turns errno, MPI error codes
 * and the HDF5 error stack into one line of text. Never prints or exits. */
#include "backend/err.h"

#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <hdf5.h>

void err_clear(struct err *e)
{
    memset(e, 0, sizeof *e);
    e->offset = -1;
    e->length = -1;
}

static void err_where(struct err *e, const char *api, const char *op, const char *path,
                      int64_t offset, int64_t length)
{
    e->set = true;
    snprintf(e->api, sizeof e->api, "%s", api);
    snprintf(e->op, sizeof e->op, "%s", op);
    snprintf(e->path, sizeof e->path, "%s", path ? path : "");
    e->offset = offset;
    e->length = length;
}

/* Keeps the text on one line: MPICH's error strings hold newlines. */
static void err_one_line(char *text)
{
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < ' ' || *c == 0x7f)
            *c = ' ';
}

int err_set(struct err *e, const char *api, const char *op, const char *path, int64_t offset,
            int64_t length, const char *fmt, ...)
{
    if (e->set)
        return -1;
    err_where(e, api, op, path, offset, length);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
    err_one_line(e->text);
    return -1;
}

int err_errno(struct err *e, const char *api, const char *op, const char *path, int64_t offset,
              int64_t length, int errnum)
{
    if (e->set)
        return -1;
    err_set(e, api, op, path, offset, length, "%s", strerror(errnum));
    e->exists = errnum == EEXIST;
    return -1;
}

int err_mpi(struct err *e, const char *op, const char *path, int64_t offset, int64_t length,
            int mpi_code)
{
    if (e->set)
        return -1;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0;
    if (MPI_Error_string(mpi_code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error code %d", mpi_code);
    err_set(e, "MPI-IO", op, path, offset, length, "%s", text);
    if (MPI_Error_class(mpi_code, &cls) == MPI_SUCCESS)
        e->exists = cls == MPI_ERR_FILE_EXISTS;
    return -1;
}

/* H5Ewalk2 callback: the walk goes from the innermost error outwards, so the
 * first message seen is the most specific one. */
static herr_t err_hdf5_walk(unsigned n, const H5E_error2_t *desc, void *data)
{
    char *text = data;
    if (n == 0 && desc->desc)
        snprintf(text, ERR_TEXT_MAX, "%s (%s)", desc->desc,
                 desc->func_name ? desc->func_name : "?");
    return 0;
}

/* The innermost message of the HDF5 error stack (then cleared) in text. True
 * if it says that the file exists: the MPI-IO driver passes on the MPI
 * string ("MPI_ERR_FILE_EXISTS: file exists alreay" from Open MPI, "File
 * exists, error stack: ..." from MPICH), other drivers strerror(EEXIST).
 * "exists", not "exist": "object 'Dataset_1' doesn't exist" is no such case. */
static bool err_hdf5_take(char *text)
{
    snprintf(text, ERR_TEXT_MAX, "unknown HDF5 error");
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, err_hdf5_walk, text);
    H5Eclear2(H5E_DEFAULT);
    return strstr(text, "exists") != NULL || strstr(text, "EEXIST") != NULL;
}

int err_hdf5(struct err *e, const char *op, const char *path, int64_t offset, int64_t length)
{
    char text[ERR_TEXT_MAX];
    bool exists = err_hdf5_take(text);
    if (e->set)
        return -1;
    err_set(e, "HDF5", op, path, offset, length, "%s", text);
    e->exists = exists;
    return -1;
}

int err_hdf5_ctx(struct err *e, const char *op, const char *path, int64_t offset, int64_t length,
                 const char *fmt, ...)
{
    char text[ERR_TEXT_MAX], context[ERR_TEXT_MAX];
    bool exists = err_hdf5_take(text);
    if (e->set)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(context, sizeof context, fmt, ap);
    va_end(ap);
    err_set(e, "HDF5", op, path, offset, length, "%s: %s", context, text);
    e->exists = exists;
    return -1;
}

/* err_format()'s line, plus a newline a caller may add, fits in ERR_LINE_MAX
 * bytes whatever the fields hold: the fixed words and the rank, each field
 * (sizes count their NULs, which pay for the separators), the longest
 * " at offset <int64>, length <int64>" (58 characters). */
#define ERR_WHERE_MAX 64
_Static_assert(ERR_LINE_MAX >= sizeof "h5perf: rank -2147483648: '': \n" +
                                   sizeof((struct err *)0)->api + sizeof((struct err *)0)->op +
                                   sizeof((struct err *)0)->path + ERR_WHERE_MAX +
                                   sizeof((struct err *)0)->text,
               "ERR_LINE_MAX is too small for err_format()");

void err_format(const struct err *e, int rank, char *buf, size_t len)
{
    char where[ERR_WHERE_MAX] = "";
    if (e->offset >= 0 && e->length >= 0)
        snprintf(where, sizeof where, " at offset %" PRId64 ", length %" PRId64, e->offset,
                 e->length);
    else if (e->offset >= 0)
        snprintf(where, sizeof where, " at offset %" PRId64, e->offset);
    if (e->path[0])
        snprintf(buf, len, "h5perf: rank %d: %s %s '%s'%s: %s", rank, e->api, e->op, e->path, where,
                 e->text);
    else
        snprintf(buf, len, "h5perf: rank %d: %s %s%s: %s", rank, e->api, e->op, where, e->text);
}
