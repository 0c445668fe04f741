/* Test shim (LD_PRELOAD) that records, without touching h5perf's code, how
 * a process initialised MPI and which HDF5 dataset transfers it made: at
 * exit it writes to $H5PERF_CALLS_LOG.<pid> one line per kind of call,
 *   MPI_Init                         MPI initialised without a thread level
 *   MPI_Init_thread <level asked>    0 single ... 3 multiple
 *   H5Dwrite <calls>, H5Dread <calls>
 *   H5Dwrite_multi <calls> <datasets>, H5Dread_multi <calls> <datasets>
 *                                    (HDF5 1.14 and newer)
 * so that tests/mpi/hdf5_drivers.py can tell one call per variable from one
 * call for every variable, and the thread level the run asked for. With
 * $H5PERF_CALLS_FAPL set, also one line per distinct file access property
 * list that H5Fcreate and H5Fopen were given, read back through HDF5's own
 * getters (tests/mpi/hdf5_choices.py):
 *   fapl <all_coll_metadata_ops 0|1> <coll_metadata_write 0|1> <meta_block_size>
 * With $H5PERF_CALLS_CREATE set, also each dataset it creates, as it
 * creates it (a process of a failed job may be killed before its exit),
 * to $H5PERF_CALLS_LOG.<pid>.create (tests/mpi/failures.py):
 *   H5Dcreate2 <name> */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calls_log.h"

enum { CALL_WRITE, CALL_READ, CALL_WRITE_MULTI, CALL_READ_MULTI, CALL_KINDS };
static const char *const call_names[CALL_KINDS] = {"H5Dwrite", "H5Dread", "H5Dwrite_multi",
                                                   "H5Dread_multi"};
static long calls[CALL_KINDS], dsets[CALL_KINDS];
static int init_level = -2; /* -1: MPI_Init; else MPI_Init_thread's level */
#define CALLS_MAX_FAPL 8
static int nfapl; /* distinct fapl lines seen, in order */
static char fapl_lines[CALLS_MAX_FAPL][96];

static void *calls_real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

__attribute__((destructor)) static void calls_write(void)
{
    FILE *f = calls_log_open();
    if (!f)
        return;
    if (init_level == -1)
        fprintf(f, "MPI_Init\n");
    else if (init_level >= 0)
        fprintf(f, "MPI_Init_thread %d\n", init_level);
    for (int k = 0; getenv("H5PERF_CALLS_FAPL") && k < nfapl; k++)
        fprintf(f, "%s\n", fapl_lines[k]);
    for (int k = 0; k < CALL_KINDS; k++)
        if (calls[k])
            fprintf(f, k >= CALL_WRITE_MULTI ? "%s %ld %ld\n" : "%s %ld\n", call_names[k], calls[k],
                    dsets[k]);
    fclose(f);
}

