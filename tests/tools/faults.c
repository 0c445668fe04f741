/* Test shim (LD_PRELOAD) that injects faults without touching h5perf's code:
 * - pwrite() and pwritev() of files whose name ends with H5PERF_FAULT_SUFFIX, on chosen MPI
 *   ranks (Open MPI's OMPI_COMM_WORLD_RANK or MPICH's PMI_RANK):
 *     H5PERF_FAULT_EIO_RANK=r   pwrite fails with EIO on rank r
 *     H5PERF_FAULT_HANG_RANK=r  pwrite blocks forever on rank r (a hung server)
 *     H5PERF_FAULT_DELAY_US=n   every pwrite waits n microseconds first, on every
 *                               rank (a slow server: a regression on purpose)
 *     H5PERF_FAULT_READ_DELAY_US=n  every pread of those files likewise
 *     H5PERF_FAULT_DELAYS_US=n0,n1,...  every pwrite(v) on rank r waits nr
 *                               microseconds (a process slower than others)
 * - pread() of files whose name ends with H5PERF_CORRUPT_SUFFIX: the bytes at
 *   file offsets [H5PERF_CORRUPT_OFFSET, +H5PERF_CORRUPT_COUNT) come back
 *   flipped (verification tests).
 * - open() with O_DIRECT fails with EINVAL when H5PERF_FAULT_NO_DIRECT is set,
 *   as on a file system without direct I/O.
 * - open() that creates (O_CREAT) a file whose path holds
 *   $H5PERF_FAULT_KILL_CREATE, once the file is there, raises signal
 *   $H5PERF_FAULT_KILL_SIGNAL (default SIGKILL) in the calling process,
 *   after appending one line
 *   "kill rank <r> signal <s> create <path>" to $H5PERF_FAULT_LOG: a
 *   process killed inside a library call that creates files (HDF5's
 *   subfiling driver making its first subfile inside H5Fcreate).
 * - fopen("/proc/meminfo") opens $H5PERF_FAULT_MEMINFO instead, when set: a
 *   node with that much memory available (page-cache and memory tests).
 * - fopen("/proc/self/mountinfo") opens $H5PERF_FAULT_MOUNTINFO instead, when
 *   set: a chroot or container whose mount table lacks the data directory;
 *   fopen("/proc/1/mountinfo") opens $H5PERF_FAULT_MOUNTINFO_INIT (no table
 *   lists it: only the statfs magic is left).
 * - ftruncate() beyond $H5PERF_FAULT_MAX_FILE bytes fails with EFBIG, as on a
 *   file system whose largest file is that size.
 * - getxattr(path, "lustre.lov") returns the bytes of the file
 *   $H5PERF_FAULT_LOV, when set: a directory of a Lustre file system with
 *   that default striping (its layout in the results).
 * - fprintf() to stderr on rank $H5PERF_FAULT_STDERR_RANK (default 0) waits
 *   $H5PERF_FAULT_STDERR_DELAY_US microseconds first: a process slow to
 *   write its line under load.
 * - One fault at one call (the fault campaign, tests/fault_campaign.py): on
 *   rank $H5PERF_FAULT_RANK, the $H5PERF_FAULT_CALL-th call (from 1) of
 *   pwrite, pread, pwritev and preadv on the files of H5PERF_FAULT_SUFFIX
 *   meets $H5PERF_FAULT_KIND: eio (that call fails with EIO), enospc (that
 *   write and every later one fail with ENOSPC: a full disk; reads go on),
 *   short (it moves half of what was asked), eintr (it fails with EINTR,
 *   nothing moved), delay (it first sleeps $H5PERF_FAULT_DELAY_S seconds),
 *   kill (the process is killed by SIGKILL); with $H5PERF_FAULT_FROM_OFFSET
 *   only calls at that file offset or beyond count (past a library's
 *   metadata, at its data), with $H5PERF_FAULT_OPS "reads" or "writes"
 *   only those. When the fault strikes, one
 *   line "<kind> rank <r> call <n> <op> offset <o>" is appended to
 *   $H5PERF_FAULT_LOG, so that the campaign knows it did. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static int fault_rank(void)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    if (!r)
        r = getenv("PMI_RANK");
    return r ? atoi(r) : -1;
}

static int fault_on(const char *var)
{
    const char *v = getenv(var);
    return v && atoi(v) == fault_rank();
}

/* Does the file open on fd have a name ending with $suffix_var? */
static int fault_matches(int fd, const char *suffix_var)
{
    const char *suffix = getenv(suffix_var);
    char link[64], path[4096];
    if (!suffix)
        return 0;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0)
        return 0;
    path[n] = '\0';
    size_t ls = strlen(suffix), lp = (size_t)n;
    return lp >= ls && strcmp(path + lp - ls, suffix) == 0;
}

