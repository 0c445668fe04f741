/* Data file names and their directory (docs/original.md §4.1):
 * HDF5_PARAPREFIX, the $USER level below it, "#pio_tmp_<f>" and the API's
 * suffix; and the probe that checks, before any data file exists, that the
 * directory takes files. */
#ifndef H5PERF_NAMES_H
#define H5PERF_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"

/* Local. The directory of the data files: "" (current directory) when the
 * prefix is NULL or empty; else prefix/user, created (one level, 0755) if
 * missing and create is true, or prefix itself if user is NULL/empty or the
 * directory is missing and cannot (or may not) be created. The prefix must
 * be an existing directory. *made (if not NULL) tells whether this call
 * created the directory, so that a refused run can remove it. Returns 0, or
 * -1 with m set. */
int names_dir(const char *prefix, const char *user, bool create, char *dir, size_t len, bool *made,
              struct cli_msg *m);

/* Local. Creates and removes a uniquely named probe file in dir (never
 * touching an existing file). Returns 0, or -1 with m naming the cause. */
int names_probe(const char *prefix, const char *dir, struct cli_msg *m);

/* Local. Can a file of size bytes exist in dir? Extends a probe file to
 * that size without writing (a sparse file; no data blocks) and removes it.
 * Returns 0, or the errno of the refusal (EFBIG: larger than the file
 * system's largest file). Only meant for sizes above NAMES_PROBE_SIZE_MIN:
 * a file system without sparse files would write the zeros. */
#define NAMES_PROBE_SIZE_MIN (INT64_C(4) << 30)
int names_probe_size(const char *dir, int64_t size);

/* Local, --direct (spelled option): can files in dir be opened with
 * O_DIRECT? Opens the existing file if given (a read-only run creates
 * nothing), else creates and removes a probe. Returns 0, or -1 with m. */
int names_direct(const char *dir, const char *option, const char *existing, struct cli_msg *m);

/* Local, pure. dir + "/#pio_tmp_<f>" + suffix with runs of '/' collapsed;
 * a file of process rank (rank >= 0: the block pattern's fpp layout)
 * "#pio_tmp_<f>.<rank>" + suffix. Returns 0, or -1 with m set if it does
 * not fit in len. */
int names_file(const char *dir, int f, int rank, const char *suffix, char *out, size_t len,
               struct cli_msg *m);

/* The created-files registry's slot of file f (0-based) of an API, shared
 * by every process or (fpp) the process's own. */
static inline int names_slot(int f, int api, bool fpp)
{
    return (f * API_COUNT + api) * 2 + fpp;
}

/* Local. The absolute path that opening name for writing leads to: symbolic
 * links followed (a dangling last one too, as open(O_CREAT) follows it), the
 * directory resolved with realpath(). Returns 0, or -1 (out is then name as
 * given) when the directory cannot be resolved. */
int names_canonical(const char *name, char *out, size_t len);

/* Local. Would writing a and writing b touch the same file, through any
 * path: one existing file (hard links), the same canonical path, or the
 * same name in one directory (reached through a bind mount)? */
bool names_same_file(const char *a, const char *b);

/* Local. Is the existing path a mount point (a file or directory mounted on
 * the name, from the same file system or another)? */
bool names_mount_point(const char *path);

#endif
