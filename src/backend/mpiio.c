/* MPI-IO backend: a step of one contiguous run moves at its offset
 * (independent, or the _all call); a step of several runs moves either run
 * by run at explicit offsets (independent I/O of the guide's patterns, as
 * the original) or in one call through a file view (docs/design.md, "MPI-IO
 * views"): one tiled view per variable when every step is the first moved
 * by a constant (the guide's 1D), one view of the process's whole selection
 * per variable when the steps are ranges of it (a subarray of an array in C
 * order), else a view per step. A variable without a view first puts the
 * default view back when one before it left its own. The joined variant
 * (--mpiio.joined) sets, per step index, one view joining every variable's
 * step and moves them in one call (docs/mpiio.md). Every return code and
 * byte count is checked (ompio returns success with a short count on a full
 * disk). Must not print, time or exit. */
#include "backend/backend.h"

#include "api/mpiio_options.h"
#include "backend/err_lib.h"
#include "backend/mpiio_types.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mpiio_view { VIEW_NONE = 0, VIEW_TILED, VIEW_WHOLE, VIEW_STEP };

struct backend_file {
    MPI_File fh;
    enum backend_mode mode;
    bool writing; /* the current step writes (a read-write file moves both ways) */
    bool collective;
    bool joined; /* the joined variant, of a file of several variables */
    bool sync;   /* --fsync */
    MPI_Info info;
    bool own_info; /* info is this file's own (mpiio_hints()), freed at its close */
    const char *path;
    const struct plan *plan;
    struct plan_access acc; /* the current variable's (whole points into it when local) */
    int var;
    enum mpiio_view view;
    bool view_set;   /* the variable's view is in place */
    bool view_tried; /* the tiled view was built (or failed to be) */
    /* A variable before this one set (or was to set) a view of its own:
     * the file's view is not the default one. The same on every process of
     * the file, as the views' kinds are (docs/design.md, "MPI-IO views"). */
    bool view_left;
    MPI_Datatype etype; /* the view's elementary type (MPI_BYTE, or an element) */
    MPI_Datatype filetype;
    MPI_Datatype piece; /* a run of a tiled view; the joined variant's memory type */
    /* The nonblocking transfers started (0: a write, 1: a read) and not
     * completed: their requests, offsets and lengths (mpiio_start). */
    MPI_Request req[2];
    bool pending[2];
    int64_t pending_off[2], pending_len[2];
};

static void mpiio_free_type(MPI_Datatype *t)
{
    if (*t != MPI_DATATYPE_NULL && *t != MPI_BYTE)
        MPI_Type_free(t);
    *t = MPI_DATATYPE_NULL;
}

static void mpiio_free_types(struct backend_file *f)
{
    mpiio_free_type(&f->filetype);
    mpiio_free_type(&f->piece);
    mpiio_free_type(&f->etype);
}

/* Whether some step of plan (of a shared file only, with shared) is one
 * that want() accepts. */
static bool mpiio_plan_any(const struct plan *plan, bool shared,
                           bool (*want)(const struct plan_step *s))
{
    for (int ph = 0; !(shared && plan->per_process) && ph < plan->nphases; ph++)
        for (int v = 0; v < plan->nvars; v++) {
            struct plan_access acc;
            plan_access(plan, ph, v, &acc);
            for (int64_t k = 0; k < acc.nsteps; k++) {
                struct plan_step s;
                plan_step(plan, ph, v, k, &s);
                if (want(&s))
                    return true;
            }
        }
    return false;
}

/* A pause between transfers (busy work, a barrier, a token: the madbench
 * pattern's). */
static bool mpiio_step_pause(const struct plan_step *s)
{
    return s->kind != PLAN_STEP_IO;
}

/* Processes taking turns: a token passed between the steps, in groups of
 * more than one process (MADbench2's --read-mod and --write-mod above 1). */
static bool mpiio_step_turns(const struct plan_step *s)
{
    return s->kind == PLAN_STEP_TOKEN_WAIT && s->turns != 1;
}

