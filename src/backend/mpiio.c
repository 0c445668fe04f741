/* MPI-IO backend: explicit offsets for independent I/O, a file view and the
 * _all calls for collective I/O (docs/original.md §5.1-5.2). Datatypes are
 * built once per open file; where the pattern tiles (1D), one view per dataset
 * serves every transfer, else the view moves per transfer (2D). The block
 * pattern moves a process's whole block in one call: through a subarray view
 * of the array (shared layout), or at its offset (chunked, fpp), independent
 * or _all. Every return code and byte count is checked (ompio returns success
 * with a short count on a full disk). Must not print, time or exit. */
#include "backend/backend.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct backend_file {
    MPI_File fh;
    enum backend_mode mode;
    bool collective;
    bool sync; /* --fsync */
    MPI_Info info;
    const char *path;
    const struct pattern *pt;
    int64_t base;          /* file offset of the current dataset */
    MPI_Datatype piece;    /* len bytes */
    MPI_Datatype filetype; /* count pieces at stride, for the collective view */
    bool types;
    bool tiled;    /* filetype's extent is the pattern's xfer_step */
    bool view_set; /* the tiled view of the current dataset is in place */
    bool subarray; /* the block pattern's shared layout: filetype is the block */
};

/* The backend_file is allocated before the collective MPI_File_open, so that
 * no process fails after the open and is left to close the file alone
 * (MPI_File_close is collective). A failed calloc still skips the open on
 * that process only (agreeing on it first would add a collective to every
 * timed open; the engine's watchdog ends a run left waiting in it). A later
 * failure (truncation) returns the open file in *out for the engine to close
 * collectively. */
static int mpiio_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                      enum backend_mode mode, bool may_truncate, struct err *e)
{
    *out = NULL;
    const char *op = mode == BACKEND_WRITE ? "create" : "open";
    struct backend_file *f = calloc(1, sizeof *f);
    if (!f)
        return err_set(e, "MPI-IO", op, path, -1, -1, "out of memory");
    f->mode = mode;
    f->collective = ctx->set->collective;
    f->sync = ctx->set->fsync;
    f->info = ctx->info;
    f->path = path;
    f->piece = f->filetype = MPI_DATATYPE_NULL;
    int amode = MPI_MODE_RDONLY;
    if (mode == BACKEND_WRITE)
        amode = MPI_MODE_CREATE | MPI_MODE_RDWR | (may_truncate ? 0 : MPI_MODE_EXCL);
    int rc = MPI_File_open(ctx->comm, path, amode, ctx->info, &f->fh);
    if (rc != MPI_SUCCESS) {
        free(f);
        return err_mpi(e, op, path, -1, -1, rc);
    }
    *out = f;
    if (mode == BACKEND_WRITE && may_truncate) {
        rc = MPI_File_set_size(f->fh, 0);
        if (rc != MPI_SUCCESS)
            return err_mpi(e, "truncate", path, -1, -1, rc);
    }
    return 0;
}

static void mpiio_free_types(struct backend_file *f)
{
    if (f->filetype != MPI_DATATYPE_NULL)
        MPI_Type_free(&f->filetype);
    if (f->piece != MPI_DATATYPE_NULL)
        MPI_Type_free(&f->piece);
    f->types = f->subarray = false;
}

/* Ends building a view's types: rc is the last call's status; commits the
 * filetype, or reports the failure and frees what was built. */
static int mpiio_commit_view(struct backend_file *f, int rc, struct err *e)
{
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->filetype);
    if (rc != MPI_SUCCESS) {
        err_mpi(e, "datatype", f->path, -1, -1, rc);
        mpiio_free_types(f);
        return -1;
    }
    f->types = true;
    return 0;
}

/* The collective view's types: count pieces of len bytes, stride apart;
 * with tiling, the filetype's extent is the step between transfers, so that
 * transfer k is k * xfer_bytes further into one view. */
