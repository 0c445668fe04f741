/* What a PnetCDF file holds, read back by one process alone: whether a
 * kept file can be the source of a read-only run (its variables, types,
 * shapes, and all its data present), and where a written file's data end
 * (the size check after the write phase: docs/pnetcdf.md); and the netCDF
 * type of a run's variable, which the transfers use too. Part of the
 * PnetCDF backend (pnetcdf.c); must not print, time or exit. */
#include "backend/pnetcdf.h"

#include <stdio.h>
#include <sys/stat.h>

/* The file's type of a variable and the memory type of its elements
 * (docs/pnetcdf.md). The buffer is little-endian, the host's order on the
 * machines h5perf is tested on; PnetCDF converts to the file's big-endian
 * order. */
nc_type pncdf_type(const struct plan_var *v, MPI_Datatype *mem)
{
    if (v->kind == PLAN_FLOAT) {
        *mem = MPI_FLOAT;
        return NC_FLOAT;
    }
    if (v->kind == PLAN_SIGNED) {
        *mem = MPI_INT;
        return NC_INT;
    }
    switch (v->elem) {
    case 2:
        *mem = MPI_UNSIGNED_SHORT;
        return NC_USHORT;
    case 4:
        *mem = MPI_UNSIGNED;
        return NC_UINT;
    case 8:
        *mem = MPI_UNSIGNED_LONG_LONG;
        return NC_UINT64;
    default:
        *mem = MPI_UNSIGNED_CHAR;
        return NC_UBYTE;
    }
}

/* Variable varid's type and shape: nd dimensions (1 to MODEL_MAX_DIMS; the
 * ids are asked for only once their number fits, PnetCDF's NC_MAX_VAR_DIMS
 * being INT_MAX) of dims elements. Returns a PnetCDF status. */
static int pncdf_var_shape(int ncid, int varid, nc_type *type, int *nd,
                           MPI_Offset dims[MODEL_MAX_DIMS])
{
    int dimids[MODEL_MAX_DIMS];
    int rc = ncmpi_inq_var(ncid, varid, NULL, type, nd, NULL, NULL);
    if (rc == NC_NOERR && (*nd < 1 || *nd > MODEL_MAX_DIMS))
        rc = NC_EMAXDIMS;
    if (rc == NC_NOERR)
        rc = ncmpi_inq_vardimid(ncid, varid, dimids);
    for (int d = 0; rc == NC_NOERR && d < *nd; d++)
        rc = ncmpi_inq_dimlen(ncid, dimids[d], &dims[d]);
    return rc;
}

/* Whether variable varid of an open file holds what variable v of the run
 * reads: its type, and its shape (the guide reads a prefix of a larger
 * kept file; the application patterns the array they would have written). */
static int pncdf_check_var(int ncid, int varid, const struct plan_var *v, bool exact, char *why,
                           size_t len)
{
    nc_type type;
    int nd = 0;
    MPI_Offset dims[MODEL_MAX_DIMS];
    MPI_Datatype mem;
    bool bad = pncdf_var_shape(ncid, varid, &type, &nd, dims) != NC_NOERR || nd != v->ndims;
    for (int i = 0; !bad && i < nd; i++)
        bad = exact ? dims[i] != v->dims[i] : dims[i] < v->dims[i];
    if (bad) {
        char need[96];
        plan_var_dims_text(v, need, sizeof need);
        snprintf(why, len, "has a variable '%s' %s the %s elements this run reads",
                 plan_var_leaf(v), exact ? "that is not" : "smaller than", need);
        return -1;
    }
    if (type != pncdf_type(v, &mem)) {
        snprintf(why, len, "has a variable '%s' whose elements are not of the type this run reads",
                 plan_var_leaf(v));
        return -1;
    }
    return 0;
}

/* The bytes of an element of a netCDF type in the file; 0 if unknown. */
static MPI_Offset pncdf_type_size(nc_type type)
{
    switch (type) {
    case NC_BYTE:
    case NC_CHAR:
    case NC_UBYTE:
        return 1;
    case NC_SHORT:
    case NC_USHORT:
        return 2;
    case NC_INT:
    case NC_UINT:
    case NC_FLOAT:
        return 4;
    case NC_DOUBLE:
    case NC_INT64:
    case NC_UINT64:
        return 8;
    default:
        return 0;
    }
}

/* The end of the last variable with data of the open file ncid: with
 * NC_NOFILL only the writes reach it, so a file that ends before lost
 * some, or was cut short. Returns a PnetCDF status. */
static int pncdf_data_end(int ncid, int64_t *end)
{
    int nvars = 0, rc = ncmpi_inq_nvars(ncid, &nvars);
    *end = 0;
    for (int v = 0; rc == NC_NOERR && v < nvars; v++) {
        nc_type type;
        int nd = 0;
        MPI_Offset dims[MODEL_MAX_DIMS], begin = 0, n = 1, elem = 0;
        rc = pncdf_var_shape(ncid, v, &type, &nd, dims);
        for (int d = 0; rc == NC_NOERR && d < nd; d++)
            n *= dims[d];
        if (rc == NC_NOERR)
            rc = ncmpi_inq_varoffset(ncid, v, &begin);
        if (rc == NC_NOERR && (elem = pncdf_type_size(type)) == 0)
            rc = NC_EBADTYPE;
        if (rc == NC_NOERR && n > 0 && begin + n * elem > *end)
            *end = begin + n * elem;
    }
    return rc;
}

int64_t pncdf_written_end(const char *path, char *why, size_t len)
{
    int ncid, rc = ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, &ncid);
    if (rc != NC_NOERR) {
        snprintf(why, len, "is not a readable netCDF file after the write phase: %s",
                 ncmpi_strerror(rc));
        return -1;
    }
    int64_t end = 0;
    rc = pncdf_data_end(ncid, &end);
    ncmpi_close(ncid);
    if (rc != NC_NOERR) {
        snprintf(why, len, "has a header h5perf cannot read after the write phase: %s",
                 ncmpi_strerror(rc));
        return -1;
    }
    return end;
}

/* Local: opens the file alone and checks that it holds all its data and
 * every variable the run reads. */
int pncdf_check_source(const char *path, const struct plan *plan, char *why, size_t len)
{
    int ncid;
    if (ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, &ncid) != NC_NOERR) {
        snprintf(why, len, "is not a readable netCDF file");
        return -1;
    }
    int rc = 0;
    int64_t end = 0;
    struct stat st;
    /* A file cut short still opens (its header is whole); NC_NOFILL left
     * nothing of the missing data, which would read as zeros. The last
     * variable's elements that no process writes (a map's) are not in the
     * file either (plan.h, unwritten_tail). */
    bool read = pncdf_data_end(ncid, &end) == NC_NOERR;
    end -= plan->unwritten_tail;
    if (!read) {
        snprintf(why, len, "has a header h5perf cannot read");
        rc = -1;
    } else if (stat(path, &st) != 0 || st.st_size < end) {
        snprintf(why, len, "holds %lld bytes, fewer than the %lld its variables end at",
                 (long long)st.st_size, (long long)end);
        rc = -1;
    }
    for (int d = 0; rc == 0 && d < plan->nvars; d++) {
        struct plan_var v;
        int varid;
        plan_var(plan, d, &v);
        if (ncmpi_inq_varid(ncid, plan_var_leaf(&v), &varid) != NC_NOERR) {
            snprintf(why, len, "has no variable '%s'", plan_var_leaf(&v));
            rc = -1;
        } else {
            rc = pncdf_check_var(ncid, varid, &v, plan->exact_source, why, len);
        }
    }
    ncmpi_close(ncid);
    return rc;
}
