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
 * - fopen("/proc/meminfo") opens $H5PERF_FAULT_MEMINFO instead, when set: a
 *   node with that much memory available (page-cache and memory tests).
 * - fopen("/proc/self/mountinfo") opens $H5PERF_FAULT_MOUNTINFO instead, when
 *   set: a chroot or container whose mount table lacks the data directory;
 *   fopen("/proc/1/mountinfo") opens $H5PERF_FAULT_MOUNTINFO_INIT (no table
 *   lists it: only the statfs magic is left).
 * - ftruncate() beyond $H5PERF_FAULT_MAX_FILE bytes fails with EFBIG, as on a
 *   file system whose largest file is that size. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
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

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    if (fault_write(fd) != 0)
        return -1;
    return real(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
    return pwrite(fd, buf, len, off);
}

/* Open MPI's OMPIO writes a noncontiguous memory layout (PnetCDF's strided
 * 2D transfers) with one pwritev per file run. */
ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
    static ssize_t (*real)(int, const struct iovec *, int, off_t);
    if (!real)
        real = (ssize_t(*)(int, const struct iovec *, int, off_t))dlsym(RTLD_NEXT, "pwritev");
    if (fault_write(fd) != 0)
        return -1;
    return real(fd, iov, n, off);
}

ssize_t pwritev64(int fd, const struct iovec *iov, int n, off_t off)
{
    return pwritev(fd, iov, n, off);
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
    return real(path, flags, mode);
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