/* The hints a file is opened with: the given ones (HDF5_MPI_INFO), and,
 * for the joined variant of a plan with pauses (the madbench pattern),
 * ROMIO's data sieving for writes off unless the given hints name it. Its
 * joined view over MADbench2's slots leaves holes no process writes, which
 * ROMIO's data sieving would fill past the end of the file with stale
 * bytes of its buffer (docs/mpiio.md, "Joined calls"); off, ROMIO writes
 * each share's bytes alone, as MADbench2 does. Other MPI-IO libraries
 * ignore the hint. */
static void mpiio_hints(struct backend_file *f, MPI_Info given)
{
    f->info = given;
    f->own_info = false;
    if (!f->joined || !mpiio_plan_any(f->plan, false, mpiio_step_pause))
        return;
    /* Whether the given hints name it (by key: MPI_Info_get is deprecated
     * in MPI 4 and MPI_Info_get_string is not in MPI 3.1). */
    int nkeys = 0;
    if (given != MPI_INFO_NULL && MPI_Info_get_nkeys(given, &nkeys) != MPI_SUCCESS)
        return;
    for (int k = 0; k < nkeys; k++) {
        char key[MPI_MAX_INFO_KEY + 1];
        if (MPI_Info_get_nthkey(given, k, key) != MPI_SUCCESS || strcmp(key, "romio_ds_write") == 0)
            return;
    }
    MPI_Info own = MPI_INFO_NULL;
    if ((given != MPI_INFO_NULL ? MPI_Info_dup(given, &own) : MPI_Info_create(&own)) != MPI_SUCCESS)
        return;
    if (MPI_Info_set(own, "romio_ds_write", "disable") != MPI_SUCCESS) {
        MPI_Info_free(&own);
        return;
    }
    f->info = own;
    f->own_info = true;
}

static void mpiio_free_hints(struct backend_file *f)
{
    if (f->own_info)
        MPI_Info_free(&f->info);
    f->own_info = false;
}

/* The backend_file is allocated before the collective MPI_File_open, so that
 * no process fails after the open and is left to close the file alone
 * (MPI_File_close is collective). A failed calloc still skips the open on
 * that process only (agreeing on it first would add a collective to every
 * timed open; the engine's watchdog ends a run left waiting in it). A later
 * failure (truncation) returns the open file in *out for the engine to close
 * collectively. */
static int mpiio_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                      enum backend_mode mode, bool may_truncate, const struct plan *plan,
                      struct err *e)
{
    *out = NULL;
    const char *op = mode == BACKEND_WRITE ? "create" : "open";
    struct backend_file *f = calloc(1, sizeof *f);
    if (!f)
        return err_set(e, "MPI-IO", op, path, -1, -1, "out of memory");
    f->mode = mode;
    f->collective = ctx->set->collective;
    f->joined = ctx->set->variant == MPIIO_JOINED && plan->nvars > 1;
    f->sync = ctx->set->fsync;
    f->path = path;
    f->plan = plan;
    mpiio_hints(f, ctx->info);
    f->etype = f->filetype = f->piece = MPI_DATATYPE_NULL;
    int amode = MPI_MODE_RDONLY;
    if (mode == BACKEND_WRITE)
        amode = MPI_MODE_CREATE | MPI_MODE_RDWR | (may_truncate ? 0 : MPI_MODE_EXCL);
    else if (mode == BACKEND_REWRITE)
        amode = MPI_MODE_RDWR;
    int rc = MPI_File_open(ctx->comm, path, amode, f->info, &f->fh);
    if (rc != MPI_SUCCESS) {
        mpiio_free_hints(f);
        free(f);
        return err_mpi(e, op, path, -1, -1, rc);
    }
    *out = f;
    /* --mpiio.atomic (docs/mpiio.md, "Atomic mode"), in the settings
     * MPI-IO's backend alone casts: collective, as the open, and before the
     * truncation, which may fail on one process only. */
    const struct mpiio_settings *own = ctx->set->api_settings;
    if (own && own->atomic) {
        rc = MPI_File_set_atomicity(f->fh, 1);
        if (rc != MPI_SUCCESS)
            return err_mpi(e, "set atomicity", path, -1, -1, rc);
    }
    if (mode == BACKEND_WRITE && may_truncate) {
        rc = MPI_File_set_size(f->fh, 0);
        if (rc != MPI_SUCCESS)
            return err_mpi(e, "truncate", path, -1, -1, rc);
    }
    return 0;
}

