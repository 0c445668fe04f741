/* The choice of the library call the fault shims (h5faults.c, ncfaults.c;
 * LD_PRELOAD) make fail, as a library short of memory would: on the
 * process whose rank in MPI_COMM_WORLD is $H5PERF_LIB_FAULT_RANK, the
 * $H5PERF_LIB_FAULT_CALL-th call (from 1; default 1) of the function
 * $H5PERF_LIB_FAULT names. Set it on the ranks only (mpiexec ... env
 * LD_PRELOAD=...), not on mpiexec. */
#ifndef H5PERF_LIB_FAULT_H
#define H5PERF_LIB_FAULT_H

#include <dlfcn.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The next definition of a function (the library's), through a union: ISO
 * C has no conversion from dlsym's object pointer to a function pointer. */
typedef void (*lib_fault_fn)(void);
static inline lib_fault_fn lib_fault_real(const char *name)
{
    union {
        void *p;
        lib_fault_fn f;
    } u;
    u.p = dlsym(RTLD_NEXT, name);
    return u.f;
}

/* Is this call of function name the one to fail? calls: that function's
 * count of calls so far in this process. */
static inline bool lib_fault(const char *name, long *calls)
{
    const char *which = getenv("H5PERF_LIB_FAULT"), *rank = getenv("H5PERF_LIB_FAULT_RANK");
    const char *call = getenv("H5PERF_LIB_FAULT_CALL");
    int me = -1, up = 0, down = 0;
    if (!which || !rank || strcmp(which, name) != 0)
        return false;
    if (MPI_Initialized(&up) != MPI_SUCCESS || !up || MPI_Finalized(&down) != MPI_SUCCESS || down)
        return false;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me != atoi(rank))
        return false;
    return ++*calls == (call ? atol(call) : 1);
}

#endif
