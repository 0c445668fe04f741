/* What the HDF5 backend's files share (phdf5.c, phdf5_driver.c): an open
 * file and its variables. Internal to the backend. */
#ifndef H5PERF_PHDF5_H
#define H5PERF_PHDF5_H

#include <hdf5.h>

#include "api/hdf5_options.h"
#include "backend/backend.h"
#include "backend/err_lib.h"

/* HDF5's own settings of the run (backend_settings.api_settings): the
 * configuration's, or none given. */
static inline const struct hdf5_settings *phdf5_settings(const struct backend_settings *set)
{
    static const struct hdf5_settings none;
    return set->api_settings ? (const struct hdf5_settings *)set->api_settings : &none;
}

/* A variable begun (var_begin) and not yet ended. */
struct phdf5_var {
    struct plan_var var;
    hid_t dset, fspace, mspace, type;
    /* The hyperslab selected last (a step of one piece): a step of the
     * same shape moves it with H5Soffset_simple instead of selecting anew. */
    bool selected;
    struct model_slab sel;
};

struct backend_file {
    hid_t file, fapl, dxpl;
    MPI_Comm comm;   /* the file's processes (backend_ctx.comm) */
    bool collective; /* -C: H5Dwrite and H5Dread are collective */
    enum backend_mode mode;
    bool writing; /* the current step writes (a read-write file moves both ways) */
    const char *path;
    const struct plan *plan;
    struct phdf5_var *vars; /* [plan->nvars] */
    int *order;             /* the variables in the order begun */
    int nbegun, nended;
    bool sync; /* --fsync after a write phase: H5Fflush (MPI_File_sync) before closing */
    /* The last transfer called H5Dwrite or H5Dread (or their _multi),
     * which left what HDF5 did in dxpl (phdf5_io_mode()). */
    bool called;
    bool subfiled; /* opened with the subfiling driver */
};

/* Records the HDF5 error stack as f's error (err_hdf5()). Returns -1.
 * Call it before any cleanup: every HDF5 API call, H5Pclose and H5Sclose
 * included, clears the stack first. */
static inline int phdf5_fail(struct backend_file *f, const char *op, struct err *e)
{
    return err_hdf5(e, op, f->path, -1, -1);
}

/* Sets the file driver of f->fapl for the run point's variant: MPI-IO, or
 * subfiling with its stripe and I/O concentrators. Returns 0, or -1 with e. */
int phdf5_driver(struct backend_file *f, const struct backend_ctx *ctx, struct err *e);

/* backend_ops.side_name: the subfiles' and configuration file's prefix. */
void phdf5_side_name(struct backend_file *f, char *buf, size_t len);

/* What the subfiling driver cannot do with these settings (its
 * environment), into why; 0 when nothing. */
int phdf5_driver_check(const struct backend_settings *set, char *why, size_t len);

/* A simple dataspace of ndims dimensions of dims (phdf5_select.c). */
hid_t phdf5_space(int ndims, const int64_t *dims);

/* Selects step s of variable x in its file dataspace and makes its memory
 * dataspace (phdf5_select.c). Returns 0, or -1 with e. */
int phdf5_select(struct backend_file *f, struct phdf5_var *x, const struct plan_step *s,
                 struct err *e);

#endif
