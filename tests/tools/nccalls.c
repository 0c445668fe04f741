/* Test shim (LD_PRELOAD) that records, without touching h5perf's code,
 * which PnetCDF data calls a process made: at exit it writes to
 * $H5PERF_CALLS_LOG.<pid> one line per kind of call it saw,
 *   ncmpi_put_vara_all <calls>, ncmpi_put_varn_all <calls>, ...
 *                                 the blocking calls (put/get, vara/varn,
 *                                 independent or _all)
 *   ncmpi_iput_vara <calls>, ncmpi_iput_varn <calls>, ncmpi_iget_vara
 *   <calls>, ncmpi_iget_varn <calls>
 *                                 the nonblocking posts
 *   ncmpi_wait_all <calls> <requests>, ncmpi_wait <calls> <requests>
 *                                 the waits, and the requests they were
 *                                 given in all
 * so that tests/mpi/pnetcdf.py can tell one blocking call per variable
 * from every variable posted and completed by one wait (docs/pnetcdf.md,
 * "Nonblocking calls"). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "calls_log.h"

enum {
    NC_PUT_VARA,
    NC_PUT_VARA_ALL,
    NC_PUT_VARN,
    NC_PUT_VARN_ALL,
    NC_GET_VARA,
    NC_GET_VARA_ALL,
    NC_GET_VARN,
    NC_GET_VARN_ALL,
    NC_IPUT_VARA,
    NC_IPUT_VARN,
    NC_IGET_VARA,
    NC_IGET_VARN,
    NC_WAIT,
    NC_WAIT_ALL,
    NC_KINDS
};
static const char *const call_names[NC_KINDS] = {
    "ncmpi_put_vara",  "ncmpi_put_vara_all", "ncmpi_put_varn",  "ncmpi_put_varn_all",
    "ncmpi_get_vara",  "ncmpi_get_vara_all", "ncmpi_get_varn",  "ncmpi_get_varn_all",
    "ncmpi_iput_vara", "ncmpi_iput_varn",    "ncmpi_iget_vara", "ncmpi_iget_varn",
    "ncmpi_wait",      "ncmpi_wait_all"};
static long calls[NC_KINDS], requests[NC_KINDS];

/* The next definition of a function (PnetCDF's), through a union: ISO C
 * has no conversion from dlsym's object pointer to a function pointer. */
typedef void (*any_fn)(void);
static any_fn calls_real(const char *name)
{
    union {
        void *p;
        any_fn f;
    } u;
    u.p = dlsym(RTLD_NEXT, name);
    return u.f;
}

__attribute__((destructor)) static void calls_write(void)
{
    FILE *f = calls_log_open();
    if (!f)
        return;
    for (int k = 0; k < NC_KINDS; k++) {
        if (calls[k] && k >= NC_WAIT)
            fprintf(f, "%s %ld %ld\n", call_names[k], calls[k], requests[k]);
        else if (calls[k])
            fprintf(f, "%s %ld\n", call_names[k], calls[k]);
    }
    fclose(f);
}

typedef int (*vara_put_fn)(int, int, const MPI_Offset *, const MPI_Offset *, const void *,
                           MPI_Offset, MPI_Datatype);
typedef int (*vara_get_fn)(int, int, const MPI_Offset *, const MPI_Offset *, void *, MPI_Offset,
                           MPI_Datatype);
typedef int (*varn_put_fn)(int, int, int, MPI_Offset *const *, MPI_Offset *const *, const void *,
                           MPI_Offset, MPI_Datatype);
typedef int (*varn_get_fn)(int, int, int, MPI_Offset *const *, MPI_Offset *const *, void *,
                           MPI_Offset, MPI_Datatype);
typedef int (*ivara_put_fn)(int, int, const MPI_Offset *, const MPI_Offset *, const void *,
                            MPI_Offset, MPI_Datatype, int *);
typedef int (*ivara_get_fn)(int, int, const MPI_Offset *, const MPI_Offset *, void *, MPI_Offset,
                            MPI_Datatype, int *);