/* Sleeps the microseconds the variable gives, if it is set: one number,
 * or with by_rank a comma-separated list, this rank's entry. */
static void fault_delay(const char *var, int by_rank)
{
    const char *delay = getenv(var);
    if (!delay)
        return;
    for (int r = by_rank ? fault_rank() : 0; r > 0 && delay; r--) {
        delay = strchr(delay, ',');
        delay = delay ? delay + 1 : NULL;
    }
    if (!delay)
        return;
    long long us = atoll(delay);
    struct timespec t = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
    while (nanosleep(&t, &t) != 0)
        ;
}

/* The faults of a write to fd: 0 to go on, -1 (errno set) to fail it. */
static int fault_write(int fd)
{
    if (!fault_matches(fd, "H5PERF_FAULT_SUFFIX"))
        return 0;
    if (fault_on("H5PERF_FAULT_EIO_RANK")) {
        errno = EIO;
        return -1;
    }
    if (fault_on("H5PERF_FAULT_HANG_RANK"))
        for (;;)
            pause();
    fault_delay("H5PERF_FAULT_DELAY_US", 0);
    fault_delay("H5PERF_FAULT_DELAYS_US", 1);
    return 0;
}

enum fault_kind {
    FAULT_NONE,
    FAULT_EIO,
    FAULT_ENOSPC,
    FAULT_SHORT,
    FAULT_EINTR,
    FAULT_DELAY,
    FAULT_KILL
};

/* The campaign's fault this call meets on a data file (fd), counted from
 * 1 over this process's calls; FAULT_NONE for the others. An ENOSPC lasts
 * for every later write. */
static enum fault_kind fault_campaign(int fd, bool write, const char *op, off_t off)
{
    static const char *const names[] = {"", "eio", "enospc", "short", "eintr", "delay", "kill"};
    static long calls;
    static bool full;
    const char *kind = getenv("H5PERF_FAULT_KIND"), *at = getenv("H5PERF_FAULT_CALL");
    const char *from = getenv("H5PERF_FAULT_FROM_OFFSET"), *ops = getenv("H5PERF_FAULT_OPS");
    if (!kind || !at || !fault_on("H5PERF_FAULT_RANK") ||
        !fault_matches(fd, "H5PERF_FAULT_SUFFIX") || (from && (long long)off < atoll(from)) ||
        (ops && strcmp(ops, write ? "writes" : "reads") != 0))
        return FAULT_NONE;
    enum fault_kind k = FAULT_NONE;
    for (int i = 1; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(kind, names[i]) == 0)
            k = (enum fault_kind)i;
    long n = ++calls;
    if (k == FAULT_ENOSPC && write && (full || n >= atol(at))) {
        bool first = !full;
        full = true;
        if (!first)
            return FAULT_ENOSPC;
    } else if (n != atol(at) || k == FAULT_ENOSPC) {
        return FAULT_NONE;
    }
    const char *log = getenv("H5PERF_FAULT_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "%s rank %d call %ld %s offset %lld\n", names[k], fault_rank(), n, op,
                (long long)off);
        fclose(f);
    }
    if (k == FAULT_DELAY) {
        const char *secs = getenv("H5PERF_FAULT_DELAY_S");
        struct timespec t = {(time_t)(secs ? atol(secs) : 1), 0};
        while (nanosleep(&t, &t) != 0)
            ;
    }
    if (k == FAULT_KILL)
        raise(SIGKILL);
    return k;
}

