/* Test shim (LD_PRELOAD) that makes memory run out for one allocation size:
 * on the MPI rank $H5PERF_ALLOC_RANK (Open MPI's OMPI_COMM_WORLD_RANK or
 * MPICH's PMI_RANK; default 0), every malloc(), calloc() and realloc() of
 * exactly $H5PERF_ALLOC_FAIL_SIZE bytes returns NULL with ENOMEM (the sizes
 * of h5perf's own records: tests/tools/record_sizes.c). The first such
 * failure appends "alloc rank <r> size <n>" to $H5PERF_ALLOC_LOG. Other
 * allocations go to the C library's. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static int alloc_rank(void)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    if (!r)
        r = getenv("PMI_RANK");
    return r ? atoi(r) : -1;
}

/* Does an allocation of n bytes fail here? getenv and atoi allocate
 * nothing; the log is written once, with the failure itself turned off. */
static bool alloc_fails(size_t n)
{
    static __thread bool logging;
    const char *size = getenv("H5PERF_ALLOC_FAIL_SIZE");
    if (logging || !size || strtoull(size, NULL, 10) != n)
        return false;
    const char *want = getenv("H5PERF_ALLOC_RANK");
    int rank = alloc_rank();
    if (rank != (want ? atoi(want) : 0))
        return false;
    static bool logged;
    const char *log = getenv("H5PERF_ALLOC_LOG");
    if (log && !logged) {
        logged = logging = true;
        FILE *f = fopen(log, "a");
        if (f) {
            fprintf(f, "alloc rank %d size %zu\n", rank, n);
            fclose(f);
        }
        logging = false;
    }
    errno = ENOMEM;
    return true;
}

void *malloc(size_t n)
{
    return alloc_fails(n) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return size && n <= (size_t)-1 / size && alloc_fails(n * size) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return alloc_fails(n) ? NULL : __libc_realloc(p, n);
}
