/* Parallel HDF5 backend through the MPI-IO driver: datasets Dataset_1..D of
 * unsigned chars, one hyperslab selected per dataset and moved per transfer
 * with H5Soffset_simple, independent or collective transfer property list
 * (docs/original.md §4.2, §5.3); the block pattern's datasets v0..v<n-1> of
 * little-endian unsigned integers of the element size, of the array's shape,
 * chunked by blocks in its chunked layout (docs/block.md); the particles
 * pattern's VPIC-IO datasets Timestep_<t>/x ... id_2 (docs/particles.md). Must not print,
 * time or exit; HDF5's automatic error printing is turned off by the engine
 * and the stack becomes one line. */
#include "backend/backend.h"

#include <hdf5.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pattern/particles.h"

struct backend_file {
    hid_t file, fapl, dxpl;
    enum backend_mode mode;
    const char *path;
    const struct pattern *pt;
    hid_t dset, fspace, mspace;
    int dset_no; /* 0-based number of the current dataset */
    bool chunk;
    bool sync; /* --fsync after a write phase: H5Fflush (MPI_File_sync) before closing */
    /* The last transfer called H5Dwrite or H5Dread, which left what HDF5
     * did in dxpl (phdf5_io_mode()). */
    bool called;
};

/* Records the HDF5 error stack. Call it before any cleanup: every HDF5 API
 * call, H5Pclose and H5Sclose included, clears the stack first. */
static int phdf5_fail(struct backend_file *f, const char *op, struct err *e)
{
    return err_hdf5(e, op, f->path, -1, -1);
}

static int phdf5_props(struct backend_file *f, const struct backend_ctx *ctx, struct err *e)
{
    const struct backend_settings *c = ctx->set;
    f->fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (f->fapl < 0 || H5Pset_fapl_mpio(f->fapl, ctx->comm, ctx->info) < 0 ||
        H5Pset_alignment(f->fapl, (hsize_t)c->threshold, (hsize_t)c->align) < 0)
        return phdf5_fail(f, "file access properties", e);
    f->dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (f->dxpl < 0 || (c->collective && H5Pset_dxpl_mpio(f->dxpl, H5FD_MPIO_COLLECTIVE) < 0))
        return phdf5_fail(f, "transfer properties", e);
    return 0;
}

static int phdf5_close(struct backend_file *f, struct err *e);

static int phdf5_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                      enum backend_mode mode, bool may_truncate, struct err *e)
{
    *out = NULL;
    struct backend_file *f = calloc(1, sizeof *f);
    if (!f)
        return err_set(e, "HDF5", "open", path, -1, -1, "out of memory");
    f->file = f->fapl = f->dxpl = f->dset = f->fspace = f->mspace = H5I_INVALID_HID;
    f->mode = mode;
    f->path = path;
    f->chunk = ctx->set->chunked;
    f->sync = mode == BACKEND_WRITE && ctx->set->fsync;
    if (phdf5_props(f, ctx, e) < 0) {
        phdf5_close(f, e);
        return -1;
    }
    if (mode == BACKEND_WRITE)
        f->file =
            H5Fcreate(path, may_truncate ? H5F_ACC_TRUNC : H5F_ACC_EXCL, H5P_DEFAULT, f->fapl);
    else
        f->file = H5Fopen(path, H5F_ACC_RDONLY, f->fapl);
    if (f->file < 0) {
        /* err_hdf5() marks e->exists when an exclusive create found the
         * file: the MPI-IO driver's innermost message says "file exists",
         * and it says so on every process (MPI_File_open fails alike). */
        phdf5_fail(f, mode == BACKEND_WRITE ? "create" : "open", e);
        phdf5_close(f, e);
        return -1;
    }
    *out = f;
    return 0;
}

static hid_t phdf5_space(int ndims, const int64_t *dims)
{
    hsize_t d[MODEL_MAX_DIMS];
    for (int i = 0; i < ndims; i++)
        d[i] = (hsize_t)dims[i];
    return H5Screate_simple(ndims, d, NULL);
}

/* The element type of dataset var: the guide's bytes, the block pattern's
 * unsigned little-endian integers, the particles pattern's 32-bit
 * little-endian floats and integers (docs/particles.md); in memory as in
 * the file (the buffer is little-endian whatever the host), so HDF5
 * converts nothing. */
