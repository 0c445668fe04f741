/* input.h: files a pattern reads before any data file exists. HDF5 files
 * are opened with the default (serial) driver and netCDF files through
 * PnetCDF on MPI_COMM_SELF, so that process 0 reads them alone; their
 * errors become one line each. Nothing here writes. */
#include "engine/input.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/err_lib.h"

#ifdef H5PERF_HAVE_PNETCDF
#include <pnetcdf.h>
#endif

#define INPUT_SIGNATURE_BYTES 8

/* The HDF5 library's innermost message (its stack then cleared). */
static int input_hdf5_fail(const char *what, char *why, size_t wlen)
{
    struct err e;
    err_clear(&e);
    err_hdf5(&e, what, "", -1, -1);
    snprintf(why, wlen, "%s: %s", what, e.text);
    return -1;
}

/* HDF5 files carry their signature at byte 0, or at 512, 1024, 2048...
 * after a user block. */
static bool input_is_hdf5(FILE *f, int64_t size)
{
    static const unsigned char sig[INPUT_SIGNATURE_BYTES] = {0x89, 'H',  'D',  'F',
                                                             '\r', '\n', 0x1a, '\n'};
    unsigned char b[INPUT_SIGNATURE_BYTES];
    for (int64_t at = 0; at + INPUT_SIGNATURE_BYTES <= size; at = at ? at * 2 : 512)
        if (fseeko(f, (off_t)at, SEEK_SET) == 0 && fread(b, 1, sizeof b, f) == sizeof b &&
            memcmp(b, sig, sizeof sig) == 0)
            return true;
    return false;
}