/* The whole selection of a box of an array stored in C order: a subarray
 * of elements (the array's dimensions fit in ints: check()). */
static int mpiio_subarray(struct backend_file *f, const struct plan_var *v,
                          const struct model_slab *s)
{
    int sizes[MODEL_MAX_DIMS], sub[MODEL_MAX_DIMS], starts[MODEL_MAX_DIMS];
    for (int d = 0; d < s->ndims; d++) {
        sizes[d] = (int)v->dims[d];
        sub[d] = (int)(s->count[d] * s->block[d]);
        starts[d] = (int)s->start[d];
    }
    int rc = MPI_Type_contiguous(v->elem, MPI_BYTE, &f->etype);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->etype);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_subarray(s->ndims, sizes, sub, starts, MPI_ORDER_C, f->etype,
                                      &f->filetype);
    return rc;
}

/* Collective: sets the view of disp, etype and filetype when building its
 * types succeeded (built: their rc), and records it in view_set. A
 * process whose types failed still joins the call, with the default view,
 * and fails ("datatype"): MPI_File_set_view is collective. */
static int mpiio_set_view(struct backend_file *f, int built, int64_t disp, struct err *e)
{
    if (built != MPI_SUCCESS) {
        err_mpi(e, "datatype", f->path, -1, -1, built);
        mpiio_free_types(f);
        MPI_File_set_view(f->fh, 0, MPI_BYTE, MPI_BYTE, "native", f->info);
        return -1;
    }
    int rc = MPI_File_set_view(f->fh, (MPI_Offset)disp, f->etype, f->filetype, "native", f->info);
    f->view_set = rc == MPI_SUCCESS;
    return f->view_set ? 0 : err_mpi(e, "set view", f->path, disp, -1, rc);
}

/* Collective: the view of the variable's whole selection, set once. */
static int mpiio_whole_view(struct backend_file *f, struct err *e)
{
    const struct model_slab *sl = plan_whole_slabs(&f->acc);
    const struct model_runs *runs = plan_whole_runs(&f->acc);
    int64_t disp = f->acc.array_base;
    int rc;
    struct plan_var v;
    plan_var(f->plan, f->var, &v);
    if (disp >= 0 && f->acc.nwhole == 1 && model_slab_elems(&sl[0]) > 0) {
        rc = mpiio_subarray(f, &v, &sl[0]);
    } else {
        disp = f->acc.nwhole_runs > 0 ? runs[0].disp : 0;
        f->etype = MPI_BYTE;
        rc = mpiio_runs_types(runs, f->acc.nwhole_runs, disp, &f->filetype);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->filetype);
    return mpiio_set_view(f, rc, disp, e);
}

/* Collective, when a variable before left its view (view_left): the
 * default view back, for a variable moved at explicit byte offsets. */
static int mpiio_default_view(struct backend_file *f, struct err *e)
{
    if (!f->view_left)
        return 0;
    f->view_left = false;
    int rc = MPI_File_set_view(f->fh, 0, MPI_BYTE, MPI_BYTE, "native", f->info);
    return rc == MPI_SUCCESS ? 0 : err_mpi(e, "set view", f->path, 0, -1, rc);
}

