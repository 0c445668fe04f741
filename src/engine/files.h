/* The registry of data files this run created: the only files h5perf ever
 * removes, at cleanup, on failure and on SIGINT/SIGTERM. Local to each
 * process (every process registers the same names; process 0 unlinks them,
 * the signal handler unlinks them on whichever process it runs). */
#ifndef H5PERF_FILES_H
#define H5PERF_FILES_H

#include <stdbool.h>

/* Installs the SIGINT/SIGTERM handler, which unlinks the registered files
 * (unless keep: HDF5_NOCLEANUP) and _exits with 128+signal. SIGXFSZ is
 * ignored so that a file-size limit is an EFBIG error, not a kill. */
void files_init(bool keep);

/* Registers a path (copied) just before it is created. Returns 0 or -1. */
int files_add(const char *path);

/* Forgets a path without unlinking it (an exclusive create found it there:
 * it is not ours). */
void files_forget(const char *path);

/* True if this run created the path and has not removed it. */
bool files_contains(const char *path);

/* Unless files are kept, forgets a registered path and, if do_unlink
 * (process 0 of the run), unlinks it. */
void files_remove(const char *path, bool do_unlink);

/* files_remove() for every registered path. */
void files_remove_all(bool do_unlink);

/* Restores the signal dispositions and frees the registry. */
void files_release(void);

#endif
