/* The timed loops of the limit program: for each file, a write phase and a
 * read phase made of open, bare pwrite/pread (one call per contiguous piece)
 * or bare MPI_File_write_at/read_at(_all), and close; then the file is
 * removed. Only the calls themselves and their checks are timed: no
 * allocation, formatting, agreement or verification in the timed regions. */
#include "limit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The one data file that may exist, for the signal handler (which can reach
 * nothing else): set before it is created, cleared after it is removed. */
static char limit_path[4200];
static volatile sig_atomic_t limit_have_file;

static void limit_on_signal(int sig)
{
    if (limit_have_file)
        unlink(limit_path);
    _exit(128 + sig);
}

/* Local: one line, the file removed, the job ended with status 1. */
static void limit_die(const struct limit *l, const char *op, int64_t off, int64_t len,
                      const char *why)
{
    char where[96] = "";
    if (off >= 0)
        snprintf(where, sizeof where, " at offset %lld (%lld bytes)", (long long)off,
                 (long long)len);
    fprintf(stderr, "limit: rank %d: %s '%s'%s: %s\n", l->rank, op, limit_path, where, why);
    fflush(stderr);
    if (limit_have_file)
        unlink(limit_path);
    /* MPICH's hydra can kill the job before forwarding these lines (seen in
     * 5 of 40 runs without this pause); give them time to leave. */
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    MPI_Abort(MPI_COMM_WORLD, LIMIT_FAILED);
}

