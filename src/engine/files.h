/* The registry of data files this run created: the only files h5perf ever
 * removes, at cleanup, on failure, on SIGINT/SIGTERM, from the watchdog, and
 * from the cleanup process when every process of the job was killed at once
 * (docs/differences.md, "Interrupts"). One slot per (file number, API), with
 * its path, built at set-up before any data file exists; afterwards nothing
 * is allocated, so marking a file created cannot fail and a signal handler
 * (on any thread) never sees a half-built table. Local to each process:
 * every process holds the same paths; process 0 unlinks, the handler and
 * the cleanup process unlink on whichever process. */
#ifndef H5PERF_FILES_H
#define H5PERF_FILES_H

#include <stdbool.h>
#include <stdint.h>

/* Local, in main() before MPI_Init (a single-threaded process, no MPI state
 * to share with a child): starts the cleanup process, which waits for this
 * process to end however it ends (SIGKILL included), then removes the files
 * the registry still marks created, unless they are kept. It leaves this
 * process's session and ignores the job's signals, so that only a kill of
 * its own (or of everything, as a batch system's cgroup kill) stops it.
 * Returns 0, or -1 with errno when it could not be started (the run then
 * goes on without it). First, a closed standard input, output or error is
 * held by a read-only /dev/null, so that nothing else becomes them. */
int files_guard(void);

/* The errno of a failed files_guard() (0 if it ran or was not called). */
int files_guard_errno(void);

/* Builds the registry of nslots slots with their paths (NULL: a slot this
 * run never creates) and installs the SIGINT/SIGTERM handler, which unlinks
 * the created files (unless keep: HDF5_NOCLEANUP) and _exits with
 * 128+signal. SIGXFSZ is ignored so that a file-size limit is an EFBIG
 * error, not a kill. by_name: this process's cleanup process may remove a
 * created file whose identity is not recorded yet (one process does: world
 * rank 0). Returns 0 or -1 (out of memory). */
int files_init(int nslots, char *const *paths, bool keep, bool by_name);

/* The path of a slot. */
const char *files_path(int slot);

/* Marks the slot's file as created by this run, just before creating it;
 * own: a file of this process alone (opened on MPI_COMM_SELF), which this
 * process removes (files_remove()) and its cleanup process may remove by
 * name. */
void files_add(int slot, bool own);

/* Records the identity (device, inode) of the slot's created file, so
 * that a cleanup process removes that file and no other of the name. */
void files_identify(int slot, uint64_t dev, uint64_t ino);

/* The longest prefix of a file's side files, with its NUL. */
#define FILES_SIDE_MAX 32

/* Records that the slot's created file has side files that the library
 * made beside it (HDF5's subfiles): the entries of its directory named
 * after it, then prefix, then '_' or '.' (backend.h, side_name). They are
 * removed with it, and by the handler and the cleanup process. A prefix of
 * FILES_SIDE_MAX bytes or more is not recorded. */
void files_side(int slot, const char *prefix);
/* Registers, before any file exists, the prefix of the side files the
 * library may make beside the slot's file whenever it is created (HDF5's
 * subfiling driver: ".subfile", its names carrying the stub's inode, not
 * known before the create): until files_side() records the exact prefix,
 * every path that removes the file removes the entries named after it,
 * then this prefix, then '_' or '.', so that a process killed inside the
 * create leaves none (docs/hdf5.md, "Cleanup"). Kept by
 * files_remove(). */
void files_side_pattern(int slot, const char *prefix);

/* Marks the slot as an output of this run that holds nothing yet (the
 * --results file, a JSON or CSV report: whole documents, written at the
 * end), of identity (dev, ino): if the process ends before
 * files_release(), killed or aborted, the handler or the cleanup process
 * removes it, even with HDF5_NOCLEANUP, rather than leave an empty
 * document; files_remove() and files_remove_all() leave it. */
void files_add_output(int slot, uint64_t dev, uint64_t ino);

/* Unmarks without unlinking (an exclusive create found the file there). */
void files_forget(int slot);

/* True if this run created the slot's file and has not removed it. */
bool files_contains(int slot);

/* Unless files are kept, unmarks the slot and, if do_unlink (process 0 of
 * the run) or the file is this process's own, unlinks it. */
void files_remove(int slot, bool do_unlink);

/* files_remove() for every slot. */
void files_remove_all(bool do_unlink);

/* Restores the signal dispositions and empties the registry (the cleanup
 * process then has nothing to remove). */
void files_release(void);

#endif