static int mpiio_var_begin(struct backend_file *f, int var, const struct plan_access *acc,
                           struct err *e)
{
    f->acc = *acc;
    f->var = var;
    f->view_set = f->view_tried = false;
    mpiio_free_types(f);
    f->view = VIEW_NONE;
    /* The joined variant sets a view per step index, over the variables
     * (mpiio_transfer_vars). */
    if (f->joined) {
        f->view_left = true;
        return 0;
    }
    if (!acc->view_any || (!f->collective && acc->split_runs))
        return mpiio_default_view(f, e);
    f->view_left = true;
    if (acc->tile > 0) {
        f->view = VIEW_TILED;
        return 0;
    }
    if (acc->nwhole > 0) {
        f->view = VIEW_WHOLE;
        return mpiio_whole_view(f, e);
    }
    f->view = VIEW_STEP;
    return 0;
}

/* Checks rc and the number of bytes actually moved: `count` items of `type`
 * must be `bytes` bytes. */
static int mpiio_check(struct backend_file *f, int rc, MPI_Status *st, MPI_Datatype type,
                       int64_t off, int64_t bytes, struct err *e)
{
    const char *op = f->writing ? "write" : "read";
    if (rc != MPI_SUCCESS)
        return err_mpi(e, op, f->path, off, bytes, rc);
    MPI_Count n = 0;
    /* The basic elements of a derived type of bytes: bytes. */
    rc = MPI_Get_elements_x(st, type, &n);
    if (rc != MPI_SUCCESS)
        return err_mpi(e, op, f->path, off, bytes, rc);
    if ((int64_t)n != bytes)
        return err_set(e, "MPI-IO", op, f->path, off, bytes, "short %s: %lld of %lld bytes (%s)",
                       op, (long long)n, (long long)bytes,
                       f->writing ? "file system full?" : "file too short?");
    return 0;
}

/* The status starts at no element moved: ROMIO returns from a call of
 * nothing without setting it, and mpiio_check() must not read what the
 * stack held before. */
static int mpiio_at(struct backend_file *f, MPI_Offset off, void *buf, int count, MPI_Datatype type,
                    bool all, MPI_Status *st)
{
    MPI_Status_set_elements_x(st, MPI_BYTE, 0);
    if (f->writing)
        return all ? MPI_File_write_at_all(f->fh, off, buf, count, type, st)
                   : MPI_File_write_at(f->fh, off, buf, count, type, st);
    return all ? MPI_File_read_at_all(f->fh, off, buf, count, type, st)
               : MPI_File_read_at(f->fh, off, buf, count, type, st);
}

/* A process that cannot make its transfer still joins the others' call
 * when it is collective, moving nothing, so that they are not left
 * waiting in it; an independent one it skips. Returns rc. */
static int mpiio_join(struct backend_file *f, void *buf, int rc)
{
    MPI_Status st;
    if (f->collective)
        mpiio_at(f, 0, buf, 0, MPI_BYTE, true, &st);
    return rc;
}

/* The types of the tiled view, from the runs r of the first step, whose
 * extent is the tile: piece, a run of len bytes, count[1] of them
 * stride[1] apart. */
static int mpiio_tiled_types(struct backend_file *f, const struct model_runs *r)
{
    MPI_Datatype vec = MPI_DATATYPE_NULL;
    f->etype = MPI_BYTE;
    int rc = MPI_Type_contiguous((int)r->len, MPI_BYTE, &f->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_hvector((int)r->count[1], 1, (MPI_Aint)r->stride[1], f->piece, &vec);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_resized(vec, 0, (MPI_Aint)f->acc.tile, &f->filetype);
    if (vec != MPI_DATATYPE_NULL)
        MPI_Type_free(&vec);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->filetype);
    return rc;
}

/* The tiled view (set at the first step, collectively; view_tried): step
 * k is k step's bytes into it, count runs of len bytes. A process without
 * the view moves nothing (mpiio_join). */
