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

int64_t limit_calls(const struct limit *l)
{
    int64_t per_transfer = l->view || (l->block && l->mpiio) ? 1 : l->pt.outer * l->pt.shape.count;
    return (int64_t)l->cfg.num_files * sweep_datasets(&l->cfg) * l->pt.ntransfers * per_transfer;
}

/* --- POSIX ---------------------------------------------------------------- */

/* As src/backend/posix.c: one call per contiguous piece, `outer` times (a
 * 3D block's planes). */
static void posix_transfers(const struct limit *l, int fd, bool write)
{
    const struct pattern *pt = &l->pt;
    for (int d = 0; d < sweep_datasets(&l->cfg); d++) {
        int64_t base = pattern_var_base(pt, d);
        for (int64_t k = 0; k < pt->ntransfers; k++) {
            struct pattern_vec v = pattern_file_vec(pt, k);
            unsigned char *p = l->buf;
            for (int64_t j = 0; j < pt->outer; j++)
                for (int64_t i = 0; i < v.count; i++, p += v.len) {
                    off_t off = (off_t)(base + v.disp + j * pt->outer_stride + i * v.stride);
                    ssize_t n = write ? pwrite(fd, p, (size_t)v.len, off)
                                      : pread(fd, p, (size_t)v.len, off);
                    if (n != v.len)
                        limit_die(l, write ? "pwrite" : "pread", off, v.len,
                                  n < 0 ? strerror(errno) : "short count");
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
    posix_transfers(l, fd, write);
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

/* The block pattern, as src/backend/mpiio.c: per variable, the whole block
 * in one call, through the subarray view (shared) or at its offset. */
static void mpiio_block_transfers(const struct limit *l, MPI_File fh, bool write)
{
    const struct pattern *pt = &l->pt;
    MPI_Status st;
    int count = (int)pt->xfer_bytes, rc;
    for (int d = 0; d < sweep_datasets(&l->cfg); d++) {
        int64_t base = pattern_var_base(pt, d), off = base + pt->shape.disp;
        if (!l->subarray) {
            rc = mpiio_at(l, fh, write, (MPI_Offset)off, l->buf, count, MPI_BYTE, &st);
            mpiio_check(l, write, rc, &st, MPI_BYTE, off, count);
            continue;
        }
        rc = MPI_File_set_view(fh, (MPI_Offset)base, l->piece, l->filetype, "native", l->info);
        if (rc != MPI_SUCCESS)
            limit_die_mpi(l, "set view", base, -1, rc);
        if (l->collective)
            rc = write ? MPI_File_write_all(fh, l->buf, count, MPI_BYTE, &st)
                       : MPI_File_read_all(fh, l->buf, count, MPI_BYTE, &st);
        else
            rc = write ? MPI_File_write(fh, l->buf, count, MPI_BYTE, &st)
                       : MPI_File_read(fh, l->buf, count, MPI_BYTE, &st);
        mpiio_check(l, write, rc, &st, MPI_BYTE, off, count);
    }
}

static void mpiio_transfers(const struct limit *l, MPI_File fh, bool write)
{
    const struct pattern *pt = &l->pt;
    if (l->block) {
        mpiio_block_transfers(l, fh, write);
        return;
    }
    MPI_Status st;
    for (int d = 0; d < l->cfg.num_dsets; d++) {
        int64_t base = pattern_var_base(pt, d);
        for (int64_t k = 0; k < pt->ntransfers; k++) {
            struct pattern_vec v = pattern_file_vec(pt, k);
            int64_t off = base + v.disp;
            if (l->view) {
                /* As mpiio.c: one view per dataset where the pattern tiles,
                 * else one per transfer. */
                int rc = MPI_SUCCESS;
                if (!l->tiled || k == 0)
                    rc = MPI_File_set_view(fh, (MPI_Offset)off, MPI_BYTE, l->filetype, "native",
                                           l->info);
                if (rc != MPI_SUCCESS)
                    limit_die_mpi(l, "set view", off, -1, rc);
                MPI_Offset at = l->tiled ? (MPI_Offset)(k * pt->xfer_bytes) : 0;
                rc = mpiio_at(l, fh, write, at, l->buf, (int)v.count, l->piece, &st);
                mpiio_check(l, write, rc, &st, l->piece, off, v.count * v.len);
                continue;
            }
            for (int64_t i = 0; i < v.count; i++) {
                int64_t o = off + i * v.stride;
                int rc = mpiio_at(l, fh, write, (MPI_Offset)o, l->buf + i * v.len, (int)v.len,
                                  MPI_BYTE, &st);
                mpiio_check(l, write, rc, &st, MPI_BYTE, o, v.len);
            }
        }
    }
}

static void mpiio_phase(const struct limit *l, bool write, double *fine, double *gross)
{
    int amode = write ? MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_EXCL : MPI_MODE_RDONLY;
    MPI_File fh;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int rc =
        MPI_File_open(l->fpp ? MPI_COMM_SELF : MPI_COMM_WORLD, limit_path, amode, l->info, &fh);
    if (rc != MPI_SUCCESS)
        limit_die_mpi(l, "open", -1, -1, rc);
    double t1 = MPI_Wtime();
    mpiio_transfers(l, fh, write);
    double t2 = MPI_Wtime();
    rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS)
        limit_die_mpi(l, "close", -1, -1, rc);
    double t3 = MPI_Wtime();
    *fine += t2 - t1;
    *gross += t3 - t0;
}

/* --- set-up and the iteration ---------------------------------------------- */

/* The block pattern's view, as src/backend/mpiio.c: elements of elem
 * bytes, the block a subarray of the array; only where the block is not
 * one run. */
static int limit_block_types(struct limit *l)
{
    const struct pattern *pt = &l->pt;
    const struct pattern_slab *s = &pt->slab;
    l->subarray = !(pt->outer == 1 && pt->shape.count == 1);
    if (!l->subarray)
        return 0;
    int sizes[MODEL_MAX_DIMS], sub[MODEL_MAX_DIMS], starts[MODEL_MAX_DIMS];
    for (int d = 0; d < s->ndims; d++) {
        sizes[d] = (int)s->dims[d]; /* h5perf's MPI-IO check: below 2^31 */
        sub[d] = (int)s->count[d];
        starts[d] = (int)s->start[d];
    }
    int rc = MPI_Type_contiguous(pt->elem, MPI_BYTE, &l->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&l->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_subarray(s->ndims, sizes, sub, starts, MPI_ORDER_C, l->piece,
                                      &l->filetype);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&l->filetype);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "limit: rank %d: cannot build the subarray view\n", l->rank);
        return -1;
    }
    return 0;
}

/* The same pieces and view as src/backend/mpiio.c: a contiguous piece of
 * len bytes, and count of them at stride for a collective transfer. */
static int limit_types(struct limit *l)
{
    if (l->block)
        return limit_block_types(l);
    const struct pattern_vec *s = &l->pt.shape;
    if (s->len > INT_MAX || s->count > INT_MAX) {
        if (l->rank == 0)
            fprintf(stderr, "limit: pieces above INT_MAX bytes or counts are not supported\n");
        return -1;
    }
    l->view = l->collective && s->count > 1;
    if (!l->view)
        return 0;
    int rc = MPI_Type_contiguous((int)s->len, MPI_BYTE, &l->piece);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&l->piece);
    MPI_Datatype vec = MPI_DATATYPE_NULL;
    l->tiled = l->pt.xfer_step > 0;
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_hvector((int)s->count, 1, (MPI_Aint)s->stride, l->piece,
                                     l->tiled ? &vec : &l->filetype);
    if (rc == MPI_SUCCESS && l->tiled)
        rc = MPI_Type_create_resized(vec, 0, (MPI_Aint)l->pt.xfer_step, &l->filetype);
    if (vec != MPI_DATATYPE_NULL)
        MPI_Type_free(&vec);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&l->filetype);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "limit: rank %d: cannot build the file view's datatypes\n", l->rank);
        return -1;
    }
    return 0;
}

int limit_io_setup(struct limit *l)
{
    l->piece = l->filetype = MPI_DATATYPE_NULL;
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
    return l->mpiio ? limit_types(l) : 0;
}

void limit_io_release(struct limit *l)
{
    if (l->filetype != MPI_DATATYPE_NULL)
        MPI_Type_free(&l->filetype);
    if (l->piece != MPI_DATATYPE_NULL)
        MPI_Type_free(&l->piece);
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
    for (int f = 0; f < l->cfg.num_files; f++) {
        limit_claim(l, f);
        if (l->block)
            pattern_fill(&l->pt, 0, l->buf);
        else
            memset(l->buf, pattern_fill_value(&l->pt), (size_t)l->pt.xfer_bytes);
        phase(l, true, &t[LIMIT_WRITE], &t[LIMIT_WRITE_OPEN_CLOSE]);
        if (!l->cfg.write_only)
            phase(l, false, &t[LIMIT_READ], &t[LIMIT_READ_OPEN_CLOSE]);
        MPI_Barrier(MPI_COMM_WORLD);
        if ((l->rank == 0 || l->fpp) && unlink(limit_path) < 0)
            limit_die(l, "remove", -1, -1, strerror(errno));
        limit_have_file = 0;
    }
}
