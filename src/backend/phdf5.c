/* Parallel HDF5 backend through the MPI-IO or the subfiling driver (the
 * run point's variant, api/hdf5_options.h; phdf5_driver.c): one dataset
 * per variable of the plan (its name, a path whose groups are created; its
 * little-endian type, shape and chunks; never filled unless the plan keeps
 * the library's fill, as the guide's datasets do, docs/original.md §5.3),
 * each step a union of hyperslabs (a step of the last one's shape moves it
 * with H5Soffset_simple), independent or collective transfer property list
 * (docs/original.md §4.2); with multi-dataset I/O, step k of every
 * variable in one H5Dwrite_multi or H5Dread_multi (docs/hdf5.md). A
 * process whose local preparation of a collective call fails stays in step
 * with the others (docs/design.md, "Collective calls after a local
 * failure"). Must not print, time or exit; HDF5's automatic error
 * printing is turned off by the engine and the stack becomes one line. */
#include "backend/phdf5.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int phdf5_props(struct backend_file *f, const struct backend_ctx *ctx, struct err *e)
{
    const struct backend_settings *c = ctx->set;
    const struct hdf5_settings *h = phdf5_settings(c);
    if ((f->fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0)
        return phdf5_fail(f, "file access properties", e);
    if (phdf5_driver(f, ctx, e) < 0)
        return -1;
    if (H5Pset_alignment(f->fapl, (hsize_t)c->threshold, (hsize_t)c->align) < 0 ||
        (h->meta_block > 0 && H5Pset_meta_block_size(f->fapl, (hsize_t)h->meta_block) < 0))
        return phdf5_fail(f, "file access properties", e);
    /* Collective metadata operations (HDF5 1.10 and newer, the same calls
     * in 1.14 and 2.0; docs/hdf5.md): every process reads metadata in
     * collective calls, and the metadata cache writes it collectively. */
    if (h->coll_metadata && (H5Pset_all_coll_metadata_ops(f->fapl, true) < 0 ||
                             H5Pset_coll_metadata_write(f->fapl, true) < 0))
        return phdf5_fail(f, "collective metadata properties", e);
    f->dxpl = H5Pcreate(H5P_DATASET_XFER);
    if (f->dxpl < 0 || (c->collective && H5Pset_dxpl_mpio(f->dxpl, H5FD_MPIO_COLLECTIVE) < 0))
        return phdf5_fail(f, "transfer properties", e);
    return 0;
}

static int phdf5_close(struct backend_file *f, struct err *e);

/* The file's record and its variables' (f->vars, f->order NULL when
 * they could not be allocated: phdf5_close() takes such a record too). */
static struct backend_file *phdf5_alloc(const struct plan *plan)
{
    struct backend_file *f = calloc(1, sizeof *f);
    size_t n = (size_t)(plan->nvars > 0 ? plan->nvars : 1);
    if (!f)
        return NULL;
    f->file = f->fapl = f->dxpl = H5I_INVALID_HID;
    f->vars = calloc(n, sizeof *f->vars);
    f->order = calloc(n, sizeof *f->order);
    for (int v = 0; f->vars && v < plan->nvars; v++)
        f->vars[v].dset = f->vars[v].fspace = f->vars[v].mspace = H5I_INVALID_HID;
    return f;
}

/* H5Fcreate and H5Fopen are collective: a process whose record or
 * property lists failed still agrees with the others before them
 * (backend_all_ready()), and then no process makes the call. */
static int phdf5_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                      enum backend_mode mode, bool may_truncate, const struct plan *plan,
                      struct err *e)
{
    *out = NULL;
    struct backend_file *f = phdf5_alloc(plan);
    bool ready = f && f->vars && f->order;
    if (!ready)
        err_set(e, "HDF5", "open", path, -1, -1, "out of memory");
    if (ready) {
        f->comm = ctx->comm;
        f->collective = ctx->set->collective;
        f->mode = mode;
        f->path = path;
        f->plan = plan;
        f->sync = mode != BACKEND_READ && ctx->set->fsync;
        ready = phdf5_props(f, ctx, e) == 0;
    }
    if (!backend_all_ready(ctx->comm, ready)) {
        phdf5_close(f, e);
        return -1;
    }
    if (mode == BACKEND_WRITE)
        f->file =
            H5Fcreate(path, may_truncate ? H5F_ACC_TRUNC : H5F_ACC_EXCL, H5P_DEFAULT, f->fapl);
    else
        f->file = H5Fopen(path, mode == BACKEND_REWRITE ? H5F_ACC_RDWR : H5F_ACC_RDONLY, f->fapl);
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

/* The file's and memory's type of a variable: little-endian in memory as in
 * the file (the buffer is little-endian whatever the host), so HDF5
 * converts nothing. */
static hid_t phdf5_type(const struct plan_var *v)
{
    if (v->kind == PLAN_FLOAT)
        return H5T_IEEE_F32LE;
    if (v->kind == PLAN_SIGNED)
        return H5T_STD_I32LE;
    switch (v->elem) {
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

static bool phdf5_chunked(const struct plan_var *v)
{
    return v->chunk[0] > 0;
}

/* The creation property lists of variable x's dataset: chunked if the
 * plan says so, never filled unless it keeps the library's fill (the
 * guide's datasets, which parallel HDF5 then fills when it creates them
 * chunked), its groups made on the way (*lcpl). Local. */
static int phdf5_create_props(struct backend_file *f, const struct phdf5_var *x, hid_t *dcpl,
                              hid_t *lcpl, struct err *e)
{
    const struct plan_var *v = &x->var;
    if (phdf5_chunked(v) || !v->library_fill) {
        hsize_t chunk[MODEL_MAX_DIMS];
        for (int i = 0; i < v->ndims; i++)
            chunk[i] = (hsize_t)v->chunk[i];
        *dcpl = H5Pcreate(H5P_DATASET_CREATE);
        if (*dcpl < 0 || (phdf5_chunked(v) && H5Pset_chunk(*dcpl, v->ndims, chunk) < 0) ||
            (!v->library_fill && H5Pset_fill_time(*dcpl, H5D_FILL_TIME_NEVER) < 0))
            return phdf5_fail(f, "dataset creation properties", e);
    }
    if (strchr(v->name, '/') && ((*lcpl = H5Pcreate(H5P_LINK_CREATE)) < 0 ||
                                 H5Pset_create_intermediate_group(*lcpl, 1) < 0))
        return phdf5_fail(f, "link creation properties", e);
    return 0;
}

static void phdf5_close_plist(hid_t p)
{
    if (p >= 0 && p != H5P_DEFAULT)
        H5Pclose(p);
}

/* Variables are ended in the order they were begun (backend.h). H5Dcreate2
 * and H5Dopen2 are collective: a process whose dataspace or property lists
 * failed still agrees with the others before them (backend_all_ready()),
 * and then no process makes the call. */
static int phdf5_var_begin(struct backend_file *f, int var, const struct plan_access *acc,
                           struct err *e)
{
    (void)acc;
    struct phdf5_var *x = &f->vars[var];
    hid_t dcpl = H5P_DEFAULT, lcpl = H5P_DEFAULT;
    bool write = f->mode == BACKEND_WRITE;
    plan_var(f->plan, var, &x->var);
    x->type = phdf5_type(&x->var);
    x->selected = false;
    f->order[f->nbegun++] = var;
    bool ready = (x->fspace = phdf5_space(x->var.ndims, x->var.dims)) >= 0;
    if (!ready)
        phdf5_fail(f, "dataspace", e);
    else if (write)
        ready = phdf5_create_props(f, x, &dcpl, &lcpl, e) == 0;
    if (backend_all_ready(f->comm, ready)) {
        if (write)
            x->dset = H5Dcreate2(f->file, x->var.name, x->type, x->fspace, lcpl, dcpl, H5P_DEFAULT);
        else
            x->dset = H5Dopen2(f->file, x->var.name, H5P_DEFAULT);
        if (x->dset < 0) /* before H5Pclose clears the stack */
            phdf5_fail(f, write ? "create dataset" : "open dataset", e);
    }
    phdf5_close_plist(dcpl);
    phdf5_close_plist(lcpl);
    return x->dset < 0 ? -1 : 0;
}

/* Records a failed step: its dataset and the first element of its
 * selection, "transfer 3 of 'Dataset_1', 4096 bytes from element (8192)". */
static int phdf5_transfer_fail(struct backend_file *f, const struct plan_step *s, struct err *e)
{
    char at[96] = "";
    size_t used = 0;
    const struct model_slab *sl = plan_slabs(s);
    for (int i = 0; s->nslabs > 0 && i < sl->ndims && used < sizeof at; i++)
        used +=
            (size_t)snprintf(at + used, sizeof at - used, "%s%" PRId64, i ? "," : "", sl->start[i]);
    return err_hdf5_ctx(e, f->writing ? "write" : "read", f->path, -1, s->bytes,
                        "transfer %" PRId64 " of '%s', %" PRId64 " bytes from element (%s)",
                        s->index, f->vars[s->var].var.name, s->bytes, at);
}

/* An empty dataset has no storage to move to (HDF5 fails on its undefined
 * address): the file per process of a process without data, which no
 * other process opens. */
static bool phdf5_empty(const struct phdf5_var *x)
{
    return model_product(x->var.ndims, x->var.dims) == 0;
}

/* A process whose selection of variable x failed (its error recorded)
 * still joins the others' collective H5Dwrite or H5Dread (-C), selecting
 * nothing, so that they are not left waiting in it; an independent one
 * it skips. */
static void phdf5_join(struct backend_file *f, struct phdf5_var *x, void *buf)
{
    if (!f->collective || x->fspace < 0)
        return;
    x->selected = false;
    H5Sselect_none(x->fspace);
    if (f->writing)
        H5Dwrite(x->dset, x->type, x->fspace, x->fspace, f->dxpl, buf);
    else
        H5Dread(x->dset, x->type, x->fspace, x->fspace, f->dxpl, buf);
    H5Eclear2(H5E_DEFAULT);
}

static int phdf5_transfer(struct backend_file *f, const struct plan_step *s, void *buf,
                          struct err *e)
{
    struct phdf5_var *x = &f->vars[s->var];
    f->writing = s->write;
    f->called = false;
    if (phdf5_empty(x))
        return 0;
    if (phdf5_select(f, x, s, e) < 0) {
        phdf5_join(f, x, buf);
        return -1;
    }
    herr_t rc = f->writing ? H5Dwrite(x->dset, x->type, x->mspace, x->fspace, f->dxpl, buf)
                           : H5Dread(x->dset, x->type, x->mspace, x->fspace, f->dxpl, buf);
    f->called = rc >= 0;
    return rc < 0 ? phdf5_transfer_fail(f, s, e) : 0;
}

/* The variables' steps in one H5Dwrite_multi or H5Dread_multi (HDF5 1.14);
 * steps of both directions (a read-write phase) one by one. */
static int phdf5_transfer_vars(struct backend_file *f, const struct plan_step *steps, int n,
                               void *const *bufs, struct err *e)
{
    f->called = false;
    for (int i = 1; i < n; i++)
        if (steps[i].write != steps[0].write) {
            int rc = 0;
            for (int k = 0; k < n; k++)
                rc = phdf5_transfer(f, &steps[k], bufs[k], e) < 0 ? -1 : rc;
            return rc;
        }
    f->writing = n > 0 && steps[0].write;
#if H5_VERSION_GE(1, 14, 0)
    hid_t *ids = malloc(4 * (size_t)(n > 0 ? n : 1) * sizeof *ids);
    void **mem = malloc((size_t)(n > 0 ? n : 1) * sizeof *mem);
    if (!ids || !mem) {
        free(ids);
        free(mem);
        return err_set(e, "HDF5", f->writing ? "write" : "read", f->path, -1, -1, "out of memory");
    }
    hid_t *dsets = ids, *types = ids + n, *mspaces = ids + 2 * n, *fspaces = ids + 3 * n;
    size_t count = 0;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        struct phdf5_var *x = &f->vars[steps[i].var];
        if (phdf5_empty(x))
            continue;
        rc = phdf5_select(f, x, &steps[i], e);
        dsets[count] = x->dset;
        types[count] = x->type;
        mspaces[count] = x->mspace;
        fspaces[count] = x->fspace;
        mem[count++] = bufs[i];
    }
    /* A process whose selection failed still joins a collective call,
     * selecting nothing in every dataset (phdf5_join()). */
    bool join = rc < 0 && f->collective;
    if (join)
        count = 0;
    for (int i = 0; join && i < n; i++) {
        struct phdf5_var *x = &f->vars[steps[i].var];
        if (phdf5_empty(x) || x->fspace < 0)
            continue;
        x->selected = false;
        H5Sselect_none(x->fspace);
        dsets[count] = x->dset;
        types[count] = x->type;
        mspaces[count] = fspaces[count] = x->fspace;
        mem[count++] = bufs[i];
    }
    if ((rc == 0 || join) && count > 0) {
        herr_t h = f->writing ? H5Dwrite_multi(count, dsets, types, mspaces, fspaces, f->dxpl,
                                               (const void **)mem)
                              : H5Dread_multi(count, dsets, types, mspaces, fspaces, f->dxpl, mem);
        f->called = h >= 0 && rc == 0;
        if (h < 0 && rc == 0)
            rc = phdf5_transfer_fail(f, &steps[0], e);
        if (join)
            H5Eclear2(H5E_DEFAULT);
    }
    free(ids);
    free(mem);
    return rc;
#else
    (void)steps, (void)n, (void)bufs;
    return err_set(e, "HDF5", "write", f->path, -1, -1,
                   "this HDF5 has no multi-dataset I/O (validation missed it)");
#endif
}

static void phdf5_var_release(struct phdf5_var *x)
{
    if (x->fspace >= 0)
        H5Sclose(x->fspace);
    if (x->mspace >= 0)
        H5Sclose(x->mspace);
    x->dset = x->fspace = x->mspace = H5I_INVALID_HID;
    x->selected = false;
}

static int phdf5_var_end(struct backend_file *f, struct err *e)
{
    if (f->nended >= f->nbegun)
        return 0;
    struct phdf5_var *x = &f->vars[f->order[f->nended++]];
    int rc = 0;
    if (x->dset >= 0 && H5Dclose(x->dset) < 0)
        rc = phdf5_fail(f, "close dataset", e); /* before H5Sclose clears the stack */
    phdf5_var_release(x);
    return rc;
}

/* H5Fcreate opens to read and write; the phase ended its datasets, whose
 * records serve the next phase's begins anew. */
static int phdf5_next_phase(struct backend_file *f, enum backend_mode mode, struct err *e)
{
    int rc = 0;
    while (f->nended < f->nbegun)
        if (phdf5_var_end(f, e) < 0)
            rc = -1;
    if (f->sync && H5Fflush(f->file, H5F_SCOPE_GLOBAL) < 0)
        rc = phdf5_fail(f, "flush (--fsync)", e);
    f->nbegun = f->nended = 0;
    f->sync = f->sync && mode != BACKEND_READ;
    f->mode = mode;
    return rc;
}

static int phdf5_close(struct backend_file *f, struct err *e)
{
    if (!f)
        return 0;
    int rc = 0;
    while (f->nended < f->nbegun)
        if (phdf5_var_end(f, e) < 0)
            rc = -1;
    /* Collective on every process that opened the file, like H5Fclose. */
    if (f->sync && f->file >= 0 && H5Fflush(f->file, H5F_SCOPE_GLOBAL) < 0)
        rc = phdf5_fail(f, "flush (--fsync)", e);
    if (f->file >= 0 && H5Fclose(f->file) < 0)
        rc = phdf5_fail(f, "close", e);
    if (f->dxpl >= 0)
        H5Pclose(f->dxpl);
    if (f->fapl >= 0)
        H5Pclose(f->fapl);
    free(f->vars);
    free(f->order);
    free(f);
    return rc;
}

/* Whether dataset dset holds variable v as the run reads it: its shape
 * (the guide reads a prefix of a larger kept file; the application
 * patterns the array they would have written) and, exactly, its type. */
static int phdf5_check_dataset(hid_t dset, const struct plan_var *v, bool exact, char *why,
                               size_t len)
{
    hid_t space = H5Dget_space(dset);
    hsize_t dims[MODEL_MAX_DIMS] = {0, 0, 0};
    int nd = H5Sget_simple_extent_ndims(space);
    bool bad = nd != v->ndims || H5Sget_simple_extent_dims(space, dims, NULL) < 0;
    for (int i = 0; !bad && i < nd; i++)
        bad = exact ? (int64_t)dims[i] != v->dims[i] : (int64_t)dims[i] < v->dims[i];
    H5Sclose(space);
    if (bad) {
        char need[96];
        plan_var_dims_text(v, need, sizeof need);
        if (exact)
            snprintf(why, len, "has a dataset '%s' that is not the %s array this run reads",
                     v->name, need);
        else
            snprintf(why, len, "has a dataset '%s' smaller than the %s bytes this run reads",
                     v->name, need);
        return -1;
    }
    hid_t type = exact ? H5Dget_type(dset) : H5I_INVALID_HID;
    int rc = 0;
    if (type >= 0) {
        if (H5Tequal(type, phdf5_type(v)) <= 0) {
            snprintf(why, len, "has a dataset '%s' whose elements are not the %s this run reads",
                     v->name, plan_kind_text(v->kind, v->elem));
            rc = -1;
        }
        H5Tclose(type);
    }
    return rc;
}

/* Opens the file serially (default driver) and checks every dataset. */
static int phdf5_check_source(const char *path, const struct plan *plan, char *why, size_t len)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) {
        H5Eclear2(H5E_DEFAULT);
        snprintf(why, len, "is not a readable HDF5 file");
        return -1;
    }
    int rc = 0;
    for (int d = 0; rc == 0 && d < plan->nvars; d++) {
        struct plan_var v;
        plan_var(plan, d, &v);
        hid_t dset = H5Dopen2(file, v.name, H5P_DEFAULT);
        if (dset < 0) {
            snprintf(why, len, "has no dataset '%s'", v.name);
            rc = -1;
            break;
        }
        rc = phdf5_check_dataset(dset, &v, plan->exact_source, why, len);
        H5Dclose(dset);
    }
    H5Eclear2(H5E_DEFAULT);
    H5Fclose(file);
    return rc;
}