static hid_t phdf5_type(const struct pattern *pt, int var)
{
    if (pt->kind == PATTERN_GUIDE)
        return H5T_NATIVE_UCHAR;
    if (pt->kind == PATTERN_PARTICLES)
        return particles_var_is_int(var) ? H5T_STD_I32LE : H5T_IEEE_F32LE;
    switch (pt->elem) {
    case 2:
        return H5T_STD_U16LE;
    case 4:
        return H5T_STD_U32LE;
    case 8:
        return H5T_STD_U64LE;
    default:
        return H5T_STD_U8LE;
    }
}

/* The guide's datasets keep the original's creation properties
 * (docs/original.md §5.3): parallel HDF5 then writes zeros into every chunk
 * when it creates a chunked dataset. The block pattern writes every element
 * itself, so its datasets are never filled (docs/block.md): the chunked
 * layout is not charged for writing the array twice. */
static int phdf5_create(struct backend_file *f, const char *name, const struct pattern_slab *s,
                        struct err *e)
{
    hid_t dcpl = H5P_DEFAULT;
    bool block = f->pt->kind != PATTERN_GUIDE;
    if (f->chunk || block) {
        hsize_t chunk[MODEL_MAX_DIMS];
        for (int i = 0; i < s->ndims; i++)
            chunk[i] = (hsize_t)s->chunk[i];
        dcpl = H5Pcreate(H5P_DATASET_CREATE);
        if (dcpl < 0 || (f->chunk && H5Pset_chunk(dcpl, s->ndims, chunk) < 0) ||
            (block && H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0)) {
            phdf5_fail(f, "dataset creation properties", e);
            if (dcpl >= 0)
                H5Pclose(dcpl);
            return -1;
        }
    }
    /* The particles pattern's datasets are in the group of the iteration:
     * the first creates it. */
    hid_t lcpl = H5P_DEFAULT;
    if (f->pt->kind == PATTERN_PARTICLES &&
        ((lcpl = H5Pcreate(H5P_LINK_CREATE)) < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0))
        f->dset = H5I_INVALID_HID;
    else
        f->dset = H5Dcreate2(f->file, name, phdf5_type(f->pt, f->dset_no), f->fspace, lcpl, dcpl,
                             H5P_DEFAULT);
    if (f->dset < 0)
        phdf5_fail(f, "create dataset", e);
    if (dcpl != H5P_DEFAULT)
        H5Pclose(dcpl);
    if (lcpl >= 0 && lcpl != H5P_DEFAULT)
        H5Pclose(lcpl);
    return f->dset < 0 ? -1 : 0;
}

static int phdf5_dset_begin(struct backend_file *f, int dset, const struct pattern *pt,
                            struct err *e)
{
    const struct pattern_slab *s = &pt->slab;
    char name[64];
    pattern_dataset_name(pt, dset, name, sizeof name);
    f->pt = pt;
    f->dset_no = dset;
    if ((f->fspace = phdf5_space(s->ndims, s->dims)) < 0 ||
        (f->mspace = phdf5_space(s->ndims, s->mem_dims)) < 0)
        return phdf5_fail(f, "dataspace", e);
    if (f->mode == BACKEND_WRITE) {
        if (phdf5_create(f, name, s, e) < 0)
            return -1;
    } else if ((f->dset = H5Dopen2(f->file, name, H5P_DEFAULT)) < 0) {
        return phdf5_fail(f, "open dataset", e);
    }
    hsize_t start[MODEL_MAX_DIMS], stride[MODEL_MAX_DIMS], count[MODEL_MAX_DIMS],
        block[MODEL_MAX_DIMS];
    for (int i = 0; i < s->ndims; i++) {
        start[i] = (hsize_t)s->start[i];
        stride[i] = (hsize_t)s->stride[i];
        count[i] = (hsize_t)s->count[i];
        block[i] = (hsize_t)s->block[i];
    }
    /* A process without particles selects nothing and still takes part. */
    if (model_product(s->ndims, s->count) == 0) {
        if (H5Sselect_none(f->fspace) < 0 || H5Sselect_none(f->mspace) < 0)
            return phdf5_fail(f, "select none", e);
        return 0;
    }
    if (H5Sselect_hyperslab(f->fspace, H5S_SELECT_SET, start, stride, count, block) < 0)
        return phdf5_fail(f, "select hyperslab", e);
    return 0;
}

/* Records a failed transfer k. Its bytes are not at one file offset (the
 * library places the dataset, possibly in chunks), so the line names the
 * transfer and the span of the dataset its selection lies in, in elements
 * (bytes): "transfer 3 of 'Dataset_1', 4096 bytes within dataset bytes
 * 8192..12287" or "... within rows 0..3, columns 8..1031". */
