/* Memory before any data file exists: the transfer buffers of every process
 * of a host, summed, against what the host (MemAvailable) and each memory
 * cgroup of its processes (a batch job's limit) can give, so that a run that
 * cannot fit is refused with one line rather than killed by the kernel's
 * out-of-memory killer (docs/differences.md, "Memory"). */
#ifndef H5PERF_MEMORY_H
#define H5PERF_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "engine/setup.h"

/* Local: the bytes this host can give without swapping (MemAvailable of
 * /proc/meminfo, else its free pages); -1 if unknown. */
int64_t memory_host_available(void);

#define MEMORY_PATH   256 /* a cgroup's path, as /proc/self/cgroup gives it */
#define MEMORY_LEVELS 4   /* limited cgroups kept per process, innermost first */

/* A memory cgroup with a limit: its path and what it allows more. */
struct memory_limit {
    char path[MEMORY_PATH];
    int64_t avail;
};

/* Local: this process's memory cgroup (own_path, MEMORY_PATH bytes; "" if
 * none) and, from it up to the root, the cgroups with a limit and what each
 * allows more (limit - usage + inactive page cache, which the kernel
 * reclaims), at most max of them, innermost first. Returns their number;
 * 0 without a limit or a cgroup file system (v1 memory controller, or v2). */
int memory_cgroup_limits(char *own_path, struct memory_limit *out, int max);

/* Room for memory_for_reading()'s account of where the memory is. */
#define MEMORY_WHERE_MAX (MPI_MAX_PROCESSOR_NAME + MEMORY_PATH + 64)

/* Local, on the process that reads a pattern's input before the run plan
 * exists (process 0): the least of what its host has available and what
 * each memory cgroup it is in allows more, into where which one ("host
 * 'n1' has 1.5 GiB available", "memory cgroup '/job' on host 'n1' allows
 * 469.0 MiB more"); -1 when neither is known. */
int64_t memory_for_reading(char *where, size_t len);

/* Collective over MPI_COMM_WORLD, after parsing: false on the first process
 * of a host whose processes' transfer buffers do not fit (with m set), true
 * elsewhere and with --no-memory-check. */
bool memory_check(const struct run *run, struct cli_msg *m);

#endif
