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

#include "engine/setup.h"

/* Local: the bytes this host can give without swapping (MemAvailable of
 * /proc/meminfo, else its free pages); -1 if unknown. */
int64_t memory_host_available(void);

/* Local: the bytes the memory cgroup of this process (and its ancestors)
 * allows it to take more, counting the reclaimable page cache as free; -1
 * without a limit or a cgroup file system. The cgroup's path goes to path. */
int64_t memory_cgroup_available(char *path, size_t len);

/* Collective over MPI_COMM_WORLD, after parsing: false on the first process
 * of a host whose processes' transfer buffers do not fit (with m set), true
 * elsewhere and with --no-memory-check. */
bool memory_check(const struct setup *s, struct cli_msg *m);

#endif
