/* PnetCDF backend (docs/pnetcdf.md): CDF-5 files of netCDF variables of the
 * plan's shape, named like the HDF5 datasets (Dataset_1.., v0.., and the
 * particles' x, y, ... without their group), all defined at the first
 * dataset of a written file; transfers by ncmpi_put_vara/get_vara (the
 * guide's interleaved 1D blocks by the varn calls), independent data mode or
 * the collective _all calls (-C). Must not print, time or exit. */
#include "backend/backend.h"

#include <inttypes.h>
#include <limits.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/particles.h"

struct backend_file {
    int ncid;
    bool open;    /* ncid is an open file */
    bool defined; /* out of define mode (a read, or after the first dataset) */
    bool indep;   /* in independent data mode */
    bool collective, sync;
    enum backend_mode mode;
    const char *path;
    int num_dsets;
    MPI_Info info; /* a copy of the run's hints with PnetCDF's alignment, or MPI_INFO_NULL */
    const struct pattern *pt;
    int dset_no, varid;
    MPI_Datatype mtype;
    /* Transfer 0's subarrays: npieces, each of ndims starts and counts; a
     * transfer moves them by pattern_slab_offset(). */
    int npieces;
    MPI_Offset *starts, *counts, **start_ptrs, **count_ptrs;
    MPI_Offset nelems; /* elements per transfer */
};

/* Records a PnetCDF status as one line. Returns -1. */
static int pncdf_err(struct err *e, const char *op, const char *path, int64_t length, int status)
{
    if (e->set)
        return -1;
    err_set(e, "PnetCDF", op, path, -1, length, "%s", ncmpi_strerror(status));
    e->exists = status == NC_EEXIST;
    return -1;
}

/* The file's type of dataset var and the memory type of its elements: the
 * guide's bytes, the block pattern's unsigned integers of the element
 * size, the particles' 32-bit floats and integers (docs/pnetcdf.md). The
 * buffer is little-endian, the host's order on the machines h5perf is
 * tested on; PnetCDF converts to the file's big-endian order. */
