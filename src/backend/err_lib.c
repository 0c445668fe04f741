/* An error record's text from a library (err_lib.h): MPI error codes and
 * the HDF5 error stack turned into one line. Never prints or exits. */
#include "backend/err_lib.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <hdf5.h>

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