int MPI_Init(int *argc, char ***argv)
{
    int (*real)(int *, char ***);
    void *sym = calls_real("MPI_Init");
    memcpy(&real, &sym, sizeof real);
    init_level = -1;
    return real(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int (*real)(int *, char ***, int, int *);
    void *sym = calls_real("MPI_Init_thread");
    memcpy(&real, &sym, sizeof real);
    init_level = required == MPI_THREAD_MULTIPLE     ? 3
                 : required == MPI_THREAD_SERIALIZED ? 2
                 : required == MPI_THREAD_FUNNELED   ? 1
                                                     : 0;
    return real(argc, argv, required, provided);
}

/* Records fapl's metadata settings as HDF5 reports them. */
static void calls_fapl(hid_t fapl)
{
    bool ops = false, write = false;
    hsize_t block = 0;
    char line[96];
    if (fapl == H5P_DEFAULT)
        fapl = H5P_FILE_ACCESS_DEFAULT;
    if (H5Pget_all_coll_metadata_ops(fapl, &ops) < 0 ||
        H5Pget_coll_metadata_write(fapl, &write) < 0 || H5Pget_meta_block_size(fapl, &block) < 0)
        snprintf(line, sizeof line, "fapl unreadable");
    else
        snprintf(line, sizeof line, "fapl %d %d %llu", ops, write, (unsigned long long)block);
    for (int k = 0; k < nfapl; k++)
        if (strcmp(fapl_lines[k], line) == 0)
            return;
    if (nfapl < CALLS_MAX_FAPL)
        snprintf(fapl_lines[nfapl++], sizeof fapl_lines[0], "%s", line);
}

hid_t H5Fcreate(const char *name, unsigned flags, hid_t fcpl, hid_t fapl)
{
    hid_t (*real)(const char *, unsigned, hid_t, hid_t);
    void *sym = calls_real("H5Fcreate");
    memcpy(&real, &sym, sizeof real);
    calls_fapl(fapl);
    return real(name, flags, fcpl, fapl);
}

hid_t H5Fopen(const char *name, unsigned flags, hid_t fapl)
{
    hid_t (*real)(const char *, unsigned, hid_t);
    void *sym = calls_real("H5Fopen");
    memcpy(&real, &sym, sizeof real);
    calls_fapl(fapl);
    return real(name, flags, fapl);
}

hid_t H5Dcreate2(hid_t loc, const char *name, hid_t type, hid_t space, hid_t lcpl, hid_t dcpl,
                 hid_t dapl)
{
    hid_t (*real)(hid_t, const char *, hid_t, hid_t, hid_t, hid_t, hid_t);
    void *sym = calls_real("H5Dcreate2");
    memcpy(&real, &sym, sizeof real);
    const char *log = getenv("H5PERF_CALLS_LOG");
    if (log && getenv("H5PERF_CALLS_CREATE")) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%ld.create", log, (long)getpid());
        FILE *f = fopen(path, "a");
        if (f) {
            fprintf(f, "H5Dcreate2 %s\n", name);
            fclose(f);
        }
    }
    return real(loc, name, type, space, lcpl, dcpl, dapl);
}

herr_t H5Dwrite(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space, hid_t dxpl,
                const void *buf)
{
    herr_t (*real)(hid_t, hid_t, hid_t, hid_t, hid_t, const void *);
    void *sym = calls_real("H5Dwrite");
    memcpy(&real, &sym, sizeof real);
    calls[CALL_WRITE]++;
    return real(dset, mem_type, mem_space, file_space, dxpl, buf);
}

herr_t H5Dread(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space, hid_t dxpl, void *buf)
{
    herr_t (*real)(hid_t, hid_t, hid_t, hid_t, hid_t, void *);
    void *sym = calls_real("H5Dread");
    memcpy(&real, &sym, sizeof real);
    calls[CALL_READ]++;
    return real(dset, mem_type, mem_space, file_space, dxpl, buf);
}

#if H5_VERSION_GE(1, 14, 0)
herr_t H5Dwrite_multi(size_t count, hid_t dset_id[], hid_t mem_type_id[], hid_t mem_space_id[],
                      hid_t file_space_id[], hid_t dxpl_id, const void *buf[])
{
    herr_t (*real)(size_t, hid_t[], hid_t[], hid_t[], hid_t[], hid_t, const void *[]);
    void *sym = calls_real("H5Dwrite_multi");
    memcpy(&real, &sym, sizeof real);
    calls[CALL_WRITE_MULTI]++;
    dsets[CALL_WRITE_MULTI] += (long)count;
    return real(count, dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
}

herr_t H5Dread_multi(size_t count, hid_t dset_id[], hid_t mem_type_id[], hid_t mem_space_id[],
                     hid_t file_space_id[], hid_t dxpl_id, void *buf[])
{
    herr_t (*real)(size_t, hid_t[], hid_t[], hid_t[], hid_t[], hid_t, void *[]);
    void *sym = calls_real("H5Dread_multi");
    memcpy(&real, &sym, sizeof real);
    calls[CALL_READ_MULTI]++;
    dsets[CALL_READ_MULTI] += (long)count;
    return real(count, dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf);
}
#endif