static int phdf5_transfer_fail(struct backend_file *f, int64_t k, const int64_t o[2], struct err *e)
{
    const struct pattern_slab *s = &f->pt->slab;
    int64_t first[MODEL_MAX_DIMS], last[MODEL_MAX_DIMS];
    for (int i = 0; i < s->ndims; i++) {
        first[i] = s->start[i] + (i < 2 ? o[i] : 0);
        last[i] = first[i] + (s->count[i] - 1) * s->stride[i] + s->block[i] - 1;
    }
    const char *op = f->mode == BACKEND_WRITE ? "write" : "read";
    int64_t bytes = f->pt->xfer_bytes;
    char name[64];
    pattern_dataset_name(f->pt, f->dset_no, name, sizeof name);
    if (f->pt->kind != PATTERN_GUIDE) {
        char at[96] = "";
        size_t used = 0;
        for (int i = 0; i < s->ndims && used < sizeof at; i++)
            used +=
                (size_t)snprintf(at + used, sizeof at - used, "%s%" PRId64, i ? "," : "", first[i]);
        return err_hdf5_ctx(e, op, f->path, -1, bytes,
                            "the block of '%s', %" PRId64 " bytes from element (%s)", name, bytes,
                            at);
    }
    if (s->ndims == 1)
        return err_hdf5_ctx(e, op, f->path, -1, bytes,
                            "transfer %" PRId64 " of 'Dataset_%d', %" PRId64
                            " bytes within dataset bytes %" PRId64 "..%" PRId64,
                            k, f->dset_no + 1, bytes, first[0], last[0]);
    return err_hdf5_ctx(e, op, f->path, -1, bytes,
                        "transfer %" PRId64 " of 'Dataset_%d', %" PRId64
                        " bytes within rows %" PRId64 "..%" PRId64 ", columns %" PRId64
                        "..%" PRId64,
                        k, f->dset_no + 1, bytes, first[0], last[0], first[1], last[1]);
}

static int phdf5_transfer(struct backend_file *f, int64_t k, void *buf, struct err *e)
{
    /* An empty dataset has no storage to move to (HDF5 fails on its
     * undefined address): the file per process of a process without
     * particles, which no other process opens. */
    f->called = false;
    if (model_product(f->pt->slab.ndims, f->pt->slab.dims) == 0)
        return 0;
    int64_t o[2] = {0, 0};
    pattern_slab_offset(f->pt, k, o);
    hssize_t off[MODEL_MAX_DIMS] = {(hssize_t)o[0], (hssize_t)o[1], 0};
    if (H5Soffset_simple(f->fspace, off) < 0)
        return phdf5_fail(f, "offset selection", e);
    hid_t type = phdf5_type(f->pt, f->dset_no);
    herr_t rc = f->mode == BACKEND_WRITE
                    ? H5Dwrite(f->dset, type, f->mspace, f->fspace, f->dxpl, buf)
                    : H5Dread(f->dset, type, f->mspace, f->fspace, f->dxpl, buf);
    f->called = rc >= 0;
    return rc < 0 ? phdf5_transfer_fail(f, k, o, e) : 0;
}

static int phdf5_dset_end(struct backend_file *f, struct err *e)
{
    int rc = 0;
    if (f->dset >= 0 && H5Dclose(f->dset) < 0)
        rc = phdf5_fail(f, "close dataset", e); /* before H5Sclose clears the stack */
    if (f->fspace >= 0)
        H5Sclose(f->fspace);
    if (f->mspace >= 0)
        H5Sclose(f->mspace);
    f->dset = f->fspace = f->mspace = H5I_INVALID_HID;
    f->pt = NULL;
    return rc;
}

static int phdf5_close(struct backend_file *f, struct err *e)
{
    if (!f)
        return 0;
    int rc = 0;
    if (f->dset >= 0 || f->fspace >= 0 || f->mspace >= 0)
        rc = phdf5_dset_end(f, e);
    /* Collective on every process that opened the file, like H5Fclose. */
    if (f->sync && f->file >= 0 && H5Fflush(f->file, H5F_SCOPE_GLOBAL) < 0)
        rc = phdf5_fail(f, "flush (--fsync)", e);
    if (f->file >= 0 && H5Fclose(f->file) < 0)
        rc = phdf5_fail(f, "close", e);
    if (f->dxpl >= 0)
        H5Pclose(f->dxpl);
    if (f->fapl >= 0)
        H5Pclose(f->fapl);
    free(f);
    return rc;
}

