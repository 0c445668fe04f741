/* Filling and formatting error records (err.h): printf-style text and
 * errno into one line. Never prints or exits; no library call (the MPI and
 * HDF5 texts: backend/err_lib.c). */
#include "base/err.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
