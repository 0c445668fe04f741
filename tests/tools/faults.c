/* Test shim (LD_PRELOAD): injects faults into pwrite() of files whose name
 * ends with H5PERF_FAULT_SUFFIX, on chosen MPI ranks (Open MPI's
 * OMPI_COMM_WORLD_RANK or MPICH's PMI_RANK):
 *   H5PERF_FAULT_EIO_RANK=r   pwrite fails with EIO on rank r
 *   H5PERF_FAULT_HANG_RANK=r  pwrite blocks forever on rank r (a hung server)
 * so that failures on only some processes can be tested without touching
 * h5perf's code. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
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

static int fault_matches(int fd)
{
    const char *suffix = getenv("H5PERF_FAULT_SUFFIX");
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

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
    static ssize_t (*real)(int, const void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
    if (fault_matches(fd)) {
        if (fault_on("H5PERF_FAULT_EIO_RANK")) {
            errno = EIO;
            return -1;
        }
        if (fault_on("H5PERF_FAULT_HANG_RANK"))
            for (;;)
                pause();
    }
    return real(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
    return pwrite(fd, buf, len, off);
}