int input_open_regular(const char *path, struct stat *st, char *why, size_t wlen)
{
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, wlen, "%s", strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        snprintf(why, wlen, "is not a regular file");
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        snprintf(why, wlen, "%s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

FILE *input_fopen(const char *path, struct stat *st, char *why, size_t wlen)
{
    int fd = input_open_regular(path, st, why, wlen);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (fd >= 0 && !f) {
        snprintf(why, wlen, "%s", strerror(errno));
        close(fd);
    }
    return f;
}

static int input_kind(void *ctx, const char *path, enum pattern_file_kind *out, char *why,
                      size_t wlen)
{
    (void)ctx;
    struct stat st;
    FILE *f = input_fopen(path, &st, why, wlen);
    if (!f)
        return -1;
    unsigned char b[4] = {0, 0, 0, 0};
    size_t n = fread(b, 1, sizeof b, f);
    *out = PATTERN_FILE_TEXT;
    if (n == 4 && memcmp(b, "CDF", 3) == 0 && (b[3] == 1 || b[3] == 2 || b[3] == 5))
        *out = PATTERN_FILE_NETCDF;
    else if (input_is_hdf5(f, (int64_t)st.st_size))
        *out = PATTERN_FILE_HDF5;
    fclose(f);
    return 0;
}

static int input_size(void *ctx, const char *path, int64_t *out, char *why, size_t wlen)
{
    (void)ctx;
    struct stat st;
    int fd = input_open_regular(path, &st, why, wlen);
    if (fd < 0)
        return -1;
    close(fd);
    *out = (int64_t)st.st_size;
    return 0;
}

static int input_read(void *ctx, const char *path, unsigned char **data, size_t *len, char *why,
                      size_t wlen)
{
    (void)ctx;
    *data = NULL;
    *len = 0;
    struct stat st;
    FILE *f = input_fopen(path, &st, why, wlen);
    if (!f)
        return -1;
    size_t size = (size_t)st.st_size;
    unsigned char *buf = malloc(size + 1);
    if (!buf || fread(buf, 1, size, f) != size || ferror(f)) {
        snprintf(why, wlen, "%s",
                 buf ? "cannot be read (it changed while being read?)"
                     : "out of memory for its bytes");
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[size] = '\0';
    *data = buf;
    *len = size;
    return 0;
}

/* --- HDF5 ---------------------------------------------------------------- */

static int input_h5_open(struct input_ctx *c, const char *path, char *why, size_t wlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return input_hdf5_fail("open", why, wlen);
    c->hid = f;
    return 0;
}

/* An integer attribute of the root group, or a 1D integer dataset: its
 * number of values (1 if absent). */
static int input_h5_len(struct input_ctx *c, const char *name, bool att, int64_t *len, char *why,
                        size_t wlen)
{
    htri_t there =
        att ? H5Aexists((hid_t)c->hid, name) : H5Lexists((hid_t)c->hid, name, H5P_DEFAULT);
    if (there < 0)
        return input_hdf5_fail(att ? "attribute" : "dataset", why, wlen);
    if (!there)
        return 1;
    hid_t obj = att ? H5Aopen((hid_t)c->hid, name, H5P_DEFAULT)
                    : H5Dopen2((hid_t)c->hid, name, H5P_DEFAULT);
    if (obj < 0)
        return input_hdf5_fail(att ? "open attribute" : "open dataset", why, wlen);
    hid_t space = att ? H5Aget_space(obj) : H5Dget_space(obj);
    hid_t type = att ? H5Aget_type(obj) : H5Dget_type(obj);
    int ndims = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    hssize_t n = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    bool integer = type >= 0 && H5Tget_class(type) == H5T_INTEGER;
    if (type >= 0)
        H5Tclose(type);
    if (space >= 0)
        H5Sclose(space);
    if (att)
        H5Aclose(obj);
    else
        H5Dclose(obj);
    if (ndims < 0 || n < 0)
        return input_hdf5_fail("dataspace", why, wlen);
    if (!integer || ndims > 1 || (!att && ndims != 1)) {
        snprintf(why, wlen, "is not %s of integers", att ? "an attribute" : "a 1D dataset");
        return -1;
    }
    *len = (int64_t)n;
    return 0;
}

static int input_h5_values(struct input_ctx *c, const char *name, bool att, int64_t *vals,
                           char *why, size_t wlen)
{
    hid_t obj = att ? H5Aopen((hid_t)c->hid, name, H5P_DEFAULT)
                    : H5Dopen2((hid_t)c->hid, name, H5P_DEFAULT);
    if (obj < 0)
        return input_hdf5_fail(att ? "open attribute" : "open dataset", why, wlen);
    herr_t rc = att ? H5Aread(obj, H5T_NATIVE_INT64, vals)
                    : H5Dread(obj, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals);
    if (rc < 0)
        input_hdf5_fail("read", why, wlen);
    if (att)
        H5Aclose(obj);
    else
        H5Dclose(obj);
    return rc < 0 ? -1 : 0;
}

/* --- netCDF (PnetCDF) ---------------------------------------------------- */

#ifdef H5PERF_HAVE_PNETCDF
static int input_nc_fail(int status, char *why, size_t wlen)
{
    snprintf(why, wlen, "%s", ncmpi_strerror(status));
    return -1;
}

static bool input_nc_integer(nc_type t)
{
    return t == NC_BYTE || t == NC_SHORT || t == NC_INT || t == NC_UBYTE || t == NC_USHORT ||
           t == NC_UINT || t == NC_INT64 || t == NC_UINT64;
}

/* The variable name: its id, after checking it is 1D of integers, and its
 * length (1 if absent). */
static int input_nc_var(int ncid, const char *name, int *varid, int64_t *len, char *why,
                        size_t wlen)
{
    int rc = ncmpi_inq_varid(ncid, name, varid), ndims = 0, dimid = 0;
    nc_type type = NC_NAT;
    MPI_Offset n = 0;
    if (rc == NC_ENOTVAR)
        return 1;
    if (rc == NC_NOERR)
        rc = ncmpi_inq_varndims(ncid, *varid, &ndims);
    if (rc == NC_NOERR)
        rc = ncmpi_inq_vartype(ncid, *varid, &type);
    if (rc != NC_NOERR)
        return input_nc_fail(rc, why, wlen);
    if (ndims != 1 || !input_nc_integer(type)) {
        snprintf(why, wlen, "is not a 1D variable of integers");
        return -1;
    }
    if ((rc = ncmpi_inq_vardimid(ncid, *varid, &dimid)) != NC_NOERR ||
        (rc = ncmpi_inq_dimlen(ncid, dimid, &n)) != NC_NOERR)
        return input_nc_fail(rc, why, wlen);
    *len = (int64_t)n;
    return 0;
}
#endif

/* --- the lent functions -------------------------------------------------- */

static int input_open(void *ctx, const char *path, enum pattern_file_kind kind, char *why,
                      size_t wlen)
{
    struct input_ctx *c = ctx;
    c->kind = kind;
    c->hid = -1;
    c->ncid = -1;
    struct stat st;
    int fd = input_open_regular(path, &st, why, wlen);
    if (fd < 0)
        return -1;
    close(fd);
    if (kind == PATTERN_FILE_HDF5)
        return input_h5_open(c, path, why, wlen);
#ifdef H5PERF_HAVE_PNETCDF
    if (kind == PATTERN_FILE_NETCDF) {
        int rc = ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, &c->ncid);
        if (rc != NC_NOERR) {
            c->ncid = -1;
            return input_nc_fail(rc, why, wlen);
        }
        return 0;
    }
    snprintf(why, wlen, "is not an HDF5 or netCDF file");
#else
    snprintf(why, wlen, "%s",
             kind == PATTERN_FILE_NETCDF
                 ? "is a netCDF file, and this h5perf is built without PnetCDF, which reads them"
                 : "is not an HDF5 or netCDF file");
#endif
    return -1;
}

static void input_close(void *ctx)
{
    struct input_ctx *c = ctx;
    if (c->hid >= 0)
        H5Fclose((hid_t)c->hid);
#ifdef H5PERF_HAVE_PNETCDF
    if (c->ncid >= 0)
        ncmpi_close(c->ncid);
#endif
    c->hid = -1;
    c->ncid = -1;
}

static int input_dim(void *ctx, const char *name, int64_t *len, char *why, size_t wlen)
{
    struct input_ctx *c = ctx;
    (void)name, (void)len, (void)why, (void)wlen;
#ifdef H5PERF_HAVE_PNETCDF
    if (c->ncid >= 0) {
        int dimid = 0, rc = ncmpi_inq_dimid(c->ncid, name, &dimid);
        MPI_Offset n = 0;
        if (rc == NC_EBADDIM)
            return 1;
        if (rc == NC_NOERR)
            rc = ncmpi_inq_dimlen(c->ncid, dimid, &n);
        *len = (int64_t)n;
        return rc == NC_NOERR ? 0 : input_nc_fail(rc, why, wlen);
    }
#endif
    (void)c;
    return 1;
}

#ifdef H5PERF_HAVE_PNETCDF
/* A netCDF attribute of the file: its values into *all (malloc'd). */
static int input_nc_att(int ncid, const char *name, int64_t **all, int64_t *len, char *why,
                        size_t wlen)
{
    nc_type type = NC_NAT;
    MPI_Offset n = 0;
    int st = ncmpi_inq_att(ncid, NC_GLOBAL, name, &type, &n);
    if (st == NC_ENOTATT)
        return 1;
    if (st != NC_NOERR)
        return input_nc_fail(st, why, wlen);
    if (!input_nc_integer(type)) {
        snprintf(why, wlen, "is not an attribute of integers");
        return -1;
    }
    long long *ll = malloc((size_t)(n > 0 ? n : 1) * sizeof *ll);
    *all = malloc((size_t)(n > 0 ? n : 1) * sizeof **all);
    st = ll && *all ? ncmpi_get_att_longlong(ncid, NC_GLOBAL, name, ll) : NC_ENOMEM;
    for (MPI_Offset i = 0; st == NC_NOERR && i < n; i++)
        (*all)[i] = (int64_t)ll[i];
    free(ll);
    *len = (int64_t)n;
    return st == NC_NOERR ? 0 : input_nc_fail(st, why, wlen);
}
#endif

static int input_att(void *ctx, const char *name, int64_t *vals, int max, int *n, char *why,
                     size_t wlen)
{
    struct input_ctx *c = ctx;
    int64_t len = 0, *all = NULL;
    int rc = 1;
    *n = 0;
    if (c->hid >= 0 && (rc = input_h5_len(c, name, true, &len, why, wlen)) == 0) {
        all = malloc((size_t)(len > 0 ? len : 1) * sizeof *all);
        rc = all ? input_h5_values(c, name, true, all, why, wlen)
                 : (snprintf(why, wlen, "out of memory"), -1);
    }
#ifdef H5PERF_HAVE_PNETCDF
    if (c->ncid >= 0)
        rc = input_nc_att(c->ncid, name, &all, &len, why, wlen);
#endif
    for (int64_t i = 0; rc == 0 && i < len && i < max; i++)
        vals[i] = all[i];
    if (rc == 0)
        *n = len < (1 << 30) ? (int)len : 1 << 30;
    free(all);
    return rc;
}

static int input_var(void *ctx, const char *name, int64_t *len, char *why, size_t wlen)
{
    struct input_ctx *c = ctx;
    if (c->hid >= 0)
        return input_h5_len(c, name, false, len, why, wlen);
#ifdef H5PERF_HAVE_PNETCDF
    int varid = 0;
    if (c->ncid >= 0)
        return input_nc_var(c->ncid, name, &varid, len, why, wlen);
#endif
    return 1;
}

/* Values [start, start + n) of the 1D dataset name: a hyperslab of it. */
static int input_h5_range(struct input_ctx *c, const char *name, int64_t start, int64_t n,
                          int64_t *vals, char *why, size_t wlen)
{
    hid_t d = H5Dopen2((hid_t)c->hid, name, H5P_DEFAULT);
    if (d < 0)
        return input_hdf5_fail("open dataset", why, wlen);
    hsize_t at = (hsize_t)start, count = (hsize_t)n;
    hid_t file = H5Dget_space(d), mem = H5Screate_simple(1, &count, NULL);
    herr_t rc = file >= 0 && mem >= 0 ? 0 : -1;
    if (rc == 0)
        rc = H5Sselect_hyperslab(file, H5S_SELECT_SET, &at, NULL, &count, NULL);
    if (rc >= 0)
        rc = H5Dread(d, H5T_NATIVE_INT64, mem, file, H5P_DEFAULT, vals);
    if (rc < 0)
        input_hdf5_fail("read", why, wlen);
    if (mem >= 0)
        H5Sclose(mem);
    if (file >= 0)
        H5Sclose(file);
    H5Dclose(d);
    return rc < 0 ? -1 : 0;
}

static int input_var_range(void *ctx, const char *name, int64_t start, int64_t n, int64_t *vals,
                           char *why, size_t wlen)
{
    struct input_ctx *c = ctx;
    int64_t len = 0;
    int rc = input_var(ctx, name, &len, why, wlen);
    if (rc == 0 && (start < 0 || n < 0 || start > len || n > len - start)) {
        snprintf(why, wlen, "has %lld values, not %lld from %lld", (long long)len, (long long)n,
                 (long long)start);
        return -1;
    }
    if (rc != 0)
        return rc < 0 ? -1 : (snprintf(why, wlen, "is not there"), -1);
    if (n == 0)
        return 0;
    if (c->hid >= 0)
        return input_h5_range(c, name, start, n, vals, why, wlen);
#ifdef H5PERF_HAVE_PNETCDF
    int varid = 0;
    MPI_Offset from = (MPI_Offset)start, count = (MPI_Offset)n;
    long long *ll = malloc((size_t)n * sizeof *ll);
    rc = ll ? ncmpi_inq_varid(c->ncid, name, &varid) : NC_ENOMEM;
    if (rc == NC_NOERR)
        rc = ncmpi_get_vara_longlong_all(c->ncid, varid, &from, &count, ll);
    for (int64_t i = 0; rc == NC_NOERR && i < n; i++)
        vals[i] = (int64_t)ll[i];
    free(ll);
    return rc == NC_NOERR ? 0 : input_nc_fail(rc, why, wlen);
#else
    return -1;
#endif
}

/* The whole variable: its range from 0, once its length is n. */
static int input_var_read(void *ctx, const char *name, int64_t *vals, int64_t n, char *why,
                          size_t wlen)
{
    int64_t len = 0;
    int rc = input_var(ctx, name, &len, why, wlen);
    if (rc == 0 && len != n) {
        snprintf(why, wlen, "has %lld values, not %lld", (long long)len, (long long)n);
        return -1;
    }
    if (rc != 0)
        return rc < 0 ? -1 : (snprintf(why, wlen, "is not there"), -1);
    return input_var_range(ctx, name, 0, n, vals, why, wlen);
}

void input_files(struct pattern_files *files, struct input_ctx *ctx)
{
    *ctx = (struct input_ctx){PATTERN_FILE_TEXT, -1, -1, MPI_COMM_NULL, 0, -1, false, NULL, 0, 0};
    *files = (struct pattern_files){.ctx = ctx,
                                    .memory = -1,
                                    .memory_where = "",
                                    .size = input_size,
                                    .kind = input_kind,
                                    .read = input_read,
                                    .open = input_open,
                                    .close = input_close,
                                    .dim = input_dim,
                                    .att = input_att,
                                    .var = input_var,
                                    .var_read = input_var_read,
                                    .var_range = input_var_range};
}
