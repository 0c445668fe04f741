/* The data files' sizes against where they go, before any exists
 * (docs/differences.md, "File sizes"): the largest file of the sweep, its
 * data and what the libraries that place data themselves could make of it
 * (api/file_model.h), against each process's file-size limit (ulimit -f) and
 * against the file system of the data directory. A refusal names the
 * option that makes the file too large: the data's, --align-data or
 * --shift, or -a. */
#ifndef H5PERF_FSIZE_H
#define H5PERF_FSIZE_H

#include "engine/setup.h"

/* Local, on every process (a limit is per process): the largest file of
 * the sweep against this process's RLIMIT_FSIZE. Returns 0, or -1 with m.
 * Nothing to check for a --read-only run, which writes nothing. */
int fsize_check_limit(const struct run *run, struct cli_msg *m);

/* Rank 0, after the directory is known: the largest file against the
 * directory's file system (a sparse probe, names_probe_size()). Returns 0,
 * or -1 with m. */
int fsize_check_dir(const struct run *run, struct cli_msg *m);

#endif
