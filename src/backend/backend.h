/* The one small interface every I/O API implements, and the static table of
 * the APIs compiled in. Backends carry out the plan a pattern gives them; they
 * never print, exit, time, or decide policy. Every function returns 0 or -1
 * with the error record filled (first error wins). */
#ifndef H5PERF_BACKEND_H
#define H5PERF_BACKEND_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "api/api.h"
#include "base/err.h"
#include "base/iomode.h"
#include "base/measure.h"
#include "plan/plan.h"

/* BACKEND_WRITE creates the file; BACKEND_READ opens it to read;
 * BACKEND_REWRITE opens the file a write phase of the same plan created,
 * to write its variables again in place (--repeat overwrite). */
enum backend_mode { BACKEND_WRITE, BACKEND_READ, BACKEND_REWRITE };

/* The longest prefix of the names of a file's side files (side_name), and
 * its terminating NUL. */
#define BACKEND_SIDE_MAX 32

/* What a backend's check found wrong. */
enum { BACKEND_REFUSED = -1, BACKEND_REFUSED_CHUNKS = -2 };

/* The run's settings a backend acts on, passed in: backends never read the
 * configuration. */
struct backend_settings {
    bool collective;          /* -C: collective transfers (MPI-IO, HDF5, PnetCDF) */
    bool fsync;               /* --fsync: flush before closing a written file */
    bool direct;              /* --direct: POSIX with O_DIRECT */
    int64_t align, threshold; /* -a, -T: HDF5's alignment (-a: PnetCDF's too) */
    int variant;              /* the run point's variant of the API (api/api.h) */
    /* The run point's API's own settings (api/NAME_options.h: HDF5's
     * struct hdf5_settings), opaque here and cast only in that API's
     * backend; NULL: none given (the library's own). */
    const void *api_settings;
};

struct backend_ctx {
    MPI_Comm comm;    /* the processes of this run */
    MPI_Info info;    /* HDF5_MPI_INFO, or MPI_INFO_NULL */
    int rank, nprocs; /* in comm */
    const struct backend_settings *set;
};

struct backend_file; /* a backend's open file, opaque to the engine */

/* A backend carries out the I/O of one API on the plan it is given
 * (plan/plan.h); its identity, capabilities and limits are its entry of the
 * API table (api/api.h). Open and close are always collective over
 * ctx->comm. With API_CAP_COLLECTIVE_DSET the engine agrees after each
 * var_begin, with API_CAP_COLLECTIVE_DEFINE after the first (the others
 * are local); with API_CAP_COLLECTIVE_IO and -C, after a local error a
 * process keeps making the (collective) transfers. */
