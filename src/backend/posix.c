/* POSIX backend: pwrite/pread of each flat run of a step's pieces, with
 * short counts looped over and errors reported with their offset. Process 0
 * creates the file; the others open it after hearing that it exists. Never
 * follows a symbolic link to the data file. Must not print, time or exit. */
/* O_DIRECT is a Linux extension. */
#define _GNU_SOURCE
#include "backend/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

struct backend_file {
    int fd;
    bool sync; /* --fsync after a write phase: fsync() before close() */
    enum backend_mode mode;
    bool writing; /* the current step writes (a read-write file moves both ways) */
    const char *path;
};

/* --direct: O_DIRECT, where the system has it (config validation has made
 * every offset and length a multiple of CONFIG_DIRECT_ALIGN). */
static int posix_direct_flag(const struct backend_ctx *ctx)
{
#ifdef O_DIRECT
    return ctx->set->direct ? O_DIRECT : 0;
#else
    (void)ctx;
    return 0;
#endif
}

/* Records a failed open(). A final symbolic link (O_NOFOLLOW gives ELOOP) is
 * named as such, since "Too many levels of symbolic links" would mislead, and
 * marks e->exists: something this run did not create is there, so the
 * engine must not remove it (even with --overwrite). */
static int posix_open_fail(struct err *e, const char *op, const char *path, int errnum)
{
    struct stat st;
    if (errnum != ELOOP || lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return err_errno(e, "POSIX", op, path, -1, -1, errnum);
    if (e->set)
        return -1;
    err_set(e, "POSIX", op, path, -1, -1,
            "the path is a symbolic link, which h5perf never follows");
    e->exists = true;
    return -1;
}

/* Not an errno: the file found is not one h5perf may replace. */
#define POSIX_NOT_OURS (-1)

/* Process 0, --overwrite or a file this run created: empties the open file,
 * having checked on the open descriptor itself (no race with the name) that
 * it is a file h5perf may replace. Returns 0, an errno, or POSIX_NOT_OURS
 * (the descriptor is then closed). */
static int posix_truncate(int fd)
{
    struct stat st;
    char why[128];
    int rc = 0;
    if (fstat(fd, &st) < 0)
        rc = errno;
    else if (backend_replaceable(&st, false, why, sizeof why) < 0)
        rc = POSIX_NOT_OURS;
    else if (ftruncate(fd, 0) < 0)
        rc = errno;
    if (rc)
        close(fd);
    return rc;
}

/* Process 0 creates (or truncates) the file and broadcasts its errno, so that
 * every process records the same error (and e->exists on EEXIST); the others
 * then open the file process 0 created. O_NOFOLLOW everywhere: h5perf never
 * writes through a symbolic link planted where its data file goes. */
static int posix_create(const struct backend_ctx *ctx, const char *path, bool may_truncate, int *fd,
                        struct err *e)
{
    int errnum = 0;
    if (ctx->rank == 0) {
        int flags =
            O_CREAT | O_RDWR | O_NOFOLLOW | (may_truncate ? 0 : O_EXCL) | posix_direct_flag(ctx);
        *fd = open(path, flags, 0600);
        errnum = *fd < 0 ? errno : 0;
        if (!errnum && may_truncate)
            errnum = posix_truncate(*fd);
    }
    MPI_Bcast(&errnum, 1, MPI_INT, 0, ctx->comm);
    if (errnum == POSIX_NOT_OURS) {
        err_set(e, "POSIX", "create", path, -1, -1,
                "the file is not one h5perf may replace (a link to it appeared since the "
                "start)");
        e->exists = true;
        return -1;
    }
    if (errnum)
        return posix_open_fail(e, "create", path, errnum);
    if (ctx->rank != 0) {
        *fd = open(path, O_RDWR | O_NOFOLLOW | posix_direct_flag(ctx));
        if (*fd < 0)
            return posix_open_fail(e, "open", path, errno);
    }
    return 0;
}

static int posix_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                      enum backend_mode mode, bool may_truncate, const struct plan *plan,
                      struct err *e)
{
    (void)plan;
    *out = NULL;
    int fd = -1;
    if (mode == BACKEND_WRITE) {
        if (posix_create(ctx, path, may_truncate, &fd, e) < 0)
            return -1;
    } else {
        int rw = mode == BACKEND_REWRITE ? O_RDWR : O_RDONLY;
        fd = open(path, rw | O_NOFOLLOW | posix_direct_flag(ctx));
        if (fd < 0)
            return posix_open_fail(e, "open", path, errno);
    }
    struct backend_file *f = calloc(1, sizeof *f);
    if (!f) {
        close(fd);
        return err_errno(e, "POSIX", "open", path, -1, -1, ENOMEM);
    }
    f->fd = fd;
    f->sync = mode != BACKEND_READ && ctx->set->fsync;
    f->mode = mode;
    f->path = path;
    *out = f;
    return 0;
}

