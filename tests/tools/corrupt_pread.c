/* Test shim (LD_PRELOAD): pread() as usual, then flips the bytes at file
 * offsets [H5PERF_CORRUPT_OFFSET, +H5PERF_CORRUPT_COUNT) of files whose
 * name ends with H5PERF_CORRUPT_SUFFIX, so that verification failures can be
 * tested without touching h5perf's code. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int corrupt_matches(int fd)
{
    const char *suffix = getenv("H5PERF_CORRUPT_SUFFIX");
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

static void corrupt(int fd, void *buf, ssize_t got, off_t off)
{
    const char *o = getenv("H5PERF_CORRUPT_OFFSET"), *c = getenv("H5PERF_CORRUPT_COUNT");
    if (got <= 0 || !o || !corrupt_matches(fd))
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
    ssize_t got = real(fd, buf, len, off);
    corrupt(fd, buf, got, off);
    return got;
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
    return pread(fd, buf, len, off);
}