struct backend_ops {
    const struct api_desc *desc; /* &api_descs[id]; a test backend has its own */
    /* Collective over ctx->comm. BACKEND_WRITE creates the file: exclusively
     * unless may_truncate. plan (every variable of the file) stays valid
     * until close. On success *out is set. On failure *out is NULL, or, if
     * the file was opened before a later step failed, the open file, which
     * the engine then closes (collectively) like any other. Every process
     * that fails because the file exists sets e->exists. */
    int (*open)(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                enum backend_mode mode, bool may_truncate, const struct plan *plan, struct err *e);
    /* Prepares variable var for the steps acc describes (this process's,
     * in the current phase): creates or opens it, builds datatypes, views
     * and selections that serve every step. Variables are begun one at a
     * time, or all of them before any step with transfer_vars. */
    int (*var_begin)(struct backend_file *f, int var, const struct plan_access *acc, struct err *e);
    /* Moves one I/O step of variable s->var (begun) to or from buf (the
     * step's s->bytes, already offset by s->mem_off). */
    int (*transfer)(struct backend_file *f, const struct plan_step *s, void *buf, struct err *e);
    /* Optional (NULL: no nonblocking steps; docs/madbench.md, "Asynchronous
     * I/O"). transfer of a step with s->nonblocking starts it, at most one
     * of each direction at a time; wait completes the one of direction
     * s->write (s: the WAIT step naming it), a no-op when none is started.
     * A started transfer outlives var_end (the file's default view alone);
     * close completes what is left. */
    int (*wait)(struct backend_file *f, const struct plan_step *s, struct err *e);
    /* Releases what var_begin built for the earliest variable begun and not
     * ended. */
    int (*var_end)(struct backend_file *f, struct err *e);
    /* Optional, for the variants with joins_vars (api/api.h; NULL: none):
     * moves the n steps (each of another variable, begun) in one call,
     * steps[i]'s bytes at bufs[i] (offset by its mem_off). */
    int (*transfer_vars)(struct backend_file *f, const struct plan_step *steps, int n,
                         void *const *bufs, struct err *e);
    /* Optional (NULL: none). Local, after the file was created: the files
     * the library made beside it (HDF5's subfiles), named path, then this
     * prefix, then '_' or '.' and more; "" for none. At most
     * BACKEND_SIDE_MAX - 1 bytes. */
    void (*side_name)(struct backend_file *f, char *buf, size_t len);
    /* Closes and frees f, also after errors (f may be NULL: no-op). */
    int (*close)(struct backend_file *f, struct err *e);
    /* Optional (NULL: every phase opens the file itself). Collective like
     * open: f, open since an earlier phase of the plan whose variables are
     * all ended, goes on into the next phase in mode (BACKEND_REWRITE or
     * BACKEND_READ) as if it had been closed and opened so (plan.h,
     * open_once): a phase that wrote is flushed first with --fsync. */
    int (*next_phase)(struct backend_file *f, enum backend_mode mode, struct err *e);
    /* Local, before a --read-only run reads anything: can the existing
     * regular file at path serve plan's variables? Returns 0, or -1 with
     * the reason in why ("holds 8 bytes, fewer than the 24 this run
     * reads"). */
    int (*check_source)(const char *path, const struct plan *plan, char *why, size_t len);
    /* Pure, before any file exists: can this API carry out a run point
     * whose plan (of process 0) and measures over all processes are these,
     * with these settings? What only the backend knows (HDF5's chunk limit,
     * PnetCDF's bytes per call); the limits of the API table are
     * validation's. Returns 0, or BACKEND_REFUSED (BACKEND_REFUSED_CHUNKS
     * when its chunks are to blame) with the reason and a remedy in why. */
    int (*check)(const struct backend_settings *set, const struct plan *plan,
                 const struct pattern_measure *m, char *why, size_t len);
    /* The library behind the API as the run found it ("HDF5 1.10.8"), for
     * the results' context. Local; may call the library, not start I/O. */
    void (*version)(char *buf, size_t len);
    /* Optional (NULL: the API reports nothing of the kind). Local, after
     * each completed collective transfer (-C) on f: adds to *seen what the
     * library did with it, HDF5's actual I/O mode and its causes for not
     * doing collective I/O (docs/results.md, "actual_io_mode"). The engine
     * keeps the call outside its timers. */
    int (*io_mode)(struct backend_file *f, struct io_mode_seen *seen, struct err *e);
    /* Optional, for files that are not flat (NULL: not checked). Local, on
     * the file's process 0 once its write phase is over and it is closed:
     * the size the file at path must have if every byte written reached it
     * (the layout the library chose, read back from the file), or 0 when it
     * has no data; -1 with the reason in why when the file cannot be read.
     * The engine compares it with the file's size: some MPI-IO libraries
     * report a lost write as success (docs/pnetcdf.md, "Errors"). */
    int64_t (*written_end)(const char *path, char *why, size_t len);
};

/* Collective over comm: is every process ready (ok) for the collective
 * library call that follows (H5Fcreate, H5Dcreate2, ncmpi_create,
 * ncmpi_enddef)? A process whose local preparation failed (a property
 * list, a definition) still comes here, so that no process is left alone
 * in the library's call; when any was not, none makes it and each returns
 * -1, only the one that failed with its error (docs/design.md, "Collective
 * calls after a local failure"). One all-reduce of an int. */
bool backend_all_ready(MPI_Comm comm, bool ok);

/* check of a backend with nothing to check beyond the API table. */
int backend_check_none(const struct backend_settings *set, const struct plan *plan,
                       const struct pattern_measure *m, char *why, size_t len);

/* Local. May h5perf replace (truncate and rewrite) the existing file whose
 * lstat() is st? Only a regular file with one link and, if owner, owned by
 * the user running h5perf: anything else is a name for someone else's data
 * (a symbolic link, a second hard link, another user's file). The owner is
 * checked for files found at start-up, not for one this run created (a
 * root-squashed NFS gives those to nobody). Returns 0, or -1 with why ("has
 * 2 hard links (...)") for the message; docs/differences.md, "Files". A
 * file mounted over the name is checked by the caller, which knows the path
 * (names_mount_point()). */
int backend_replaceable(const struct stat *st, bool owner, char *why, size_t why_len);

/* check_source of flat files (API_CAP_FLAT_FILE): the size suffices: at
 * least the plan's (a kept file of the guide's may be larger), exactly
 * when the plan says its file is its data alone. */
int backend_check_flat(const char *path, const struct plan *plan, char *why, size_t len);

extern const struct backend_ops backend_posix;
extern const struct backend_ops backend_mpiio;
extern const struct backend_ops backend_phdf5;
#ifdef H5PERF_HAVE_PNETCDF
extern const struct backend_ops backend_pnetcdf;
#endif

/* The backend of an API; NULL if not compiled in. */
const struct backend_ops *backend_get(enum api_id api);

/* Checks once at start-up that every entry of table (backend_get()'s, or
 * a test's: h5perf_run_with()) is complete and in its slot: a backend of an
 * API of the API table in that API's slot, a test backend (a descriptor of
 * its own) in any. NULL entries are APIs not built in. Returns 0 or -1.
 * Local. */
int backend_check_table(const struct backend_ops *const table[API_COUNT]);

#endif