static int mpiio_types(struct backend_file *f, const struct pattern *pt, struct err *e)
{
    const struct pattern_vec *s = &pt->shape;
    MPI_Datatype vec = MPI_DATATYPE_NULL;
    f->tiled = pt->xfer_step > 0;
    int rc = MPI_Type_contiguous((int)s->len, MPI_BYTE, &f->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_hvector((int)s->count, 1, (MPI_Aint)s->stride, f->piece,
                                     f->tiled ? &vec : &f->filetype);
    if (rc == MPI_SUCCESS && f->tiled)
        rc = MPI_Type_create_resized(vec, 0, (MPI_Aint)pt->xfer_step, &f->filetype);
    if (vec != MPI_DATATYPE_NULL)
        MPI_Type_free(&vec);
    return mpiio_commit_view(f, rc, e);
}

/* The block pattern's shared layout: a subarray of the array, in elements
 * of elem bytes, built once per file (every variable has the same). */
static int mpiio_subarray(struct backend_file *f, const struct pattern *pt, struct err *e)
{
    const struct pattern_slab *s = &pt->slab;
    int sizes[MODEL_MAX_DIMS], sub[MODEL_MAX_DIMS], starts[MODEL_MAX_DIMS];
    for (int d = 0; d < s->ndims; d++) {
        sizes[d] = (int)s->dims[d]; /* validation: dimensions below 2^31 */
        sub[d] = (int)s->count[d];
        starts[d] = (int)s->start[d];
    }
    int rc = MPI_Type_contiguous(pt->elem, MPI_BYTE, &f->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_subarray(s->ndims, sizes, sub, starts, MPI_ORDER_C, f->piece,
                                      &f->filetype);
    f->subarray = true;
    return mpiio_commit_view(f, rc, e);
}

/* The block pattern: the view of this variable (a collective call on every
 * process, empty blocks included), for the shared layout. */
static int mpiio_block_begin(struct backend_file *f, const struct pattern *pt, struct err *e)
{
    /* One contiguous run: written at its offset. Every block of an even
     * grid has the same shape, so all processes take the same branch (with
     * uneven or empty blocks, those too must join the view). */
    if (pt->outer == 1 && pt->shape.count == 1)
        return 0;
    if (!f->types && mpiio_subarray(f, pt, e) < 0) {
        /* Join the collective call the others make, then fail. */
        MPI_File_set_view(f->fh, 0, MPI_BYTE, MPI_BYTE, "native", f->info);
        return -1;
    }
    int rc =
        MPI_File_set_view(f->fh, (MPI_Offset)f->base, f->piece, f->filetype, "native", f->info);
    f->view_set = rc == MPI_SUCCESS;
    return f->view_set ? 0 : err_mpi(e, "set view", f->path, f->base, -1, rc);
}

static int mpiio_dset_begin(struct backend_file *f, int dset, const struct pattern *pt,
                            struct err *e)
{
    f->pt = pt;
    f->base = pattern_var_base(pt, dset);
    f->view_set = false;
    if (pt->whole)
        return mpiio_block_begin(f, pt, e);
    const struct pattern_vec *s = &pt->shape;
    if (s->len > INT_MAX || s->count > INT_MAX)
        return err_set(e, "MPI-IO", "set up", f->path, -1, s->len,
                       "pieces of more than 2 GiB or more than %d pieces per transfer are not "
                       "supported by the MPI-IO backend",
                       INT_MAX);
    if (!f->collective || s->count == 1 || f->types)
        return 0;
    return mpiio_types(f, pt, e);
}

/* Checks rc and the number of bytes actually moved: `count` items of `type`
 * must be `bytes` bytes (MPI_BYTE elements). */
static int mpiio_check(struct backend_file *f, int rc, MPI_Status *st, MPI_Datatype type,
                       int64_t off, int64_t bytes, struct err *e)
{
    const char *op = f->mode == BACKEND_WRITE ? "write" : "read";
    if (rc != MPI_SUCCESS)
        return err_mpi(e, op, f->path, off, bytes, rc);
    MPI_Count n = 0;
    rc = MPI_Get_elements_x(st, type, &n);
    if (rc != MPI_SUCCESS)
        return err_mpi(e, op, f->path, off, bytes, rc);
    if ((int64_t)n != bytes)
        return err_set(e, "MPI-IO", op, f->path, off, bytes, "short %s: %lld of %lld bytes (%s)",
                       op, (long long)n, (long long)bytes,
                       f->mode == BACKEND_WRITE ? "file system full?" : "file too short?");
    return 0;
}

static int mpiio_at(struct backend_file *f, MPI_Offset off, void *buf, int count, MPI_Datatype type,
                    bool all, MPI_Status *st)
{
    if (f->mode == BACKEND_WRITE)
        return all ? MPI_File_write_at_all(f->fh, off, buf, count, type, st)
                   : MPI_File_write_at(f->fh, off, buf, count, type, st);
    return all ? MPI_File_read_at_all(f->fh, off, buf, count, type, st)
               : MPI_File_read_at(f->fh, off, buf, count, type, st);
}

/* A collective transfer through the view: set once per dataset when the
 * pattern tiles, else moved to this transfer. A process whose view could
 * not be set still joins the collective call, moving nothing, so that the
 * others are not left waiting in it. */
static int mpiio_transfer_view(struct backend_file *f, int64_t k, int64_t off, int64_t count,
                               void *buf, struct err *e)
{
    MPI_Status st;
    int rc = MPI_SUCCESS;
    MPI_Offset at = f->tiled ? (MPI_Offset)(k * f->pt->xfer_bytes) : 0;
    if (!f->tiled || !f->view_set) {
        int64_t disp = f->tiled ? f->base + f->pt->shape.disp : off;
        rc = MPI_File_set_view(f->fh, (MPI_Offset)disp, MPI_BYTE, f->filetype, "native", f->info);
        f->view_set = rc == MPI_SUCCESS;
    }
    if (rc != MPI_SUCCESS) {
        err_mpi(e, "set view", f->path, off, -1, rc);
        mpiio_at(f, 0, buf, 0, f->piece, true, &st);
        return -1;
    }
    /* count pieces (not count * len bytes, which may pass INT_MAX):
     * dset_begin checked count and len against INT_MAX, and every transfer
     * has the shape's count, so the cast is exact and count * len fits in 64
     * bits. Checking here instead would skip a collective call on this
     * process only. */
    rc = mpiio_at(f, at, buf, (int)count, f->piece, true, &st);
    return mpiio_check(f, rc, &st, f->piece, off, count * f->pt->shape.len, e);
}

/* The block pattern: the whole block in one call, through the view or at
 * its offset; validation keeps a block below 2^31 bytes. */
static int mpiio_transfer_block(struct backend_file *f, void *buf, struct err *e)
{
    MPI_Status st;
    int count = (int)f->pt->xfer_bytes, rc;
    int64_t off = f->base + f->pt->shape.disp;
    bool write = f->mode == BACKEND_WRITE;
    if (!f->subarray)
        rc = mpiio_at(f, (MPI_Offset)off, buf, count, MPI_BYTE, f->collective, &st);
    else if (!f->view_set)
        return -1; /* dset_begin failed, every process agreed: no one is here */
    else if (f->collective)
        rc = write ? MPI_File_write_all(f->fh, buf, count, MPI_BYTE, &st)
                   : MPI_File_read_all(f->fh, buf, count, MPI_BYTE, &st);
    else
        rc = write ? MPI_File_write(f->fh, buf, count, MPI_BYTE, &st)
                   : MPI_File_read(f->fh, buf, count, MPI_BYTE, &st);
    return mpiio_check(f, rc, &st, MPI_BYTE, off, count, e);
}

static int mpiio_transfer(struct backend_file *f, int64_t k, void *buf, struct err *e)
{
    if (f->pt->whole)
        return mpiio_transfer_block(f, buf, e);
    struct pattern_vec v = pattern_file_vec(f->pt, k);
    unsigned char *p = buf;
    MPI_Status st;
    int64_t off = f->base + v.disp;
    if (f->collective && f->types)
        return mpiio_transfer_view(f, k, off, v.count, buf, e);
    for (int64_t i = 0; i < v.count; i++) {
        int64_t o = off + i * v.stride;
        int rc =
            mpiio_at(f, (MPI_Offset)o, p + i * v.len, (int)v.len, MPI_BYTE, f->collective, &st);
        if (mpiio_check(f, rc, &st, MPI_BYTE, o, v.len, e) < 0)
            return -1;
    }
    return 0;
}

static int mpiio_dset_end(struct backend_file *f, struct err *e)
{
    (void)e;
    f->pt = NULL;
    return 0;
}

static int mpiio_close(struct backend_file *f, struct err *e)
{
    if (!f)
        return 0;
    mpiio_free_types(f);
    const char *path = f->path;
    int synced = 0;
    /* --fsync: collective like the close that follows, on every process. */
    if (f->mode == BACKEND_WRITE && f->sync) {
        int rc = MPI_File_sync(f->fh);
        if (rc != MPI_SUCCESS)
            synced = err_mpi(e, "flush (--fsync)", path, -1, -1, rc);
    }
    int rc = MPI_File_close(&f->fh);
    free(f);
    return rc != MPI_SUCCESS ? err_mpi(e, "close", path, -1, -1, rc) : synced;
}

/* The block pattern's subarray view takes the array's dimensions as ints:
 * a block that is not one run (its view is needed) must lie in an array
 * whose dimensions are below 2^31 elements. */
static int mpiio_check_plan(const struct backend_settings *set, const struct pattern *pt, char *why,
                            size_t len)
{
    (void)set;
    if (!pt->whole || (pt->outer == 1 && pt->shape.count == 1))
        return 0;
    for (int d = 0; d < pt->slab.ndims; d++)
        if (pt->slab.dims[d] > INT_MAX) {
            snprintf(why, len,
                     "dimension %d of %" PRId64 " elements is above the %d elements of an "
                     "MPI subarray; use --layout chunked or fpp",
                     d + 1, pt->slab.dims[d], INT_MAX);
            return -1;
        }
    return 0;
}

/* The MPI library's first line ("Open MPI v4.1.4, ..."): its MPI-IO is
 * part of it (ROMIO or OMPIO, as the library chose). */
static void mpiio_version(char *buf, size_t len)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(lib, &n);
    lib[strcspn(lib, "\n")] = '\0';
    snprintf(buf, len, "%s", lib);
}

const struct backend_ops backend_mpiio = {
    .desc = &api_descs[API_MPIIO],
    .open = mpiio_open,
    .dset_begin = mpiio_dset_begin,
    .transfer = mpiio_transfer,
    .dset_end = mpiio_dset_end,
    .close = mpiio_close,
    .check_source = backend_check_flat,
    .check = mpiio_check_plan,
    .version = mpiio_version,
};
