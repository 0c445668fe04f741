/* Command line and environment -> struct config, then defaults, warnings and
 * validation of every run of the sweep. Pure: no MPI, no I/O, nothing printed;
 * messages are returned as single lines for rank 0 to print. */
#ifndef H5PERF_CLI_H
#define H5PERF_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "cli/config.h"

/* One complete message line, starting "h5perf: ", without a newline. */
struct cli_msg {
    char line[5120];
};

#define CLI_MAX_WARNINGS 12
struct cli_warnings {
    int count;
    char line[CLI_MAX_WARNINGS][320]; /* each starts "h5perf: warning: " */
};

/* Replaces control characters (newlines included) with '?', so that a
 * message quoting user input stays one line. */
void cli_one_line(char *line);

/* Fills msg with one formatted line (control characters of the quoted input
 * become '?'); returns -1 so callers can return it. */
int cli_fail(struct cli_msg *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A byte count for a person: "512 bytes", "16 GiB", "22.9 GiB" (binary
 * units, one decimal unless whole). */
void cli_bytes(char *buf, size_t len, int64_t bytes);

/* Sets every field to "not given" (zeros, NULLs). */
void config_init(struct config *cfg);

/* Parses argv[1..argc-1] strictly (docs/original.md §0, §1). Returns 0, or -1 with msg. */
int opt_parse(int argc, char *const argv[], struct config *cfg, struct cli_msg *msg);

/* Reads the environment values given (NULL = undefined): HDF5_MPI_INFO,
 * HDF5_NOCLEANUP, HDF5_PARAPREFIX. max_key/max_val are the MPI library's
 * MPI_MAX_INFO_KEY/MPI_MAX_INFO_VAL. Returns 0, or -1 with msg. */
int env_parse(struct config *cfg, const char *mpi_info, const char *nocleanup,
              const char *paraprefix, int max_key, int max_val, struct cli_msg *msg);

/* Applies the defaults and harmless adjustments of docs/original.md §1.6 (each
 * announced in w) and rejects impossible values. world_size is the number of
 * processes started. Returns 0, or -1 with msg. */
int config_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg);

/* The part of config_finish() for the block pattern (finish_block.c): its
 * options refused without --pattern block, the guide's that do not apply
 * refused with it, its defaults, the grid. Returns 0, or -1 with msg. */
int config_finish_block(struct config *cfg, int world_size, struct cli_msg *msg);

/* The particles pattern's part of it (finish_particles.c): defaults (8
 * variables, both layouts, 1048576 particles, uniform, seed 1), chunked
 * refused, a list's processes. Returns 0, or -1 with msg. */
int config_finish_particles(struct config *cfg, int world_size, struct cli_msg *msg);

/* The option that sizes an application pattern's data, for messages:
 * "--global '512x512'", "--distribution 'list:1,2'", "--particles '4096'"
 * or "--particles 1048576 (the default)". */
void cli_app_option(const struct config *cfg, char *buf, size_t len);

/* Validates every (process count, transfer size) of the sweep of a finished
 * config: block/transfer/bytes divisibility, 64-bit overflow. Names the
 * option (and says when the culprit is a default). Returns 0 or -1 with msg. */
int config_validate(const struct config *cfg, struct cli_msg *msg);

/* -a: refuses an HDF5 file whose aligned allocations would end beyond
 * 64-bit offsets at nprocs processes (cli/extent.h). Returns 0 or -1. */
int config_validate_extent(const struct config *cfg, int nprocs, struct cli_msg *msg);

/* config_validate() for the block pattern (validate_block.c): every grid
 * divides the array, sizes fit, blocks within the APIs' call limits. */
int config_validate_block(const struct config *cfg, struct cli_msg *msg);

/* Writes the help text (every option, its default, the environment). */
void help_print(FILE *out);

#endif