static void limit_die_mpi(const struct limit *l, const char *op, int64_t off, int64_t len, int rc)
{
    char text[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (MPI_Error_string(rc, text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", rc);
    limit_die(l, op, off, len, text);
}

/* How MPI-IO moves a variable's steps, as src/backend/mpiio.c decides. */
enum limit_view { LIMIT_NO_VIEW, LIMIT_TILED, LIMIT_WHOLE, LIMIT_STEP_VIEW };

static enum limit_view limit_view_of(const struct limit *l, const struct plan_access *acc)
{
    if (!l->mpiio || !acc->view_any || (!l->collective && acc->split_runs))
        return LIMIT_NO_VIEW;
    return acc->tile > 0 ? LIMIT_TILED : acc->nwhole > 0 ? LIMIT_WHOLE : LIMIT_STEP_VIEW;
}

int64_t limit_calls(const struct limit *l)
{
    int64_t calls = 0;
    for (int v = 0; v < l->plan.nvars; v++) {
        struct plan_access acc;
        plan_access(&l->plan, 0, v, &acc);
        bool one = limit_view_of(l, &acc) != LIMIT_NO_VIEW;
        for (int64_t k = 0; k < acc.nsteps; k++) {
            struct plan_step s;
            plan_step(&l->plan, 0, v, k, &s);
            int64_t runs = plan_step_runs(&s);
            calls += one || (l->mpiio && runs == 0) ? 1 : runs;
        }
    }
    return (int64_t)l->plan.nfiles * calls;
}

/* --- POSIX ---------------------------------------------------------------- */

/* As src/backend/posix.c: one call per contiguous run of every step. */
static void posix_transfers(const struct limit *l, int fd, int phase, bool write)
{
    for (int v = 0; v < l->plan.nvars; v++) {
        struct plan_access acc;
        plan_access(&l->plan, phase, v, &acc);
        for (int64_t k = 0; k < acc.nsteps; k++) {
            struct plan_step s;
            plan_step(&l->plan, phase, v, k, &s);
            unsigned char *p = l->buf + s.mem_off;
            for (int64_t i = 0, n = plan_step_runs(&s); i < n; i++) {
                int64_t off, len;
                plan_step_run(&s, i, &off, &len);
                ssize_t got = write ? pwrite(fd, p, (size_t)len, (off_t)off)
                                    : pread(fd, p, (size_t)len, (off_t)off);
                if (got != len)
                    limit_die(l, write ? "pwrite" : "pread", off, len,
                              got < 0 ? strerror(errno) : "short count");
                p += len;
            }
        }
    }
}

/* Every process creates (or opens) the file itself: no broadcast needed. */
static void posix_phase(const struct limit *l, bool write, double *fine, double *gross)
{
    int flags = write ? O_CREAT | O_RDWR | O_NOFOLLOW : O_RDONLY | O_NOFOLLOW;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int fd = open(limit_path, flags, 0600);
    if (fd < 0)
        limit_die(l, "open", -1, -1, strerror(errno));
    double t1 = MPI_Wtime();
    posix_transfers(l, fd, write ? 0 : 1, write);
    double t2 = MPI_Wtime();
    if (close(fd) < 0)
        limit_die(l, "close", -1, -1, strerror(errno));
    double t3 = MPI_Wtime();
    *fine += t2 - t1;
    *gross += t3 - t0;
}

/* --- MPI-IO --------------------------------------------------------------- */

/* A call must return MPI_SUCCESS and move every byte (ompio reports success
 * with a short count on a full disk). */
static void mpiio_check(const struct limit *l, bool write, int rc, MPI_Status *st,
                        MPI_Datatype type, int64_t off, int64_t bytes)
{
    const char *op = write ? "write" : "read";
    MPI_Count n = -1;
    if (rc != MPI_SUCCESS)
        limit_die_mpi(l, op, off, bytes, rc);
    rc = MPI_Get_elements_x(st, type, &n);
    if (rc != MPI_SUCCESS)
        limit_die_mpi(l, op, off, bytes, rc);
    if ((int64_t)n != bytes)
        limit_die(l, op, off, bytes, "short count");
}

static int mpiio_at(const struct limit *l, MPI_File fh, bool write, MPI_Offset off, void *p,
                    int count, MPI_Datatype type, MPI_Status *st)
{
    if (write)
        return l->collective ? MPI_File_write_at_all(fh, off, p, count, type, st)
                             : MPI_File_write_at(fh, off, p, count, type, st);
    return l->collective ? MPI_File_read_at_all(fh, off, p, count, type, st)
                         : MPI_File_read_at(fh, off, p, count, type, st);
}

/* The types of a variable's view (built before any timer, from variable 0
 * and its first step: every variable and step has the same shape), as
 * src/backend/mpiio.c builds them. */
struct limit_types {
    enum limit_view view;
    MPI_Datatype etype, piece, filetype;
    int esize;
};

static void limit_types_free(struct limit_types *t)
{
    MPI_Datatype *all[3] = {&t->etype, &t->piece, &t->filetype};
    for (int i = 0; i < 3; i++)
        if (*all[i] != MPI_DATATYPE_NULL && *all[i] != MPI_BYTE)
            MPI_Type_free(all[i]);
}

static int limit_types_make(const struct limit *l, struct limit_types *t)
{
    struct plan_access acc;
    struct plan_step s;
    *t = (struct limit_types){
        .etype = MPI_BYTE, .piece = MPI_DATATYPE_NULL, .filetype = MPI_DATATYPE_NULL, .esize = 1};
    plan_access(&l->plan, 0, 0, &acc);
    t->view = limit_view_of(l, &acc);
    if (t->view == LIMIT_NO_VIEW)
        return MPI_SUCCESS;
    int rc = MPI_SUCCESS;
    if (t->view == LIMIT_WHOLE) {
        const struct model_slab *sl = plan_whole_slabs(&acc);
        struct plan_var var;
        plan_var(&l->plan, 0, &var);
        if (acc.array_base < 0 || acc.nwhole != 1 || model_slab_elems(sl) == 0) {
            fprintf(stderr, "limit: a view of several pieces is not supported\n");
            return MPI_ERR_TYPE;
        }
        int sizes[MODEL_MAX_DIMS], sub[MODEL_MAX_DIMS], starts[MODEL_MAX_DIMS];
        for (int d = 0; d < sl->ndims; d++) {
            sizes[d] = (int)var.dims[d];
            sub[d] = (int)(sl->count[d] * sl->block[d]);
            starts[d] = (int)sl->start[d];
        }
        t->esize = var.elem;
        rc = MPI_Type_contiguous(var.elem, MPI_BYTE, &t->etype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_commit(&t->etype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_create_subarray(sl->ndims, sizes, sub, starts, MPI_ORDER_C, t->etype,
                                          &t->filetype);
    } else {
        plan_step(&l->plan, 0, 0, 0, &s);
        const struct model_runs *r = &plan_runs(&s)[0];
        MPI_Datatype vec = MPI_DATATYPE_NULL;
        rc = MPI_Type_contiguous((int)r->len, MPI_BYTE, &t->piece);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_commit(&t->piece);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_create_hvector((int)r->count[1], 1, (MPI_Aint)r->stride[1], t->piece,
                                         t->view == LIMIT_TILED ? &vec : &t->filetype);
        if (rc == MPI_SUCCESS && t->view == LIMIT_TILED)
            rc = MPI_Type_create_resized(vec, 0, (MPI_Aint)acc.tile, &t->filetype);
        if (vec != MPI_DATATYPE_NULL)
            MPI_Type_free(&vec);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&t->filetype);
    return rc;
}

/* One step, as src/backend/mpiio.c moves it. */
static void mpiio_step(const struct limit *l, MPI_File fh, const struct limit_types *t,
                       const struct plan_access *acc, const struct plan_step *s, bool write)
{
    MPI_Status st;
    unsigned char *p = l->buf + s->mem_off;
    const struct model_runs *runs = plan_runs(s);
    int64_t nruns = plan_step_runs(s), off = 0, len = 0;
    int rc;
    if (t->view == LIMIT_TILED || t->view == LIMIT_STEP_VIEW) {
        const struct model_runs *r = &runs[0];
        if (t->view == LIMIT_STEP_VIEW || s->index == 0) {
            rc = MPI_File_set_view(fh, (MPI_Offset)r->disp, MPI_BYTE, t->filetype, "native",
                                   l->info);
            if (rc != MPI_SUCCESS)
                limit_die_mpi(l, "set view", r->disp, -1, rc);
        }
        MPI_Offset at = t->view == LIMIT_TILED ? (MPI_Offset)(s->index * s->bytes) : 0;
        rc = mpiio_at(l, fh, write, at, p, (int)r->count[1], t->piece, &st);
        mpiio_check(l, write, rc, &st, t->piece, r->disp, r->count[1] * r->len);
        return;
    }
    if (t->view == LIMIT_WHOLE) {
        rc = mpiio_at(l, fh, write, (MPI_Offset)(s->mem_off / t->esize), p, (int)s->bytes, MPI_BYTE,
                      &st);
        mpiio_check(l, write, rc, &st, MPI_BYTE, acc->array_base, s->bytes);
        return;
    }
    if (nruns <= 1) {
        if (nruns == 1)
            plan_step_run(s, 0, &off, &len);
        else if (s->nruns > 0)
            off = runs[0].disp;
        rc = mpiio_at(l, fh, write, (MPI_Offset)off, p, (int)len, MPI_BYTE, &st);
        mpiio_check(l, write, rc, &st, MPI_BYTE, off, len);
        return;
    }
    for (int64_t i = 0; i < nruns; i++) {
        plan_step_run(s, i, &off, &len);
        rc = mpiio_at(l, fh, write, (MPI_Offset)off, p, (int)len, MPI_BYTE, &st);
        mpiio_check(l, write, rc, &st, MPI_BYTE, off, len);
        p += len;
    }
}

static void mpiio_transfers(const struct limit *l, MPI_File fh, const struct limit_types *t,
                            int phase, bool write)
{
    for (int v = 0; v < l->plan.nvars; v++) {
        struct plan_access acc;
        plan_access(&l->plan, phase, v, &acc);
        if (t->view == LIMIT_WHOLE) {
            int rc = MPI_File_set_view(fh, (MPI_Offset)acc.array_base, t->etype, t->filetype,
                                       "native", l->info);
            if (rc != MPI_SUCCESS)
                limit_die_mpi(l, "set view", acc.array_base, -1, rc);
        }
        for (int64_t k = 0; k < acc.nsteps; k++) {
            struct plan_step s;
            plan_step(&l->plan, phase, v, k, &s);
            mpiio_step(l, fh, t, &acc, &s, write);
        }
    }
}

static void mpiio_phase(const struct limit *l, bool write, double *fine, double *gross)
{
    struct limit_types t;
    if (limit_types_make(l, &t) != MPI_SUCCESS)
        limit_die(l, "datatype", -1, -1, "cannot build the file view's datatypes");
    int amode = write ? MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_EXCL : MPI_MODE_RDONLY;
    MPI_File fh;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int rc =
        MPI_File_open(l->fpp ? MPI_COMM_SELF : MPI_COMM_WORLD, limit_path, amode, l->info, &fh);
    if (rc != MPI_SUCCESS)
        limit_die_mpi(l, "open", -1, -1, rc);
    double t1 = MPI_Wtime();
    mpiio_transfers(l, fh, &t, write ? 0 : 1, write);
    double t2 = MPI_Wtime();
    rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS)
        limit_die_mpi(l, "close", -1, -1, rc);
    double t3 = MPI_Wtime();
    limit_types_free(&t);
    *fine += t2 - t1;
    *gross += t3 - t0;
}

/* --- set-up and the iteration ---------------------------------------------- */

int limit_io_setup(struct limit *l)
{
    l->info = MPI_INFO_NULL;
    if (l->mpiio && l->cfg.info_defined) {
        MPI_Info_create(&l->info);
        for (int i = 0; i < l->cfg.info_count; i++)
            MPI_Info_set(l->info, l->cfg.info[i].key, l->cfg.info[i].value);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = limit_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return 0;
}

void limit_io_release(struct limit *l)
{
    if (l->info != MPI_INFO_NULL)
        MPI_Info_free(&l->info);
}

/* Names file f and claims it: refuses a file that exists already (it is not
 * ours), then registers it for removal. */
static void limit_claim(const struct limit *l, int f)
{
    limit_have_file = 0;
    char rank[16] = "";
    if (l->fpp)
        snprintf(rank, sizeof rank, ".%d", l->rank);
    snprintf(limit_path, sizeof limit_path, "%s/limit-%ld-%d%s%s", l->dir, l->tag, f + 1, rank,
             l->mpiio ? ".mpio" : ".posix");
    struct stat st;
    if ((l->rank == 0 || l->fpp) && lstat(limit_path, &st) == 0)
        limit_die(l, "create", -1, -1, "the file exists already");
    MPI_Barrier(MPI_COMM_WORLD);
    limit_have_file = 1;
}

void limit_iteration(struct limit *l, double t[LIMIT_MEASURES])
{
    void (*phase)(const struct limit *, bool, double *, double *) =
        l->mpiio ? mpiio_phase : posix_phase;
    for (int f = 0; f < l->plan.nfiles; f++) {
        limit_claim(l, f);
        l->plan.ops->fill(&l->plan, 0, 0, l->buf, false);
        phase(l, true, &t[LIMIT_WRITE], &t[LIMIT_WRITE_OPEN_CLOSE]);
        if (!l->cfg.write_only)
            phase(l, false, &t[LIMIT_READ], &t[LIMIT_READ_OPEN_CLOSE]);
        MPI_Barrier(MPI_COMM_WORLD);
        if ((l->rank == 0 || l->fpp) && unlink(limit_path) < 0)
            limit_die(l, "remove", -1, -1, strerror(errno));
        limit_have_file = 0;
    }
}
