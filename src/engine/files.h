/* The registry of data files this run created: the only files h5perf ever
 * removes, at cleanup, on failure, on SIGINT/SIGTERM and from the watchdog.
 * One slot per (file number, API), declared with its path at set-up, before
 * any data file exists; afterwards nothing is allocated, so marking a file
 * created cannot fail and a signal handler (on any thread) never sees a
 * half-built table. Local to each process: every process declares the same
 * paths; process 0 unlinks, the handler unlinks on whichever process. */
#ifndef H5PERF_FILES_H
#define H5PERF_FILES_H

#include <stdbool.h>

/* Allocates nslots empty slots and installs the SIGINT/SIGTERM handler,
 * which unlinks the created files (unless keep: HDF5_NOCLEANUP) and _exits
 * with 128+signal. SIGXFSZ is ignored so that a file-size limit is an EFBIG
 * error, not a kill. Returns 0 or -1 (out of memory). */
int files_init(int nslots, bool keep);

/* Set-up only: gives slot its path (copied). Returns 0 or -1. */
int files_declare(int slot, const char *path);

/* The path of a declared slot. */
const char *files_path(int slot);

/* Marks the slot's file as created by this run, just before creating it. */
void files_add(int slot);

/* Unmarks without unlinking (an exclusive create found the file there). */
void files_forget(int slot);

/* True if this run created the slot's file and has not removed it. */
bool files_contains(int slot);

/* Unless files are kept, unmarks the slot and, if do_unlink (process 0 of
 * the run), unlinks its file. */
void files_remove(int slot, bool do_unlink);

/* files_remove() for every slot. */
void files_remove_all(bool do_unlink);

/* Restores the signal dispositions and frees the registry. */
void files_release(void);

#endif