static int mpiio_transfer_tiled(struct backend_file *f, const struct plan_step *s, void *buf,
                                struct err *e)
{
    const struct model_runs *r = &plan_runs(s)[0];
    MPI_Status st;
    if (!f->view_tried) {
        f->view_tried = true;
        mpiio_set_view(f, mpiio_tiled_types(f, r), r->disp, e);
    }
    if (!f->view_set)
        return mpiio_join(f, buf, -1);
    /* count runs (not count * len bytes, which may pass INT_MAX): check()
     * keeps both below INT_MAX. */
    int rc = mpiio_at(f, (MPI_Offset)(s->index * s->bytes), buf, (int)r->count[1], f->piece,
                      f->collective, &st);
    return mpiio_check(f, rc, &st, f->piece, r->disp, r->count[1] * r->len, e);
}

/* A view of this step alone, at its first run: its runs, count runs of
 * len bytes for one model_runs (piece), else bytes. Every type is built
 * before the collective MPI_File_set_view, which a process whose types
 * failed joins with the default view, then moving nothing. */
static int mpiio_transfer_step_view(struct backend_file *f, const struct plan_step *s, void *buf,
                                    struct err *e)
{
    const struct model_runs *runs = plan_runs(s);
    int64_t disp = s->nruns > 0 ? runs[0].disp : 0;
    bool uniform = s->nruns == 1;
    MPI_Status st;
    mpiio_free_types(f);
    f->etype = MPI_BYTE;
    int rc = mpiio_runs_types(runs, s->nruns, disp, &f->filetype);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&f->filetype);
    if (rc == MPI_SUCCESS && uniform)
        rc = MPI_Type_contiguous((int)runs[0].len, MPI_BYTE, &f->piece);
    if (rc == MPI_SUCCESS && uniform)
        rc = MPI_Type_commit(&f->piece);
    f->view_set = false;
    if (mpiio_set_view(f, rc, disp, e) < 0)
        return mpiio_join(f, buf, -1);
    int64_t count = uniform ? runs[0].count[0] * runs[0].count[1] : s->bytes;
    MPI_Datatype type = uniform ? f->piece : MPI_BYTE;
    rc = mpiio_at(f, 0, buf, (int)count, type, f->collective, &st);
    return mpiio_check(f, rc, &st, type, disp, s->bytes, e);
}

/* Without a view: the step's runs at their offsets, one call per run
 * (independent I/O that splits runs, the guide's original calls), else in
 * one call. No process of the file then has a selection of several runs
 * (view_any), so a step's runs follow one another in the file (a
 * selection cut by --transfer-size into boxes of a few runs each): one
 * call moves them, as one call on every process must with -C. A step
 * without runs still makes its call, which a collective one needs. */
static int mpiio_transfer_runs(struct backend_file *f, const struct plan_step *s, void *buf,
                               struct err *e)
{
    MPI_Status st;
    int64_t nruns = plan_step_runs(s);
    bool split = !f->collective && f->acc.split_runs;
    int64_t off = s->nruns > 0 ? plan_runs(s)[0].disp : 0, len = 0;
    for (int64_t i = 0; i < nruns; i++) {
        int64_t o, n;
        plan_step_run(s, i, &o, &n);
        if (i == 0)
            off = o;
        else if (!split && o != off + len)
            return mpiio_join(f, buf,
                              err_set(e, "MPI-IO", f->writing ? "write" : "read", f->path, o, n,
                                      "a step of separate runs without a file view"));
        if (split) {
            int rc = mpiio_at(f, (MPI_Offset)o, (unsigned char *)buf + len, (int)n, MPI_BYTE, false,
                              &st);
            if (mpiio_check(f, rc, &st, MPI_BYTE, o, n, e) < 0)
                return -1;
        }
        len += n;
    }
    if (split && nruns > 0)
        return 0;
    int rc = mpiio_at(f, (MPI_Offset)off, buf, (int)len, MPI_BYTE, f->collective, &st);
    return mpiio_check(f, rc, &st, MPI_BYTE, off, len, e);
}