/* errno and -1 for the kinds that fail the call. */
static bool fault_fails(enum fault_kind k, ssize_t *ret)
{
    int e = k == FAULT_EIO ? EIO : k == FAULT_ENOSPC ? ENOSPC : k == FAULT_EINTR ? EINTR : 0;
    if (!e)
        return false;
    errno = e;
    *ret = -1;
    return true;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    enum fault_kind k = fault_campaign(fd, true, "pwrite", off);
    ssize_t ret;
    if (fault_fails(k, &ret))
        return ret;
    if (k == FAULT_SHORT && len > 1)
        len /= 2;
    if (fault_write(fd) != 0)
        return -1;
    return real(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
    return pwrite(fd, buf, len, off);
}

static void fault_corrupt(int fd, void *buf, ssize_t got, off_t off)
{
    const char *o = getenv("H5PERF_CORRUPT_OFFSET"), *c = getenv("H5PERF_CORRUPT_COUNT");
    if (got <= 0 || !o || !fault_matches(fd, "H5PERF_CORRUPT_SUFFIX"))
        return;
    long long first = atoll(o), count = c ? atoll(c) : 1;
    for (long long i = first; i < first + count; i++)
        if (i >= off && i < off + got)
            ((unsigned char *)buf)[i - off] ^= 0xff;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
    static ssize_t (*real)(int, void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
    enum fault_kind k = fault_campaign(fd, false, "pread", off);
    ssize_t ret;
    if (fault_fails(k, &ret))
        return ret;
    if (k == FAULT_SHORT && len > 1)
        len /= 2;
    if (fault_matches(fd, "H5PERF_FAULT_SUFFIX"))
        fault_delay("H5PERF_FAULT_READ_DELAY_US", 0);
    ssize_t got = real(fd, buf, len, off);
    fault_corrupt(fd, buf, got, off);
    return got;
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
    return pread(fd, buf, len, off);
}

/* pwritev() and preadv() (Open MPI's ompio): a short call moves the first
 * half of the vector's bytes. */
static int fault_half(const struct iovec *iov, int n, struct iovec *out)
{
    size_t total = 0, want, used = 0;
    int m = 0;
    for (int i = 0; i < n; i++)
        total += iov[i].iov_len;
    want = total / 2;
    for (; m < n && m < 64 && used < want; m++) {
        out[m] = iov[m];
        if (used + out[m].iov_len > want)
            out[m].iov_len = want - used;
        used += out[m].iov_len;
    }
    return m > 0 ? m : 1;
}

static ssize_t fault_vec(const char *name, bool write, int fd, const struct iovec *iov, int n,
                         off_t off)
{
    ssize_t (*real)(int, const struct iovec *, int, off_t);
    void *sym = dlsym(RTLD_NEXT, name);
    memcpy(&real, &sym, sizeof real);
    enum fault_kind k = fault_campaign(fd, write, name, off);
    ssize_t ret;
    if (fault_fails(k, &ret))
        return ret;
    /* OMPIO writes a noncontiguous memory layout (PnetCDF's strided 2D
     * transfers) with one pwritev per file run: the same faults as pwrite. */
    if (write && fault_write(fd) != 0)
        return -1;
    struct iovec half[64];
    if (k == FAULT_SHORT && n > 0)
        return real(fd, half, fault_half(iov, n, half), off);
    return real(fd, iov, n, off);
}

ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
    return fault_vec("pwritev", true, fd, iov, n, off);
}

ssize_t preadv(int fd, const struct iovec *iov, int n, off_t off)
{
    return fault_vec("preadv", false, fd, iov, n, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int n, off_t off)
{
    return fault_vec("pwritev64", true, fd, iov, n, off);
}

ssize_t preadv64(int fd, const struct iovec *iov, int n, off_t off)
{
    return fault_vec("preadv64", false, fd, iov, n, off);
}

/* open() and open64() of the C library, refusing O_DIRECT when asked to. */
static int fault_open(const char *name, const char *path, int flags, mode_t mode)
{
    int (*real)(const char *, int, ...);
    void *sym = dlsym(RTLD_NEXT, name);
    memcpy(&real, &sym, sizeof real);
    if ((flags & O_DIRECT) && getenv("H5PERF_FAULT_NO_DIRECT")) {
        errno = EINVAL;
        return -1;
    }
    int fd = real(path, flags, mode);
    const char *kill_at = getenv("H5PERF_FAULT_KILL_CREATE");
    if (fd >= 0 && kill_at && *kill_at && (flags & O_CREAT) && path && strstr(path, kill_at)) {
        const char *s = getenv("H5PERF_FAULT_KILL_SIGNAL");
        int sig = s ? atoi(s) : SIGKILL;
        const char *log = getenv("H5PERF_FAULT_LOG");
        FILE *f = log ? fopen(log, "a") : NULL;
        if (f) {
            fprintf(f, "kill rank %d signal %d create %s\n", fault_rank(), sig, path);
            fclose(f);
        }
        raise(sig);
    }
    return fd;
}

int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return fault_open("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    return fault_open("open64", path, flags, mode);
}

FILE *fopen(const char *path, const char *mode)
{
    FILE *(*real)(const char *, const char *) =
        (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    const char *fake = getenv("H5PERF_FAULT_MEMINFO");
    if (fake && path && strcmp(path, "/proc/meminfo") == 0)
        path = fake;
    fake = getenv("H5PERF_FAULT_MOUNTINFO");
    if (fake && path && strcmp(path, "/proc/self/mountinfo") == 0)
        path = fake;
    fake = getenv("H5PERF_FAULT_MOUNTINFO_INIT");
    if (fake && path && strcmp(path, "/proc/1/mountinfo") == 0)
        path = fake;
    return real(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    return fopen(path, mode);
}

int ftruncate(int fd, off_t len)
{
    int (*real)(int, off_t);
    void *sym = dlsym(RTLD_NEXT, "ftruncate");
    memcpy(&real, &sym, sizeof real);
    const char *max = getenv("H5PERF_FAULT_MAX_FILE");
    if (max && (long long)len > atoll(max)) {
        errno = EFBIG;
        return -1;
    }
    return real(fd, len);
}

int ftruncate64(int fd, off_t len)
{
    return ftruncate(fd, len);
}

int fprintf(FILE *stream, const char *fmt, ...)
{
    const char *rank = getenv("H5PERF_FAULT_STDERR_RANK");
    if (stream == stderr && (rank ? atoi(rank) : 0) == fault_rank())
        fault_delay("H5PERF_FAULT_STDERR_DELAY_US", 0);
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(stream, fmt, ap);
    va_end(ap);
    return n;
}

ssize_t getxattr(const char *path, const char *name, void *value, size_t size)
{
    const char *lov = getenv("H5PERF_FAULT_LOV");
    if (lov && strcmp(name, "lustre.lov") == 0) {
        FILE *f = fopen(lov, "rb");
        if (!f) {
            errno = ENODATA;
            return -1;
        }
        size_t n = fread(value, 1, size, f);
        fclose(f);
        return (ssize_t)n;
    }
    ssize_t (*real)(const char *, const char *, void *, size_t);
    void *sym = dlsym(RTLD_NEXT, "getxattr");
    memcpy(&real, &sym, sizeof real);
    return real(path, name, value, size);
}