static nc_type pncdf_type(const struct pattern *pt, int var, MPI_Datatype *mem)
{
    if (pt->kind == PATTERN_PARTICLES) {
        bool is_int = particles_var_is_int(var);
        *mem = is_int ? MPI_INT : MPI_FLOAT;
        return is_int ? NC_INT : NC_FLOAT;
    }
    switch (pt->kind == PATTERN_GUIDE ? 1 : pt->elem) {
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

/* netCDF names may not hold '/': the particles' variables lose their HDF5
 * group (each iteration's file holds one time step). */
static void pncdf_name(const struct pattern *pt, int d, char *buf, size_t len)
{
    if (pt->kind == PATTERN_PARTICLES)
        snprintf(buf, len, "%s", particles_var_name(d));
    else
        pattern_dataset_name(pt, d, buf, len);
}

/* The run's hints, plus nc_var_align_size from -a when it asks for more
 * than PnetCDF's default placement (docs/pnetcdf.md). */
static int pncdf_hints(struct backend_file *f, const struct backend_ctx *ctx, struct err *e)
{
    f->info = MPI_INFO_NULL;
    if (f->mode != BACKEND_WRITE || ctx->set->align <= 1)
        return 0;
    char value[32];
    snprintf(value, sizeof value, "%" PRId64, ctx->set->align);
    int rc =
        ctx->info == MPI_INFO_NULL ? MPI_Info_create(&f->info) : MPI_Info_dup(ctx->info, &f->info);
    if (rc == MPI_SUCCESS)
        rc = MPI_Info_set(f->info, "nc_var_align_size", value);
    return rc == MPI_SUCCESS ? 0 : err_mpi(e, "hints", f->path, -1, -1, rc);
}

static int pncdf_close(struct backend_file *f, struct err *e);

static int pncdf_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                      enum backend_mode mode, bool may_truncate, struct err *e)
{
    *out = NULL;
    struct backend_file *f = calloc(1, sizeof *f);
    if (!f)
        return err_set(e, "PnetCDF", "open", path, -1, -1, "out of memory");
    f->mode = mode;
    f->path = path;
    f->collective = ctx->set->collective;
    f->sync = mode == BACKEND_WRITE && ctx->set->fsync;
    f->num_dsets = ctx->set->num_dsets;
    f->info = MPI_INFO_NULL;
    if (pncdf_hints(f, ctx, e) < 0) {
        pncdf_close(f, e);
        return -1;
    }
    MPI_Info info = f->info != MPI_INFO_NULL ? f->info : ctx->info;
    int rc;
    if (mode == BACKEND_WRITE)
        rc = ncmpi_create(ctx->comm, path,
                          NC_64BIT_DATA | (may_truncate ? NC_CLOBBER : NC_NOCLOBBER), info,
                          &f->ncid);
    else
        rc = ncmpi_open(ctx->comm, path, NC_NOWRITE, info, &f->ncid);
    f->open = rc == NC_NOERR;
    f->defined = f->open && mode == BACKEND_READ;
    if (rc == NC_NOERR && mode == BACKEND_WRITE)
        rc = ncmpi_set_fill(f->ncid, NC_NOFILL, NULL);
    if (rc == NC_NOERR && f->defined && !f->collective) {
        rc = ncmpi_begin_indep_data(f->ncid);
        f->indep = rc == NC_NOERR;
    }
    if (rc != NC_NOERR) {
        /* NC_EEXIST marks e->exists: MPI_File_open with MPI_MODE_EXCL fails
         * alike on every process. */
        pncdf_err(e, mode == BACKEND_WRITE ? "create" : "open", path, -1, rc);
        if (!f->open) {
            pncdf_close(f, e);
            return -1;
        }
        *out = f;
        return -1;
    }
    *out = f;
    return 0;
}

/* Collective: the file's dimensions and every variable, then data mode
 * (independent unless -C). netCDF defines a file's variables before any
 * data: defining them one by one would rewrite the header, and move the
 * data after it, at every dataset. */
static int pncdf_define(struct backend_file *f, const struct pattern *pt, struct err *e)
{
    const struct pattern_slab *s = &pt->slab;
    int dimids[MODEL_MAX_DIMS], rc = NC_NOERR;
    char name[64];
    for (int i = 0; rc == NC_NOERR && i < s->ndims; i++) {
        snprintf(name, sizeof name, "dim%d", i);
        rc = ncmpi_def_dim(f->ncid, name, (MPI_Offset)s->dims[i], &dimids[i]);
    }
    for (int v = 0; rc == NC_NOERR && v < f->num_dsets; v++) {
        MPI_Datatype mem;
        int varid;
        pncdf_name(pt, v, name, sizeof name);
        rc = ncmpi_def_var(f->ncid, name, pncdf_type(pt, v, &mem), s->ndims, dimids, &varid);
    }
    if (rc != NC_NOERR)
        return pncdf_err(e, "define variables", f->path, -1, rc);
    rc = ncmpi_enddef(f->ncid);
    f->defined = true;
    if (rc != NC_NOERR)
        return pncdf_err(e, "end define mode", f->path, -1, rc);
    if (!f->collective) {
        if ((rc = ncmpi_begin_indep_data(f->ncid)) != NC_NOERR)
            return pncdf_err(e, "begin independent data mode", f->path, -1, rc);
        f->indep = true;
    }
    return 0;
}

static void pncdf_free_pieces(struct backend_file *f)
{
    free(f->starts);
    free(f->counts);
    free(f->start_ptrs);
    free(f->count_ptrs);
    f->starts = f->counts = NULL;
    f->start_ptrs = f->count_ptrs = NULL;
    f->npieces = 0;
}

/* The hyperslab (start, stride, count, block) as subarrays: one, or in
 * dimension 0 one per block when the blocks are apart (the guide's 1D
 * interleaved pattern). pncdf_check() refused any other shape, so the
 * subarrays in order take the buffer in the order HDF5's selection does. */
static int pncdf_pieces(struct backend_file *f, struct err *e)
{
    const struct pattern_slab *s = &f->pt->slab;
    int n = s->ndims;
    bool split = s->count[0] > 1 && s->stride[0] != s->block[0];
    f->npieces = split ? (int)s->count[0] : 1;
    size_t cells = (size_t)f->npieces * (size_t)n;
    f->starts = calloc(cells, sizeof *f->starts);
    f->counts = calloc(cells, sizeof *f->counts);
    f->start_ptrs = calloc((size_t)f->npieces, sizeof *f->start_ptrs);
    f->count_ptrs = calloc((size_t)f->npieces, sizeof *f->count_ptrs);
    if (!f->starts || !f->counts || !f->start_ptrs || !f->count_ptrs)
        return err_set(e, "PnetCDF", "begin dataset", f->path, -1, -1, "out of memory");
    f->nelems = 1;
    for (int d = 0; d < n; d++)
        f->nelems *= s->count[d] * s->block[d];
    for (int p = 0; p < f->npieces; p++) {
        f->start_ptrs[p] = f->starts + (size_t)p * (size_t)n;
        f->count_ptrs[p] = f->counts + (size_t)p * (size_t)n;
        for (int d = 0; d < n; d++)
            f->count_ptrs[p][d] = d == 0 && split ? s->block[0] : s->count[d] * s->block[d];
    }
    return 0;
}

static int pncdf_dset_begin(struct backend_file *f, int dset, const struct pattern *pt,
                            struct err *e)
{
    char name[64];
    f->pt = pt;
    f->dset_no = dset;
    f->varid = -1;
    if (!f->defined && pncdf_define(f, pt, e) < 0)
        return -1;
    pncdf_name(pt, dset, name, sizeof name);
    pncdf_type(pt, dset, &f->mtype);
    int rc = ncmpi_inq_varid(f->ncid, name, &f->varid);
    if (rc != NC_NOERR)
        return pncdf_err(e, "find variable", f->path, -1, rc);
    return pncdf_pieces(f, e);
}

/* Records a failed transfer k: the variable and the first element of its
 * subarray, "transfer 3 of 'Dataset_1', 4096 bytes from element (8192): ". */
static int pncdf_transfer_fail(struct backend_file *f, int64_t k, int status, struct err *e)
{
    char name[64], at[96] = "";
    size_t used = 0;
    pncdf_name(f->pt, f->dset_no, name, sizeof name);
    for (int d = 0; d < f->pt->slab.ndims && used < sizeof at; d++)
        used += (size_t)snprintf(at + used, sizeof at - used, "%s%lld", d ? "," : "",
                                 (long long)f->starts[d]);
    return err_set(e, "PnetCDF", f->mode == BACKEND_WRITE ? "write" : "read", f->path, -1,
                   f->pt->xfer_bytes,
                   "transfer %" PRId64 " of '%s', %" PRId64 " bytes from element (%s): %s", k, name,
                   f->pt->xfer_bytes, at, ncmpi_strerror(status));
}

static int pncdf_transfer(struct backend_file *f, int64_t k, void *buf, struct err *e)
{
    const struct pattern_slab *s = &f->pt->slab;
    /* An empty variable (the file per process of a process without
     * particles, which no other process opens) has nothing to move. */
    if (model_product(s->ndims, s->dims) == 0)
        return 0;
    int64_t o[2] = {0, 0};
    pattern_slab_offset(f->pt, k, o);
    for (int p = 0; p < f->npieces; p++)
        for (int d = 0; d < s->ndims; d++)
            f->start_ptrs[p][d] =
                s->start[d] + (d < 2 ? o[d] : 0) + (d == 0 ? (int64_t)p * s->stride[0] : 0);
    int id = f->ncid, v = f->varid, rc;
    MPI_Offset n = f->nelems;
    if (f->mode == BACKEND_WRITE && f->npieces == 1)
        rc = f->collective ? ncmpi_put_vara_all(id, v, f->starts, f->counts, buf, n, f->mtype)
                           : ncmpi_put_vara(id, v, f->starts, f->counts, buf, n, f->mtype);
    else if (f->mode == BACKEND_WRITE)
        rc = f->collective ? ncmpi_put_varn_all(id, v, f->npieces, f->start_ptrs, f->count_ptrs,
                                                buf, n, f->mtype)
                           : ncmpi_put_varn(id, v, f->npieces, f->start_ptrs, f->count_ptrs, buf, n,
                                            f->mtype);
    else if (f->npieces == 1)
        rc = f->collective ? ncmpi_get_vara_all(id, v, f->starts, f->counts, buf, n, f->mtype)
                           : ncmpi_get_vara(id, v, f->starts, f->counts, buf, n, f->mtype);
    else
        rc = f->collective ? ncmpi_get_varn_all(id, v, f->npieces, f->start_ptrs, f->count_ptrs,
                                                buf, n, f->mtype)
                           : ncmpi_get_varn(id, v, f->npieces, f->start_ptrs, f->count_ptrs, buf, n,
                                            f->mtype);
    return rc == NC_NOERR ? 0 : pncdf_transfer_fail(f, k, rc, e);
}

static int pncdf_dset_end(struct backend_file *f, struct err *e)
{
    (void)e;
    pncdf_free_pieces(f);
    f->pt = NULL;
    f->varid = -1;
    return 0;
}

/* Collective over the file's processes: leaves independent mode, flushes
 * with --fsync (ncmpi_sync: MPI_File_sync), closes; a file still in define
 * mode (a failed first dataset) is ended by ncmpi_close itself. */
static int pncdf_close(struct backend_file *f, struct err *e)
{
    if (!f)
        return 0;
    int rc = 0, st;
    pncdf_free_pieces(f);
    if (f->open && f->indep && (st = ncmpi_end_indep_data(f->ncid)) != NC_NOERR)
        rc = pncdf_err(e, "end independent data mode", f->path, -1, st);
    if (f->open && f->sync && f->defined && (st = ncmpi_sync(f->ncid)) != NC_NOERR)
        rc = pncdf_err(e, "flush (--fsync)", f->path, -1, st);
    if (f->open && (st = ncmpi_close(f->ncid)) != NC_NOERR)
        rc = pncdf_err(e, "close", f->path, -1, st);
    if (f->info != MPI_INFO_NULL)
        MPI_Info_free(&f->info);
    free(f);
    return rc;
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

/* Whether variable varid of an open file holds what dataset d of pt reads:
 * its type, and its shape (the guide reads a prefix of a larger kept file;
 * the application patterns the array they would have written). */
static int pncdf_check_var(int ncid, int varid, const char *name, int d, const struct pattern *pt,
                           char *why, size_t len)
{
    nc_type type;
    int nd = 0;
    MPI_Offset dims[MODEL_MAX_DIMS];
    MPI_Datatype mem;
    bool exact = pt->kind != PATTERN_GUIDE;
    bool bad = pncdf_var_shape(ncid, varid, &type, &nd, dims) != NC_NOERR || nd != pt->slab.ndims;
    for (int i = 0; !bad && i < nd; i++)
        bad = exact ? dims[i] != pt->slab.dims[i] : dims[i] < pt->slab.dims[i];
    if (bad) {
        char need[96] = "";
        size_t used = 0;
        for (int i = 0; i < pt->slab.ndims && used < sizeof need; i++)
            used += (size_t)snprintf(need + used, sizeof need - used, "%s%lld", i ? "x" : "",
                                     (long long)pt->slab.dims[i]);
        snprintf(why, len, "has a variable '%s' %s the %s elements this run reads", name,
                 exact ? "that is not" : "smaller than", need);
        return -1;
    }
    if (type != pncdf_type(pt, d, &mem)) {
        snprintf(why, len, "has a variable '%s' whose elements are not of the type this run reads",
                 name);
        return -1;
    }
    return 0;
}

/* Local: opens the file alone and checks every variable. */
static int pncdf_check_source(const char *path, int num_dsets, const struct pattern *pt, char *why,
                              size_t len)
{
    int ncid;
    if (ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, &ncid) != NC_NOERR) {
        snprintf(why, len, "is not a readable netCDF file");
        return -1;
    }
    int rc = 0;
    for (int d = 0; rc == 0 && d < num_dsets; d++) {
        char name[64];
        int varid;
        pncdf_name(pt, d, name, sizeof name);
        if (ncmpi_inq_varid(ncid, name, &varid) != NC_NOERR) {
            snprintf(why, len, "has no variable '%s'", name);
            rc = -1;
        } else {
            rc = pncdf_check_var(ncid, varid, name, d, pt, why, len);
        }
    }
    ncmpi_close(ncid);
    return rc;
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

/* The end of the file's last variable with data: with NC_NOFILL only
 * the writes reach it, so a file that ends before lost some. */
static int64_t pncdf_written_end(const char *path, char *why, size_t len)
{
    int ncid, nvars = 0, rc = ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, &ncid);
    if (rc != NC_NOERR) {
        snprintf(why, len, "is not a readable netCDF file after the write phase: %s",
                 ncmpi_strerror(rc));
        return -1;
    }
    int64_t end = 0;
    rc = ncmpi_inq_nvars(ncid, &nvars);
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
        if (rc == NC_NOERR && n > 0 && begin + n * elem > end)
            end = begin + n * elem;
    }
    ncmpi_close(ncid);
    if (rc != NC_NOERR) {
        snprintf(why, len, "has a header h5perf cannot read after the write phase: %s",
                 ncmpi_strerror(rc));
        return -1;
    }
    return end;
}