/* Opens the file serially (default driver) and checks that every dataset
 * exists and is at least as large as the run's selection covers. */
static int phdf5_check_source(const char *path, int num_dsets, const struct pattern *pt, char *why,
                              size_t len)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) {
        H5Eclear2(H5E_DEFAULT);
        snprintf(why, len, "is not a readable HDF5 file");
        return -1;
    }
    int rc = 0;
    for (int d = 0; rc == 0 && d < num_dsets; d++) {
        char name[64];
        pattern_dataset_name(pt, d, name, sizeof name);
        hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
        if (dset < 0) {
            snprintf(why, len, "has no dataset '%s'", name);
            rc = -1;
            break;
        }
        hid_t space = H5Dget_space(dset);
        hsize_t dims[MODEL_MAX_DIMS] = {0, 0, 0};
        int nd = H5Sget_simple_extent_ndims(space);
        bool block = pt->kind != PATTERN_GUIDE;
        bool small = nd != pt->slab.ndims ||
                     H5Sget_simple_extent_dims(space, nd == pt->slab.ndims ? dims : NULL, NULL) < 0;
        /* The guide reads a prefix of a larger kept file; the block pattern
         * reads the array it would have written, with its element type. */
        for (int i = 0; !small && i < nd; i++)
            small =
                block ? (int64_t)dims[i] != pt->slab.dims[i] : (int64_t)dims[i] < pt->slab.dims[i];
        if (small) {
            char need[96] = "";
            size_t used = 0;
            for (int i = 0; i < pt->slab.ndims && used < sizeof need; i++)
                used += (size_t)snprintf(need + used, sizeof need - used, "%s%lld", i ? "x" : "",
                                         (long long)pt->slab.dims[i]);
            if (block)
                snprintf(why, len, "has a dataset '%s' that is not the %s array this run reads",
                         name, need);
            else
                snprintf(why, len, "has a dataset '%s' smaller than the %s bytes this run reads",
                         name, need);
            rc = -1;
        }
        hid_t type = rc == 0 && block ? H5Dget_type(dset) : H5I_INVALID_HID;
        if (type >= 0) {
            if (H5Tequal(type, phdf5_type(pt, d)) <= 0) {
                if (pt->kind == PATTERN_PARTICLES)
                    snprintf(why, len,
                             "has a dataset '%s' whose elements are not the 32-bit "
                             "little-endian %s this run reads",
                             name, particles_var_is_int(d) ? "integers" : "floats");
                else
                    snprintf(why, len,
                             "has a dataset '%s' whose elements are not the %d-byte unsigned "
                             "little-endian integers this run reads",
                             name, pt->elem);
                rc = -1;
            }
            H5Tclose(type);
        }
        H5Sclose(space);
        H5Dclose(dset);
    }
    H5Eclear2(H5E_DEFAULT);
    H5Fclose(file);
    return rc;
}

/* HDF5 refuses a chunk of 4 GiB or more (H5Pset_chunk counts elements,
 * H5Dcreate bytes): a chunked dataset's chunk must stay below. */
static int phdf5_check(const struct backend_settings *set, const struct pattern *pt, char *why,
                       size_t len)
{
    if (!set->chunked)
        return 0;
    const struct pattern_slab *s = &pt->slab;
    uint64_t bytes = (uint64_t)pt->elem;
    for (int d = 0; d < s->ndims; d++)
        bytes =
            bytes > UINT64_MAX / (uint64_t)s->chunk[d] ? UINT64_MAX : bytes * (uint64_t)s->chunk[d];
    if (bytes <= UINT32_MAX)
        return 0;
    snprintf(why, len,
             "its chunks of %" PRIu64 " bytes are above HDF5's limit of %" PRIu32
             " bytes per chunk; use %s",
             bytes, UINT32_MAX, pt->kind == PATTERN_BLOCK ? "more processes" : "a smaller -B");
    return -1;
}

static void phdf5_version(char *buf, size_t len)
{
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    snprintf(buf, len, "HDF5 %u.%u.%u", maj, min, rel);
}

/* report/iomode.h keeps HDF5's values of the actual I/O modes and of the
 * causes, without depending on HDF5. */
