/* PnetCDF backend (docs/pnetcdf.md): CDF-5 files of netCDF variables of the
 * plan's shape, named like the HDF5 datasets without their groups
 * (Dataset_1.., v0.., the particles' x, y, ...), all defined at the first
 * variable of a written file; a step's slabs as subarrays, moved by
 * ncmpi_put_vara/get_vara (one) or the varn calls (several: the guide's
 * interleaved 1D blocks, a --transfer-size range of a block), independent
 * data mode or the collective _all calls (-C); in the nonblocking variant
 * (api/pnetcdf_options.h), step k of every variable posted by the
 * nonblocking calls and completed by one wait. A process whose local
 * preparation of a collective call fails stays in step with the others
 * (docs/design.md, "Collective calls after a local failure"). Must not
 * print, time or exit. */
#include "api/pnetcdf_options.h"
#include "backend/err_lib.h"
#include "backend/pnetcdf.h"

#include <inttypes.h>
#include <limits.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A variable begun, kept for the nonblocking variant, which begins every
 * variable before the first step (docs/design.md, "Moving every variable
 * in one call"). */
struct pncdf_var {
    struct plan_var var;
    int varid;
    MPI_Datatype mtype;
    bool varn;
};

struct backend_file {
    int ncid;
    bool open;    /* ncid is an open file */
    bool defined; /* out of define mode (a read, or after the first dataset) */
    bool indep;   /* in independent data mode */
    /* The definitions failed on some process: the file is left with
     * ncmpi_abort, never ended (its processes' headers differ). */
    bool abandoned;
    bool collective, sync;
    MPI_Comm comm; /* the file's processes */
    enum backend_mode mode;
    bool writing; /* the current step writes (a read-write file moves both ways) */
    const char *path;
    const struct plan *plan;
    MPI_Info info;       /* a copy of the run's hints with PnetCDF's alignment, or MPI_INFO_NULL */
    struct plan_var var; /* the current variable */
    int varid;
    MPI_Datatype mtype;
    bool varn; /* every step of the variable as a list (plan_access.slabs_any) */
    /* The current step's subarrays: n of them, each of ndims starts and
     * counts, in room for cap. */
    int npieces, cap;
    MPI_Offset *starts, *counts, **start_ptrs, **count_ptrs;
    /* The pattern's storage they were made from (plan.h: unchanged while
     * the plan lives), its slabs and the variable's dimensions; NULL: a
     * step's own slabs. A step of the same slabs takes them as they are:
     * the variables of one decomposition share one list, as E3SM-IO's
     * do (docs/map.md, "Against E3SM-IO"). */
    const struct model_slab *from;
    int from_n, from_nd;
    /* The nonblocking variant: every variable begun, by number; per posted
     * request (at most one per variable) its id, its status and its step
     * among the call's. NULL in the blocking one. */
    struct pncdf_var *vars;
    int *reqs, *statuses, *req_step;
    /* The nonblocking steps started (0: a write, 1: a read) and not
     * completed: their request ids (pncdf_start). */
    int started[2];
    bool pending[2];
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

/* The file's record, and the nonblocking variant's arrays; -1 with e
 * when out of memory (*out then what was allocated, or NULL). Local. */
static int pncdf_alloc(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                       const struct plan *plan, struct err *e)
{
    struct backend_file *f = *out = calloc(1, sizeof *f);
    if (!f)
        return err_set(e, "PnetCDF", "open", path, -1, -1, "out of memory");
    f->info = MPI_INFO_NULL;
    if (ctx->set->variant == PNETCDF_NONBLOCKING) {
        size_t n = (size_t)(plan->nvars > 0 ? plan->nvars : 1);
        f->vars = calloc(n, sizeof *f->vars);
        f->reqs = calloc(3 * n, sizeof *f->reqs);
        if (!f->vars || !f->reqs)
            return err_set(e, "PnetCDF", "open", path, -1, -1, "out of memory");
        f->statuses = f->reqs + n;
        f->req_step = f->reqs + 2 * n;
    }
    return 0;
}

/* ncmpi_create and ncmpi_open are collective: a process whose record or
 * hints failed still agrees with the others before them
 * (backend_all_ready()), and then no process makes the call. */
static int pncdf_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                      enum backend_mode mode, bool may_truncate, const struct plan *plan,
                      struct err *e)
{
    struct backend_file *f = NULL;
    bool ready = pncdf_alloc(&f, ctx, path, plan, e) == 0;
    *out = NULL;
    if (ready) {
        f->mode = mode;
        f->path = path;
        f->collective = ctx->set->collective;
        f->sync = mode != BACKEND_READ && ctx->set->fsync;
        f->plan = plan;
        f->comm = ctx->comm;
        ready = pncdf_hints(f, ctx, e) == 0;
    }
    if (!backend_all_ready(ctx->comm, ready)) {
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
        rc = ncmpi_open(ctx->comm, path, mode == BACKEND_REWRITE ? NC_WRITE : NC_NOWRITE, info,
                        &f->ncid);
    f->open = rc == NC_NOERR;
    /* Reading or rewriting: the variables are there. */
    f->defined = f->open && mode != BACKEND_WRITE;
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

/* The dimensions of variable v: those of the first variable when it has
 * the same shape (every pattern so far: "dim0".. as before), else its own
 * ("<name>_dim0"..). */
static int pncdf_def_dims(struct backend_file *f, const struct plan_var *v,
                          const struct plan_var *first, const int *first_ids, int *ids)
{
    bool same = v->ndims == first->ndims;
    for (int d = 0; same && d < v->ndims; d++)
        same = v->dims[d] == first->dims[d];
    int rc = NC_NOERR;
    for (int d = 0; rc == NC_NOERR && d < v->ndims; d++) {
        char name[PLAN_NAME_MAX + 16];
        if (same && first_ids) {
            ids[d] = first_ids[d];
            continue;
        }
        /* A length of 0 is netCDF's unlimited dimension, of which a file
         * has one: every empty variable (a file per process of a process
         * without some of the data) shares it. */
        int unlimited = -1;
        if (v->dims[d] == 0 && ncmpi_inq_unlimdim(f->ncid, &unlimited) == NC_NOERR &&
            unlimited >= 0) {
            ids[d] = unlimited;
            continue;
        }
        if (first_ids)
            snprintf(name, sizeof name, "%s_dim%d", plan_var_leaf(v), d);
        else
            snprintf(name, sizeof name, "dim%d", d);
        rc = ncmpi_def_dim(f->ncid, name, (MPI_Offset)v->dims[d], &ids[d]);
    }
    return rc;
}

/* Collective: the file's dimensions and every variable, then data mode
 * (independent unless -C). netCDF defines a file's variables before any
 * data: defining them one by one would rewrite the header, and move the
 * data after it, at every variable. The definitions are local and
 * ncmpi_enddef collective: a process whose definitions failed still
 * agrees with the others before it (backend_all_ready()); then no process
 * ends define mode, and the file, whose headers differ, is abandoned
 * (pncdf_close()). */
static int pncdf_define(struct backend_file *f, struct err *e)
{
    int first_ids[MODEL_MAX_DIMS], ids[MODEL_MAX_DIMS], rc = NC_NOERR;
    struct plan_var first;
    plan_var(f->plan, 0, &first);
    for (int v = 0; rc == NC_NOERR && v < f->plan->nvars; v++) {
        struct plan_var var;
        MPI_Datatype mem;
        int varid;
        if (v == 0)
            var = first;
        else
            plan_var(f->plan, v, &var);
        rc = pncdf_def_dims(f, &var, &first, v == 0 ? NULL : first_ids, v == 0 ? first_ids : ids);
        if (rc == NC_NOERR)
            rc = ncmpi_def_var(f->ncid, plan_var_leaf(&var), pncdf_type(&var, &mem), var.ndims,
                               v == 0 ? first_ids : ids, &varid);
    }
    if (rc != NC_NOERR)
        pncdf_err(e, "define variables", f->path, -1, rc);
    if (!backend_all_ready(f->comm, rc == NC_NOERR)) {
        f->abandoned = true;
        return -1;
    }
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
    f->npieces = f->cap = 0;
    f->from = NULL;
}

/* Room for n subarrays of the current variable. */
static int pncdf_room(struct backend_file *f, int n, struct err *e)
{
    if (n <= f->cap)
        return 0;
    pncdf_free_pieces(f);
    size_t cells = (size_t)n * MODEL_MAX_DIMS;
    f->starts = calloc(cells, sizeof *f->starts);
    f->counts = calloc(cells, sizeof *f->counts);
    f->start_ptrs = calloc((size_t)n, sizeof *f->start_ptrs);
    f->count_ptrs = calloc((size_t)n, sizeof *f->count_ptrs);
    if (!f->starts || !f->counts || !f->start_ptrs || !f->count_ptrs)
        return err_set(e, "PnetCDF", "begin variable", f->path, -1, -1, "out of memory");
    for (int p = 0; p < n; p++) {
        f->start_ptrs[p] = f->starts + (size_t)p * MODEL_MAX_DIMS;
        f->count_ptrs[p] = f->counts + (size_t)p * MODEL_MAX_DIMS;
    }
    f->cap = n;
    return 0;
}

/* A slab that is not contiguous along dimension 0 (blocks apart) moves as
 * one subarray per block; check() refused any other shape, so the
 * subarrays in order take the buffer in the order HDF5's selection does. */
static bool pncdf_split(const struct model_slab *s)
{
    return s->count[0] > 1 && s->stride[0] != s->block[0];
}

/* Step s's slabs, of a variable of nd dimensions, as subarrays; an empty
 * step as one of no element. */
static int pncdf_pieces(struct backend_file *f, const struct plan_step *s, int nd, struct err *e)
{
    const struct model_slab *all = plan_slabs(s);
    if (s->slabs && s->slabs == f->from && s->nslabs == f->from_n && nd == f->from_nd)
        return 0;
    f->from = NULL;
    int n = 0;
    for (int i = 0; i < s->nslabs; i++)
        n += pncdf_split(&all[i]) ? (int)all[i].count[0] : 1;
    if (pncdf_room(f, n > 0 ? n : 1, e) < 0)
        return -1;
    int at = 0;
    for (int i = 0; i < s->nslabs; i++) {
        const struct model_slab *sl = &all[i];
        bool split = pncdf_split(sl);
        for (int64_t b = 0; b < (split ? sl->count[0] : 1); b++, at++)
            for (int d = 0; d < nd; d++) {
                f->start_ptrs[at][d] = sl->start[d] + (d == 0 ? b * sl->stride[0] : 0);
                f->count_ptrs[at][d] = d == 0 && split ? sl->block[0] : sl->count[d] * sl->block[d];
            }
    }
    if (at == 0)
        for (int d = 0; d < nd; d++)
            f->start_ptrs[0][d] = f->count_ptrs[0][d] = 0;
    f->npieces = at > 0 ? at : 1;
    f->from = s->slabs;
    f->from_n = s->nslabs;
    f->from_nd = nd;
    return 0;
}

static int pncdf_var_begin(struct backend_file *f, int var, const struct plan_access *acc,
                           struct err *e)
{
    f->varid = -1;
    f->varn = acc->slabs_any;
    plan_var(f->plan, var, &f->var);
    if (f->abandoned || (!f->defined && pncdf_define(f, e) < 0))
        return -1;
    pncdf_type(&f->var, &f->mtype);
    int rc = ncmpi_inq_varid(f->ncid, plan_var_leaf(&f->var), &f->varid);
    if (f->vars && var >= 0 && var < f->plan->nvars)
        f->vars[var] = (struct pncdf_var){f->var, f->varid, f->mtype, f->varn};
    return rc == NC_NOERR ? 0 : pncdf_err(e, "find variable", f->path, -1, rc);
}

/* Records a failed step of variable v: the variable and the first element
 * of its subarrays, "transfer 3 of 'Dataset_1', 4096 bytes from element
 * (8192): ". */
static int pncdf_transfer_fail(struct backend_file *f, const struct plan_var *v,
                               const struct plan_step *s, int status, struct err *e)
{
    char at[96] = "";
    size_t used = 0;
    for (int d = 0; d < v->ndims && used < sizeof at; d++)
        used += (size_t)snprintf(at + used, sizeof at - used, "%s%lld", d ? "," : "",
                                 (long long)f->starts[d]);
    return err_set(e, "PnetCDF", f->writing ? "write" : "read", f->path, -1, s->bytes,
                   "transfer %" PRId64 " of '%s', %" PRId64 " bytes from element (%s): %s",
                   s->index, plan_var_leaf(v), s->bytes, at, ncmpi_strerror(status));
}

/* A process whose step could not be made into subarrays (its error
 * recorded) still joins the others' collective call (-C) with one
 * subarray of no element, as a process without data makes it; an
 * independent one it skips. */
static void pncdf_join(struct backend_file *f, void *buf)
{
    MPI_Offset zero[MODEL_MAX_DIMS] = {0, 0, 0};
    MPI_Offset *z = zero;
    int id = f->ncid, v = f->varid;
    if (!f->collective)
        return;
    if (f->writing && f->varn)
        ncmpi_put_varn_all(id, v, 1, &z, &z, buf, 0, f->mtype);
    else if (f->writing)
        ncmpi_put_vara_all(id, v, zero, zero, buf, 0, f->mtype);
    else if (f->varn)
        ncmpi_get_varn_all(id, v, 1, &z, &z, buf, 0, f->mtype);
    else
        ncmpi_get_vara_all(id, v, zero, zero, buf, 0, f->mtype);
}

static int pncdf_start(struct backend_file *f, const struct plan_step *s, void *buf, struct err *e);

static int pncdf_transfer(struct backend_file *f, const struct plan_step *s, void *buf,
                          struct err *e)
{
    if (s->nonblocking)
        return pncdf_start(f, s, buf, e);
    f->writing = s->write;
    /* An empty variable (the file per process of a process without
     * particles, which no other process opens) has nothing to move. */
    if (model_product(f->var.ndims, f->var.dims) == 0)
        return 0;
    if (pncdf_pieces(f, s, f->var.ndims, e) < 0) {
        pncdf_join(f, buf);
        return -1;
    }
    int id = f->ncid, v = f->varid, rc;
    MPI_Offset n = s->bytes / f->var.elem;
    /* A collective vara and a collective varn do not match: where some
     * process moves several subarrays, every process moves a list. */
    bool write = f->writing, one = f->npieces == 1 && !f->varn;
    if (write && one)
        rc = f->collective ? ncmpi_put_vara_all(id, v, f->starts, f->counts, buf, n, f->mtype)
                           : ncmpi_put_vara(id, v, f->starts, f->counts, buf, n, f->mtype);
    else if (write)
        rc = f->collective ? ncmpi_put_varn_all(id, v, f->npieces, f->start_ptrs, f->count_ptrs,
                                                buf, n, f->mtype)
                           : ncmpi_put_varn(id, v, f->npieces, f->start_ptrs, f->count_ptrs, buf, n,
                                            f->mtype);
    else if (one)
        rc = f->collective ? ncmpi_get_vara_all(id, v, f->starts, f->counts, buf, n, f->mtype)
                           : ncmpi_get_vara(id, v, f->starts, f->counts, buf, n, f->mtype);
    else
        rc = f->collective ? ncmpi_get_varn_all(id, v, f->npieces, f->start_ptrs, f->count_ptrs,
                                                buf, n, f->mtype)
                           : ncmpi_get_varn(id, v, f->npieces, f->start_ptrs, f->count_ptrs, buf, n,
                                            f->mtype);
    return rc == NC_NOERR ? 0 : pncdf_transfer_fail(f, &f->var, s, rc, e);
}

/* Posts step s of variable x to or from buf without blocking, its request
 * id into *req: ncmpi_iput_vara or ncmpi_iput_varn (reads: iget), in the
 * form the blocking call would take. Returns a PnetCDF status. */
static int pncdf_post(struct backend_file *f, const struct pncdf_var *x, const struct plan_step *s,
                      void *buf, int *req)
{
    int id = f->ncid, v = x->varid;
    MPI_Offset n = s->bytes / x->var.elem;
    bool one = f->npieces == 1 && !x->varn;
    if (s->write && one)
        return ncmpi_iput_vara(id, v, f->starts, f->counts, buf, n, x->mtype, req);
    if (s->write)
        return ncmpi_iput_varn(id, v, f->npieces, f->start_ptrs, f->count_ptrs, buf, n, x->mtype,
                               req);
    if (one)
        return ncmpi_iget_vara(id, v, f->starts, f->counts, buf, n, x->mtype, req);
    return ncmpi_iget_varn(id, v, f->npieces, f->start_ptrs, f->count_ptrs, buf, n, x->mtype, req);
}

/* Records the failure of the nonblocking variant's step s (of a begun
 * variable) with status, as the blocking call's would be: its subarrays
 * made again for the line's first element. */
static int pncdf_step_fail(struct backend_file *f, const struct plan_step *s, int status,
                           struct err *e)
{
    const struct pncdf_var *x = &f->vars[s->var];
    f->writing = s->write;
    if (pncdf_pieces(f, s, x->var.ndims, e) < 0)
        return -1;
    return pncdf_transfer_fail(f, &x->var, s, status, e);
}

/* The nonblocking variant (docs/pnetcdf.md, "Nonblocking calls"): the n
 * steps (each of another variable, begun) posted, then completed by one
 * ncmpi_wait_all with -C, else ncmpi_wait; the posts and the wait are one
 * transfer. The collective wait is made also after a failed post: the
 * other processes make theirs. Every request's status is checked; the
 * first failure is recorded as the blocking call's would be. */
static int pncdf_transfer_vars(struct backend_file *f, const struct plan_step *steps, int n,
                               void *const *bufs, struct err *e)
{
    if (!f->vars || n > f->plan->nvars)
        return err_set(e, "PnetCDF", "write", f->path, -1, -1,
                       "nonblocking steps of a file not opened for them (validation missed it)");
    int posted = 0, failed = -1, rc = NC_NOERR;
    for (int i = 0; i < n && failed < 0; i++) {
        const struct pncdf_var *x = &f->vars[steps[i].var];
        f->writing = steps[i].write;
        /* An empty variable (pncdf_transfer) has nothing to move. */
        if (model_product(x->var.ndims, x->var.dims) == 0)
            continue;
        if (pncdf_pieces(f, &steps[i], x->var.ndims, e) < 0) {
            failed = i;
            break;
        }
        if ((rc = pncdf_post(f, x, &steps[i], bufs[i], &f->reqs[posted])) != NC_NOERR) {
            pncdf_transfer_fail(f, &x->var, &steps[i], rc, e);
            failed = i;
            break;
        }
        f->req_step[posted++] = i;
    }
    int wrc = NC_NOERR;
    if (f->collective)
        wrc = ncmpi_wait_all(f->ncid, posted, f->reqs, f->statuses);
    else if (posted > 0)
        wrc = ncmpi_wait(f->ncid, posted, f->reqs, f->statuses);
    if (failed >= 0)
        return -1;
    for (int j = 0; j < posted; j++)
        if (f->statuses[j] != NC_NOERR)
            return pncdf_step_fail(f, &steps[f->req_step[j]], f->statuses[j], e);
    if (wrc == NC_NOERR)
        return 0;
    if (posted == 0)
        return pncdf_err(e, f->collective ? "wait (ncmpi_wait_all)" : "wait", f->path, -1, wrc);
    return pncdf_step_fail(f, &steps[f->req_step[0]], wrc, e);
}

/* A nonblocking step (docs/madbench.md, "Asynchronous I/O"): posted to
 * the variable it names (not the one begun: W reads the next bin ahead),
 * completed by pncdf_wait with ncmpi_wait. Independent calls only: the
 * pattern refuses -C with it. */
static int pncdf_start(struct backend_file *f, const struct plan_step *s, void *buf, struct err *e)
{
    int w = s->write ? 0 : 1;
    struct pncdf_var x = {.varn = false};
    plan_var(f->plan, s->var, &x.var);
    pncdf_type(&x.var, &x.mtype);
    f->writing = s->write;
    if (f->collective || f->pending[w])
        return err_set(e, "PnetCDF", s->write ? "write" : "read", f->path, -1, s->bytes,
                       "a nonblocking step must be independent, with no other of its "
                       "direction under way");
    int rc = ncmpi_inq_varid(f->ncid, plan_var_leaf(&x.var), &x.varid);
    if (rc != NC_NOERR)
        return pncdf_err(e, "find variable", f->path, -1, rc);
    if (pncdf_pieces(f, s, x.var.ndims, e) < 0)
        return -1;
    if ((rc = pncdf_post(f, &x, s, buf, &f->started[w])) != NC_NOERR)
        return pncdf_transfer_fail(f, &x.var, s, rc, e);
    f->pending[w] = true;
    return 0;
}

/* Completes the nonblocking step of s's direction, if one is under way. */
static int pncdf_wait(struct backend_file *f, const struct plan_step *s, struct err *e)
{
    int w = s->write ? 0 : 1, st = NC_NOERR;
    if (!f || !f->pending[w])
        return 0;
    f->pending[w] = false;
    f->writing = s->write;
    int rc = ncmpi_wait(f->ncid, 1, &f->started[w], &st);
    if ((rc = rc != NC_NOERR ? rc : st) == NC_NOERR)
        return 0;
    struct plan_var v;
    plan_var(f->plan, s->var, &v);
    if (pncdf_pieces(f, s, v.ndims, e) < 0)
        return -1;
    return pncdf_transfer_fail(f, &v, s, rc, e);
}

static int pncdf_var_end(struct backend_file *f, struct err *e)
{
    (void)e;
    f->varid = -1;
    return 0;
}

/* The file is out of define mode (its write phase defined the
 * variables), in independent data mode without -C, and has no request
 * under way; ncmpi_sync is made in collective data mode, as at the close. */
static int pncdf_next_phase(struct backend_file *f, enum backend_mode mode, struct err *e)
{
    int rc = 0, st = NC_NOERR;
    if (f->sync && f->defined) {
        if (f->indep && (st = ncmpi_end_indep_data(f->ncid)) == NC_NOERR)
            f->indep = false;
        if (st == NC_NOERR && (st = ncmpi_sync(f->ncid)) != NC_NOERR)
            rc = pncdf_err(e, "flush (--fsync)", f->path, -1, st);
        if (st == NC_NOERR && !f->collective && (st = ncmpi_begin_indep_data(f->ncid)) == NC_NOERR)
            f->indep = true;
        if (st != NC_NOERR && rc == 0)
            rc = pncdf_err(e, "independent data mode", f->path, -1, st);
    }
    f->sync = f->sync && mode != BACKEND_READ;
    f->mode = mode;
    return rc;
}

/* Collective over the file's processes: leaves independent mode, flushes
 * with --fsync (ncmpi_sync: MPI_File_sync), closes; a file still in define
 * mode (a failed first dataset) is ended by ncmpi_close itself, but one
 * whose definitions failed on some process by ncmpi_abort, which discards
 * them (and removes the new file) without writing a header. */
static int pncdf_close(struct backend_file *f, struct err *e)
{
    if (!f)
        return 0;
    int rc = 0, st;
    pncdf_free_pieces(f);
    free(f->vars);
    free(f->reqs);
    /* What a failed phase left under way ends before the file does. */
    for (int w = 0; w < 2; w++)
        if (f->open && f->pending[w] && ncmpi_wait(f->ncid, 1, &f->started[w], &st) != NC_NOERR)
            rc = -1;
    if (f->open && f->indep && (st = ncmpi_end_indep_data(f->ncid)) != NC_NOERR)
        rc = pncdf_err(e, "end independent data mode", f->path, -1, st);
    if (f->open && f->sync && f->defined && (st = ncmpi_sync(f->ncid)) != NC_NOERR)
        rc = pncdf_err(e, "flush (--fsync)", f->path, -1, st);
    if (f->open && f->abandoned)
        ncmpi_abort(f->ncid);
    else if (f->open && (st = ncmpi_close(f->ncid)) != NC_NOERR)
        rc = pncdf_err(e, "close", f->path, -1, st);
    if (f->info != MPI_INFO_NULL)
        MPI_Info_free(&f->info);
    free(f);
    return rc;
}

/* What PnetCDF cannot carry out: a request above 2 GiB of any process
 * (measured over all of them; validation refuses it first, from the API
 * table), which this PnetCDF (built without large single requests)
 * refuses, and a slab that is not subarrays along dimension 0 (no plan
 * makes one). The byte limit comes first: it is the one a transfer meets
 * (a step of more than INT_MAX subarrays moves more than 2 GiB). */
static int pncdf_check(const struct backend_settings *set, const struct plan *plan,
                       const struct pattern_measure *m, char *why, size_t len)
{
    (void)set;
    if (m->max_call > INT_MAX) {
        snprintf(why, len,
                 "a transfer of %lld bytes is above PnetCDF's limit of %d bytes per call; use "
                 "smaller transfers or more processes",
                 (long long)m->max_call, INT_MAX);
        return -1;
    }
    for (int ph = 0; ph < plan->nphases; ph++) {
        struct plan_access acc;
        struct plan_step st;
        plan_access(plan, ph, 0, &acc);
        if (acc.nsteps == 0)
            continue;
        plan_step(plan, ph, 0, 0, &st);
        const struct model_slab *all = plan_slabs(&st);
        for (int i = 0; i < st.nslabs; i++) {
            const struct model_slab *s = &all[i];
            for (int d = 1; d < s->ndims; d++)
                if (s->count[d] > 1 && s->stride[d] != s->block[d]) {
                    snprintf(why, len, "its selection is not a set of subarrays along dimension 0");
                    return -1;
                }
        }
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
    .var_begin = pncdf_var_begin,
    .transfer = pncdf_transfer,
    .wait = pncdf_wait,
    .var_end = pncdf_var_end,
    .transfer_vars = pncdf_transfer_vars,
    .close = pncdf_close,
    .next_phase = pncdf_next_phase,
    .check_source = pncdf_check_source,
    .check = pncdf_check,
    .version = pncdf_version,
    .written_end = pncdf_written_end,
};