/* What PnetCDF cannot carry out: a hyperslab that is not subarrays along
 * dimension 0 (no plan makes one), more than INT_MAX of them, and a
 * request above 2 GiB per process, which this PnetCDF (built without
 * large single requests) refuses. */
static int pncdf_check(const struct backend_settings *set, const struct pattern *pt, char *why,
                       size_t len)
{
    (void)set;
    const struct pattern_slab *s = &pt->slab;
    for (int d = 1; d < s->ndims; d++)
        if (s->count[d] > 1 && s->stride[d] != s->block[d]) {
            snprintf(why, len, "its selection is not a set of subarrays along dimension 0");
            return -1;
        }
    if (s->count[0] > INT_MAX) {
        snprintf(why, len, "a transfer of %lld blocks is above PnetCDF's %d subarrays per call",
                 (long long)s->count[0], INT_MAX);
        return -1;
    }
    if (pt->xfer_bytes > INT_MAX) {
        snprintf(why, len,
                 "a transfer of %lld bytes is above PnetCDF's limit of %d bytes per call; use "
                 "smaller transfers or more processes",
                 (long long)pt->xfer_bytes, INT_MAX);
        return -1;
    }
    return 0;
}

/* "PnetCDF 1.12.3" (ncmpi_inq_libvers() adds the release date). */
static void pncdf_version(char *buf, size_t len)
{
    const char *v = ncmpi_inq_libvers();
    size_t n = strcspn(v, " ");
    snprintf(buf, len, "PnetCDF %.*s", (int)n, v);
}

const struct backend_ops backend_pnetcdf = {
    .desc = &api_descs[API_PNETCDF],
    .open = pncdf_open,
    .dset_begin = pncdf_dset_begin,
    .transfer = pncdf_transfer,
    .dset_end = pncdf_dset_end,
    .close = pncdf_close,
    .check_source = pncdf_check_source,
    .check = pncdf_check,
    .version = pncdf_version,
    .written_end = pncdf_written_end,
};