_Static_assert(IO_MODE_NO_COLLECTIVE == (int)H5D_MPIO_NO_COLLECTIVE &&
                   IO_MODE_CHUNK_INDEPENDENT == (int)H5D_MPIO_CHUNK_INDEPENDENT &&
                   IO_MODE_CHUNK_COLLECTIVE == (int)H5D_MPIO_CHUNK_COLLECTIVE &&
                   IO_MODE_CHUNK_MIXED == (int)H5D_MPIO_CHUNK_MIXED &&
                   IO_MODE_CONTIGUOUS_COLLECTIVE == (int)H5D_MPIO_CONTIGUOUS_COLLECTIVE,
               "report/iomode.h: enum io_mode differs from H5D_mpio_actual_io_mode_t");
_Static_assert((int)IO_CAUSE_SET_INDEPENDENT == (int)H5D_MPIO_SET_INDEPENDENT &&
                   (int)IO_CAUSE_DATATYPE_CONVERSION == (int)H5D_MPIO_DATATYPE_CONVERSION &&
                   (int)IO_CAUSE_DATA_TRANSFORMS == (int)H5D_MPIO_DATA_TRANSFORMS &&
                   (int)IO_CAUSE_MPI_OPT_TYPES_DISABLED ==
                       (int)H5D_MPIO_MPI_OPT_TYPES_ENV_VAR_DISABLED &&
                   (int)IO_CAUSE_NOT_SIMPLE_OR_SCALAR_DATASPACES ==
                       (int)H5D_MPIO_NOT_SIMPLE_OR_SCALAR_DATASPACES &&
                   (int)IO_CAUSE_NOT_CONTIGUOUS_OR_CHUNKED_DATASET ==
                       (int)H5D_MPIO_NOT_CONTIGUOUS_OR_CHUNKED_DATASET &&
                   (int)IO_CAUSE_PARALLEL_FILTERED_WRITES_DISABLED ==
                       (int)H5D_MPIO_PARALLEL_FILTERED_WRITES_DISABLED &&
                   (int)IO_CAUSE_ERROR_WHILE_CHECKING ==
                       (int)H5D_MPIO_ERROR_WHILE_CHECKING_COLLECTIVE_POSSIBLE,
               "report/iomode.h: IO_CAUSE_* differ from H5D_mpio_no_collective_cause_t");
/* HDF5 1.14's cause, which came with the H5D_SEL_IO_* macros. */
#ifdef H5D_SEL_IO_DISABLE_BY_API
_Static_assert((int)IO_CAUSE_NO_SELECTION_IO == (int)H5D_MPIO_NO_SELECTION_IO,
               "report/iomode.h: IO_CAUSE_NO_SELECTION_IO differs from HDF5's");
#endif

/* After a completed collective transfer: what HDF5 did with it, which it
 * leaves in the transfer property list (H5Pget_mpio_actual_io_mode: set
 * once the I/O is done; H5Pget_mpio_no_collective_cause: this process's
 * causes and their union over the processes). Measured with HDF5 1.10.8
 * (docs/results.md, "actual_io_mode"): a contiguous dataset reports
 * contiguous_collective, a chunked one chunk_collective; a memory type
 * that needs conversion, a data transform or HDF5_MPI_OPT_TYPES=0 in the
 * environment no_collective with that cause; but
 * H5Pset_dxpl_mpio_collective_opt(H5FD_MPIO_INDIVIDUAL_IO) still a
 * collective mode with no cause. */
static int phdf5_io_mode(struct backend_file *f, struct io_mode_seen *seen, struct err *e)
{
    H5D_mpio_actual_io_mode_t mode = H5D_MPIO_NO_COLLECTIVE;
    uint32_t local = 0, global = 0;
    if (!f->called) /* no HDF5 call to ask about (an empty file per process) */
        return 0;
    if (H5Pget_mpio_actual_io_mode(f->dxpl, &mode) < 0 ||
        H5Pget_mpio_no_collective_cause(f->dxpl, &local, &global) < 0)
        return phdf5_fail(f, "read back the actual I/O mode", e);
    io_mode_add(seen, (enum io_mode)mode, local, global);
    return 0;
}

const struct backend_ops backend_phdf5 = {
    .desc = &api_descs[API_PHDF5],
    .open = phdf5_open,
    .dset_begin = phdf5_dset_begin,
    .transfer = phdf5_transfer,
    .dset_end = phdf5_dset_end,
    .close = phdf5_close,
    .check_source = phdf5_check_source,
    .check = phdf5_check,
    .version = phdf5_version,
    .io_mode = phdf5_io_mode,
};