/* A nonblocking step (docs/madbench.md, "Asynchronous I/O"): its one run
 * started with MPI_File_iwrite_at or iread_at at its byte offset, in the
 * default view, completed by mpiio_wait. Independent calls only: the
 * pattern refuses -C with it. */
static int mpiio_start(struct backend_file *f, const struct plan_step *s, void *buf, struct err *e)
{
    int w = s->write ? 0 : 1;
    int64_t off = 0, len = 0;
    if (plan_step_runs(s) == 1)
        plan_step_run(s, 0, &off, &len);
    if (f->view != VIEW_NONE || f->collective || plan_step_runs(s) > 1 || f->pending[w])
        return err_set(e, "MPI-IO", s->write ? "write" : "read", f->path, off, len,
                       "a nonblocking step must be one independent run in the default view, "
                       "with no other of its direction under way");
    int rc = s->write ? MPI_File_iwrite_at(f->fh, off, buf, (int)len, MPI_BYTE, &f->req[w])
                      : MPI_File_iread_at(f->fh, off, buf, (int)len, MPI_BYTE, &f->req[w]);
    if (rc != MPI_SUCCESS)
        return err_mpi(e, s->write ? "write" : "read", f->path, off, len, rc);
    f->pending[w] = true;
    f->pending_off[w] = off;
    f->pending_len[w] = len;
    return 0;
}

/* Completes the nonblocking transfer of s's direction, if one is under
 * way, and checks the bytes it moved. */
static int mpiio_wait(struct backend_file *f, const struct plan_step *s, struct err *e)
{
    int w = s->write ? 0 : 1;
    if (!f || !f->pending[w])
        return 0;
    f->pending[w] = false;
    f->writing = s->write;
    MPI_Status st;
    MPI_Status_set_elements_x(&st, MPI_BYTE, 0);
    int rc = MPI_Wait(&f->req[w], &st);
    return mpiio_check(f, rc, &st, MPI_BYTE, f->pending_off[w], f->pending_len[w], e);
}

static int mpiio_transfer(struct backend_file *f, const struct plan_step *s, void *buf,
                          struct err *e)
{
    f->writing = s->write;
    if (s->nonblocking)
        return mpiio_start(f, s, buf, e);
    MPI_Status st;
    const struct model_runs *runs = plan_runs(s);
    if (f->view == VIEW_TILED)
        return mpiio_transfer_tiled(f, s, buf, e);
    if (f->view == VIEW_STEP)
        return mpiio_transfer_step_view(f, s, buf, e);
    if (f->view == VIEW_WHOLE) {
        if (!f->view_set)
            return -1; /* var_begin failed, every process agreed: no one is here */
        /* Offsets in a view count its elementary type: an element of a
         * subarray, else bytes. */
        int size = 1;
        if (f->etype != MPI_BYTE)
            MPI_Type_size(f->etype, &size);
        int rc = mpiio_at(f, (MPI_Offset)(s->mem_off / size), buf, (int)s->bytes, MPI_BYTE,
                          f->collective, &st);
        return mpiio_check(f, rc, &st, MPI_BYTE, s->nruns > 0 ? runs[0].disp : 0, s->bytes, e);
    }
    return mpiio_transfer_runs(f, s, buf, e);
}

/* The joined variant (docs/mpiio.md, "Joined calls"): the n steps (each of
 * another variable, begun) through one view joining them, set
 * collectively, and one call (the _all one with -C) of one memory type
 * over their buffers. A process whose types failed joins the view with the
 * default one and the collective call moving nothing (mpiio_set_view,
 * mpiio_join). Without a variable to join, the plain call. */
