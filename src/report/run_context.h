/* What a run saw around it, for the JSON and CSV writers: versions, hosts,
 * the target directory and its file system, times, the command line, the
 * adjustments announced and how the invocation ended. Plain data filled by
 * the engine (engine/context.c); no MPI, no I/O here. */
#ifndef H5PERF_RUN_CONTEXT_H
#define H5PERF_RUN_CONTEXT_H

#include "api/api.h"
#include "base/msg.h"
#include "report/fslayout.h"

/* The batch job a run is part of (docs/results.md), as world rank 0's
 * environment describes it: the job's allocation, and the step rank 0
 * belongs to. Fields in the JSON's order. */
enum batch_field {
    BATCH_JOB_ID,
    BATCH_JOB_NAME,
    BATCH_PARTITION,
    BATCH_NODES,     /* the job's */
    BATCH_NODE_LIST, /* the job's, as the batch system writes it */
    BATCH_STEP_ID,   /* the step's */
    BATCH_TASKS,     /* the step's */
    BATCH_TASKS_PER_NODE,
    BATCH_FIELDS
};

struct batch_job {
    const char *system;              /* "slurm", "pbs"; NULL: not under a batch system */
    const char *field[BATCH_FIELDS]; /* the variables' values; NULL = unset */
};

struct run_context {
    char version[32];      /* h5perf */
    char commit[48];       /* git commit of the build, or "unknown" */
    char build_type[32];   /* CMake build type ("Release") */
    char c_flags[512];     /* the C compiler's flags for that build type */
    char compiler[64];     /* "GNU 12.2.0" */
    bool optimized;        /* c_flags hold -O1, -O2, -O3, -Os, -Oz or -Ofast */
    char clock[32];        /* the timers' clock: "tsc", "MPI_Wtime" (engine/setup.h) */
    double clock_hz;       /* the counter's calibrated rate; 0: not tsc */
    char hdf5_version[32]; /* the library running, not the headers */
    char mpi_library[256]; /* first line of MPI_Get_library_version() */
    char mpi_version[16];  /* MPI standard, "3.1" */
    /* each API's library as its backend reports it ("HDF5 1.10.8"), by
     * api_id; "" for an API not compiled in */
    char api_versions[API_COUNT][256];
    int processes;        /* started */
    int hosts;            /* distinct processor names */
    char *host_names;     /* the distinct names, '\n'-separated, owned */
    char directory[4096]; /* absolute directory of the data files */
    char fs_type[64];     /* the kernel's name for statfs f_type, or "unknown" */
    unsigned long fs_magic;
    struct fs_layout fs_layout; /* block and I/O sizes, Lustre's striping */
    char start_time[32];        /* UTC, 2026-11-22T07:38:40Z */
    char end_time[32];
    int argc;
    char *const *argv;
    struct cli_warnings warnings;                              /* announced adjustments */
    const char *env_paraprefix, *env_nocleanup, *env_mpi_info; /* NULL = undefined */
    struct batch_job batch;
    int exit_status;
    char page_cache[640]; /* the page-cache warning (docs/performance.md), "" if none */
};

#endif
