/* The data files' names, checked before any exists, and the registry of
 * the files a run creates (setup_files.c). */
#ifndef H5PERF_SETUP_FILES_H
#define H5PERF_SETUP_FILES_H

#include <stdbool.h>

#include "base/msg.h"
#include "engine/setup.h"

/* Rank 0, in setup_run(): the directory exists (creating the $USER
 * level), accepts a new file, and holds none of this run's shared data
 * file names unless --overwrite (or, --read-only, each is a source that
 * serves every run point reading it). Returns 0, or -1 with m set. */
int setup_check_files(struct run *run, struct cli_msg *m);

/* Every process, after setup_check_files() and with its directory: the
 * process's own data file names (a file per process), each checked as the
 * shared ones are. Returns 0, or -1 with m set. */
int setup_check_own_files(struct run *run, struct cli_msg *m);

/* The data file name of file f (0-based) and an API (docs/original.md §4.1),
 * into out (SETUP_PATH_MAX bytes); rank >= 0: that process's own file (the
 * block pattern's fpp layout). Returns 0, or -1 with m set if it does not
 * fit. */
int setup_name(const struct run *run, int f, int api, int rank, char *out, struct cli_msg *m);

/* Collective over MPI_COMM_WORLD, after setup_run(): creates the
 * created-files registry (files.h) with every data file name this run may
 * create, before any exists. Returns true on every process if all succeeded
 * (else world rank 0 has printed why). */
bool setup_declare_files(const struct run *run);

#endif