/* HDF5 refuses a chunk of 4 GiB or more (H5Pset_chunk counts elements,
 * H5Dcreate bytes): a chunked dataset's chunk must stay below. */
static int phdf5_check(const struct backend_settings *set, const struct plan *plan,
                       const struct pattern_measure *m, char *why, size_t len)
{
    if (phdf5_driver_check(set, why, len) != 0)
        return BACKEND_REFUSED;
    for (int d = 0; d < plan->nvars; d++) {
        struct plan_var v;
        plan_var(plan, d, &v);
        if (!phdf5_chunked(&v))
            continue;
        uint64_t bytes = (uint64_t)v.elem;
        for (int i = 0; i < v.ndims; i++)
            bytes = bytes > UINT64_MAX / (uint64_t)v.chunk[i] ? UINT64_MAX
                                                              : bytes * (uint64_t)v.chunk[i];
        if (bytes <= UINT32_MAX)
            continue;
        snprintf(why, len,
                 "its chunks of %" PRIu64 " bytes are above HDF5's limit of %" PRIu32
                 " bytes per chunk; use %s",
                 bytes, UINT32_MAX, m->smaller_chunks ? m->smaller_chunks : "smaller chunks");
        return BACKEND_REFUSED_CHUNKS;
    }
    return 0;
}

