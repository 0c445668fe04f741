/* Whether an MPI-IO hint can act in this launch (docs/advisor.md, "Hints
 * honoured"): from what the MPI library reported of a scratch file's
 * hints, its MPI-IO component and the target directory's file system.
 * Pure. */
#ifndef H5PERF_HINT_HONOURED_H
#define H5PERF_HINT_HONOURED_H

#include <stdbool.h>

/* What one launch found out. */
struct hint_facts {
    bool open_mpi;        /* MPI_Get_library_version names Open MPI */
    const char *io;       /* OMPI_MCA_io as set, or NULL: the library's default */
    bool probed;          /* the scratch file was opened and its hints read back */
    bool echoes_unknown;  /* a made-up key came back: the report is no evidence */
    const char *returned; /* the keys read back, each followed by ';' */
    bool striping_fs;     /* the directory is on Lustre or GPFS */
};

/* Is the component Open MPI picks for io (OMPI_MCA_io, NULL: unset) its
 * own ompio: unset (ompio is Open MPI's default), a list naming ompio, or
 * an exclusion list ("^romio321") that does not exclude it. */
bool hint_io_is_ompio(const char *io);

/* Can hint key act? When not, *why is set to the reason (a phrase that
 * completes "left out: KEY: "); which reasons share a line is the
 * caller's. */
bool hint_honoured(const struct hint_facts *f, const char *key, const char **why);

#endif
