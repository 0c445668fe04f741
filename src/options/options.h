/* The option table of the whole program (docs/design.md, "Options" and
 * "Layers"): the core's rows, every pattern's (pattern/pattern.h) and
 * every API's (api/api.h), found by name or id; the command line parsed
 * over them into struct config, finished (defaults, announced
 * adjustments, refusals, then the pattern's and the APIs' own), written
 * as --help and the man page, and echoed in the JSON results. Above the
 * patterns, whose tables it walks. Pure: no MPI, no I/O. */
#ifndef H5PERF_OPTIONS_H
#define H5PERF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/option.h"

/* The rows every pattern takes, in --help's order. */
extern const struct opt_row *const opt_core_rows[];
extern const int opt_core_count;

/* Every distinct row (the core's, each pattern's in table order, then each
 * API's own), each once: for (i = 0; (r = opt_row_at(i)); i++). */
const struct opt_row *opt_row_at(int i);

/* The row of a short letter ("-e": 'e') or a long name [name, name+len). */
const struct opt_row *opt_find_short(char c);
const struct opt_row *opt_find_long(const char *name, size_t len);

/* The row of an option id. */
const struct opt_row *opt_row_of(enum opt_id id);

/* Is row one of the core's (every pattern takes it)? */
bool opt_is_core(const struct opt_row *row);

/* The API that owns row (api_opts.rows: every pattern takes it, -A must
 * select the API), or -1. */
int opt_api_owner(const struct opt_row *row);

/* The struct row's field is in: its API's own settings (opt_api_owner),
 * its pattern's own (pattern_owner), or cfg. */
void *opt_dest(struct config *cfg, const struct opt_row *row);
const void *opt_src(const struct config *cfg, const struct opt_row *row);

/* How row was given ("-B", "--block-size"; NULL: not given) and its value
 * as typed: config.spelled and .raw, or its API's or its pattern's record
 * of them. */
const char *opt_spelled(const struct config *cfg, const struct opt_row *row);
const char *opt_raw(const struct config *cfg, const struct opt_row *row);

/* Parses argv[1..argc-1] strictly (docs/original.md §0, §1) over the
 * rows (parse.c). Returns 0, or -1 with msg. */
int opt_parse(int argc, char *const argv[], struct config *cfg, struct cli_msg *msg);

/* Applies the defaults and harmless adjustments of docs/original.md §1.6 (each
 * announced in w) and rejects impossible values. world_size is the number of
 * processes started. Returns 0, or -1 with msg. */
int config_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg);

/* Writes the help text (every option, its default, the environment). */
void help_print(FILE *out);

/* The JSON results' parts the writer leaves to the option table and the
 * pattern (report/json.h) for configuration c (json_parts.c): the
 * configuration as the rows echo it, the pattern's part of it and of each
 * run. */
struct json_parts;
void config_json_parts(const struct config *c, struct json_parts *out);

#endif