static int posix_var_begin(struct backend_file *f, int var, const struct plan_access *acc,
                           struct err *e)
{
    (void)f, (void)var, (void)acc, (void)e;
    return 0;
}

/* Moves len bytes at off, looping over short counts. */
static int posix_piece(struct backend_file *f, unsigned char *buf, int64_t len, int64_t off,
                       struct err *e)
{
    int64_t done = 0;
    while (done < len) {
        ssize_t n = f->writing
                        ? pwrite(f->fd, buf + done, (size_t)(len - done), (off_t)(off + done))
                        : pread(f->fd, buf + done, (size_t)(len - done), (off_t)(off + done));
        if (n < 0 && errno == EINTR)
            continue;
        const char *op = f->writing ? "write" : "read";
        if (n < 0)
            return err_errno(e, "POSIX", op, f->path, off + done, len - done, errno);
        if (n == 0)
            return err_set(e, "POSIX", op, f->path, off + done, len - done,
                           f->writing ? "no progress (0 bytes written)" : "unexpected end of file");
        done += n;
    }
    return 0;
}

/* One pwrite or pread per contiguous run (a 3D block: per row of each
 * plane, unless its rows are whole). */
static int posix_transfer(struct backend_file *f, const struct plan_step *s, void *buf,
                          struct err *e)
{
    f->writing = s->write;
    unsigned char *p = buf;
    const struct model_runs *all = plan_runs(s);
    for (int k = 0; k < s->nruns; k++) {
        const struct model_runs *r = &all[k];
        for (int64_t j = 0; r->len > 0 && j < r->count[0]; j++)
            for (int64_t i = 0; i < r->count[1]; i++, p += r->len)
                if (posix_piece(f, p, r->len, r->disp + j * r->stride[0] + i * r->stride[1], e) < 0)
                    return -1;
    }
    return 0;
}

static int posix_var_end(struct backend_file *f, struct err *e)
{
    (void)f, (void)e;
    return 0;
}

/* The descriptor was opened to read and write (a create or a rewrite):
 * the next phase reads or rewrites through it. */
static int posix_next_phase(struct backend_file *f, enum backend_mode mode, struct err *e)
{
    int rc = f->sync && fsync(f->fd) < 0
                 ? err_errno(e, "POSIX", "flush (--fsync)", f->path, -1, -1, errno)
                 : 0;
    f->sync = f->sync && mode != BACKEND_READ;
    f->mode = mode;
    return rc;
}

static int posix_close(struct backend_file *f, struct err *e)
{
    if (!f)
        return 0;
    const char *path = f->path;
    int synced = f->sync && fsync(f->fd) < 0
                     ? err_errno(e, "POSIX", "flush (--fsync)", path, -1, -1, errno)
                     : 0;
    int rc = close(f->fd);
    int errnum = errno;
    free(f);
    if (rc < 0)
        return err_errno(e, "POSIX", "close", path, -1, -1, errnum);
    return synced;
}

/* The C library (where confstr names it) and the kernel: "glibc 2.36,
 * Linux 6.1.0-18-amd64". */
static void posix_version(char *buf, size_t len)
{
    char libc[64] = "";
    struct utsname u;
#ifdef _CS_GNU_LIBC_VERSION
    if (confstr(_CS_GNU_LIBC_VERSION, libc, sizeof libc) == 0)
        libc[0] = '\0';
#endif
    if (uname(&u) < 0)
        snprintf(buf, len, "%s", libc[0] ? libc : "unknown");
    else
        snprintf(buf, len, "%s%s%s %s", libc, libc[0] ? ", " : "", u.sysname, u.release);
}

const struct backend_ops backend_posix = {
    .desc = &api_descs[API_POSIX],
    .open = posix_open,
    .var_begin = posix_var_begin,
    .transfer = posix_transfer,
    .var_end = posix_var_end,
    .close = posix_close,
    .next_phase = posix_next_phase,
    .check_source = backend_check_flat,
    .check = backend_check_none,
    .version = posix_version,
};