static void phdf5_version(char *buf, size_t len)
{
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    snprintf(buf, len, "HDF5 %u.%u.%u", maj, min, rel);
}

/* base/iomode.h keeps HDF5's values of the actual I/O modes and of the
 * causes, without depending on HDF5. */
_Static_assert(IO_MODE_NO_COLLECTIVE == (int)H5D_MPIO_NO_COLLECTIVE &&
                   IO_MODE_CHUNK_INDEPENDENT == (int)H5D_MPIO_CHUNK_INDEPENDENT &&
                   IO_MODE_CHUNK_COLLECTIVE == (int)H5D_MPIO_CHUNK_COLLECTIVE &&
                   IO_MODE_CHUNK_MIXED == (int)H5D_MPIO_CHUNK_MIXED &&
                   IO_MODE_CONTIGUOUS_COLLECTIVE == (int)H5D_MPIO_CONTIGUOUS_COLLECTIVE,
               "base/iomode.h: enum io_mode differs from H5D_mpio_actual_io_mode_t");
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
               "base/iomode.h: IO_CAUSE_* differ from H5D_mpio_no_collective_cause_t");
/* HDF5 1.14's cause, which came with the H5D_SEL_IO_* macros. */
#ifdef H5D_SEL_IO_DISABLE_BY_API
_Static_assert((int)IO_CAUSE_NO_SELECTION_IO == (int)H5D_MPIO_NO_SELECTION_IO,
               "base/iomode.h: IO_CAUSE_NO_SELECTION_IO differs from HDF5's");
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
    .var_begin = phdf5_var_begin,
    .transfer = phdf5_transfer,
    .var_end = phdf5_var_end,
    .close = phdf5_close,
    .next_phase = phdf5_next_phase,
    .check_source = phdf5_check_source,
    .check = phdf5_check,
    .version = phdf5_version,
    .io_mode = phdf5_io_mode,
    .transfer_vars = phdf5_transfer_vars,
    .side_name = phdf5_side_name,
};