static int mpiio_transfer_vars(struct backend_file *f, const struct plan_step *steps, int n,
                               void *const *bufs, struct err *e)
{
    if (n == 0)
        return 0;
    if (!f->joined)
        return mpiio_transfer(f, &steps[0], bufs[0], e);
    f->writing = steps[0].write;
    mpiio_free_types(f);
    int64_t disp, bytes;
    f->etype = MPI_BYTE;
    int rc = mpiio_joined_types(steps, n, bufs, &f->filetype, &f->piece, &disp, &bytes);
    f->view_set = false;
    if (mpiio_set_view(f, rc, disp, e) < 0)
        return mpiio_join(f, bufs[0], -1);
    MPI_Status st;
    rc = mpiio_at(f, 0, bufs[0], bytes > 0, f->piece, f->collective, &st);
    return mpiio_check(f, rc, &st, f->piece, disp, bytes, e);
}

static int mpiio_var_end(struct backend_file *f, struct err *e)
{
    (void)e;
    mpiio_free_types(f);
    f->view = VIEW_NONE;
    f->view_set = false;
    return 0;
}

/* Opened with MPI_MODE_RDWR (a create or a rewrite); a phase leaves no
 * transfer under way and every variable's view ended. */
static int mpiio_next_phase(struct backend_file *f, enum backend_mode mode, struct err *e)
{
    int rc = MPI_SUCCESS;
    if (f->mode != BACKEND_READ && f->sync)
        rc = MPI_File_sync(f->fh);
    f->mode = mode;
    return rc != MPI_SUCCESS ? err_mpi(e, "flush (--fsync)", f->path, -1, -1, rc) : 0;
}

static int mpiio_close(struct backend_file *f, struct err *e)
{
    if (!f)
        return 0;
    mpiio_free_types(f);
    /* What a failed phase left under way ends before the file does. */
    for (int w = 0; w < 2; w++)
        if (f->pending[w])
            MPI_Wait(&f->req[w], MPI_STATUS_IGNORE);
    const char *path = f->path;
    int synced = 0;
    /* --fsync: collective like the close that follows, on every process. */
    if (f->mode != BACKEND_READ && f->sync) {
        int rc = MPI_File_sync(f->fh);
        if (rc != MPI_SUCCESS)
            synced = err_mpi(e, "flush (--fsync)", path, -1, -1, rc);
    }
    int rc = MPI_File_close(&f->fh);
    mpiio_free_hints(f);
    free(f);
    return rc != MPI_SUCCESS ? err_mpi(e, "close", path, -1, -1, rc) : synced;
}

/* A view of a box of an array in C order is a subarray, whose dimensions
 * are ints; and a run or a call's runs are counted in ints. The joined
 * variant's independent calls follow a view set collectively at every step
 * index, which processes taking turns do not reach together. */
static int mpiio_check_plan(const struct backend_settings *set, const struct plan *plan,
                            const struct pattern_measure *m, char *why, size_t len)
{
    if (set->variant == MPIIO_JOINED && !set->collective && plan->nvars > 1 &&
        mpiio_plan_any(plan, true, mpiio_step_turns)) {
        snprintf(why, len,
                 "--mpiio.joined sets a file view at every step, collectively, which processes "
                 "taking turns (--read-mod, --write-mod above 1) do not reach together; give -C "
                 "or turns of 1");
        return -1;
    }
    struct plan_access acc;
    plan_access(plan, 0, 0, &acc);
    if (m->views && acc.array_base >= 0 && acc.nwhole > 0) {
        struct plan_var v;
        plan_var(plan, 0, &v);
        for (int d = 0; d < v.ndims; d++)
            if (v.dims[d] > INT_MAX) {
                snprintf(why, len,
                         "dimension %d of %" PRId64 " elements is above the %d elements of an "
                         "MPI subarray; use --layout chunked or fpp",
                         d + 1, v.dims[d], INT_MAX);
                return -1;
            }
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
    .var_begin = mpiio_var_begin,
    .transfer = mpiio_transfer,
    .wait = mpiio_wait,
    .transfer_vars = mpiio_transfer_vars,
    .var_end = mpiio_var_end,
    .close = mpiio_close,
    .next_phase = mpiio_next_phase,
    .check_source = backend_check_flat,
    .check = mpiio_check_plan,
    .version = mpiio_version,
};