typedef int (*ivarn_put_fn)(int, int, int, MPI_Offset *const *, MPI_Offset *const *, const void *,
                            MPI_Offset, MPI_Datatype, int *);
typedef int (*ivarn_get_fn)(int, int, int, MPI_Offset *const *, MPI_Offset *const *, void *,
                            MPI_Offset, MPI_Datatype, int *);
typedef int (*wait_fn)(int, int, int *, int *);

#define VARA(NAME, KIND, FN, BUF)                                                                  \
    int NAME(int ncid, int varid, const MPI_Offset *start, const MPI_Offset *count, BUF buf,       \
             MPI_Offset bufcount, MPI_Datatype buftype)                                            \
    {                                                                                              \
        calls[KIND]++;                                                                             \
        return ((FN)calls_real(#NAME))(ncid, varid, start, count, buf, bufcount, buftype);         \
    }
#define VARN(NAME, KIND, FN, BUF)                                                                  \
    int NAME(int ncid, int varid, int num, MPI_Offset *const *starts, MPI_Offset *const *counts,   \
             BUF buf, MPI_Offset bufcount, MPI_Datatype buftype)                                   \
    {                                                                                              \
        calls[KIND]++;                                                                             \
        return ((FN)calls_real(#NAME))(ncid, varid, num, starts, counts, buf, bufcount, buftype);  \
    }
#define IVARA(NAME, KIND, FN, BUF)                                                                 \
    int NAME(int ncid, int varid, const MPI_Offset *start, const MPI_Offset *count, BUF buf,       \
             MPI_Offset bufcount, MPI_Datatype buftype, int *req)                                  \
    {                                                                                              \
        calls[KIND]++;                                                                             \
        return ((FN)calls_real(#NAME))(ncid, varid, start, count, buf, bufcount, buftype, req);    \
    }
#define IVARN(NAME, KIND, FN, BUF)                                                                 \
    int NAME(int ncid, int varid, int num, MPI_Offset *const *starts, MPI_Offset *const *counts,   \
             BUF buf, MPI_Offset bufcount, MPI_Datatype buftype, int *req)                         \
    {                                                                                              \
        calls[KIND]++;                                                                             \
        return ((FN)calls_real(#NAME))(ncid, varid, num, starts, counts, buf, bufcount, buftype,   \
                                       req);                                                       \
    }
#define WAIT(NAME, KIND)                                                                           \
    int NAME(int ncid, int count, int reqs[], int statuses[])                                      \
    {                                                                                              \
        calls[KIND]++;                                                                             \
        requests[KIND] += count;                                                                   \
        return ((wait_fn)calls_real(#NAME))(ncid, count, reqs, statuses);                          \
    }

VARA(ncmpi_put_vara, NC_PUT_VARA, vara_put_fn, const void *)
VARA(ncmpi_put_vara_all, NC_PUT_VARA_ALL, vara_put_fn, const void *)
VARA(ncmpi_get_vara, NC_GET_VARA, vara_get_fn, void *)
VARA(ncmpi_get_vara_all, NC_GET_VARA_ALL, vara_get_fn, void *)
VARN(ncmpi_put_varn, NC_PUT_VARN, varn_put_fn, const void *)
VARN(ncmpi_put_varn_all, NC_PUT_VARN_ALL, varn_put_fn, const void *)
VARN(ncmpi_get_varn, NC_GET_VARN, varn_get_fn, void *)
VARN(ncmpi_get_varn_all, NC_GET_VARN_ALL, varn_get_fn, void *)
IVARA(ncmpi_iput_vara, NC_IPUT_VARA, ivara_put_fn, const void *)
IVARA(ncmpi_iget_vara, NC_IGET_VARA, ivara_get_fn, void *)
IVARN(ncmpi_iput_varn, NC_IPUT_VARN, ivarn_put_fn, const void *)
IVARN(ncmpi_iget_varn, NC_IGET_VARN, ivarn_get_fn, void *)
WAIT(ncmpi_wait, NC_WAIT)
WAIT(ncmpi_wait_all, NC_WAIT_ALL)
