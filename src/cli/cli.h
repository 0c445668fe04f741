/* Command line and environment -> struct config, then defaults and
 * warnings (the run points are checked by their pattern when the session
 * is built, session/session.h), and the extents of API files. Pure: no
 * MPI, no I/O, nothing printed; messages are returned as single lines for
 * rank 0 to print. */
#ifndef H5PERF_CLI_H
#define H5PERF_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "base/msg.h"
#include "cli/config.h"

/* Sets every field to "not given" (zeros, NULLs). */
void config_init(struct config *cfg);

/* Reads the environment values given (NULL = undefined): HDF5_MPI_INFO,
 * HDF5_NOCLEANUP, HDF5_PARAPREFIX. max_key/max_val are the MPI library's
 * MPI_MAX_INFO_KEY/MPI_MAX_INFO_VAL. Returns 0, or -1 with msg. */
int env_parse(struct config *cfg, const char *mpi_info, const char *nocleanup,
              const char *paraprefix, int max_key, int max_val, struct cli_msg *msg);

/* -a: refuses the file of a selected API that places its data itself
 * (api/file_model.h: HDF5, PnetCDF) and would end beyond 64-bit offsets at
 * nprocs processes, for files as f describes them, and an -a the library
 * does not take (extents.c); lead names what sizes the file, as the
 * pattern does (pattern_validate_extent). Returns 0 or -1. */
struct extent_file;
int config_validate_extent(const struct config *cfg, int nprocs, const struct extent_file *f,
                           const char *lead, struct cli_msg *msg);

/* The remedy of leaving API a out: "leave phdf5 out of -A 'posix,phdf5'",
 * or "give -A without phdf5 (it is in the default)" (extents.c). */
void config_leave_out(const struct config *cfg, enum api_id a, char *buf, size_t len);

/* How the user spelled option id, or short_name when it was not given; its
 * raw value, or "". */
const char *cli_name(const struct config *cfg, enum opt_id id, const char *short_name);
const char *cli_raw(const struct config *cfg, enum opt_id id);

#endif
