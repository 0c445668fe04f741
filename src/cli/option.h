/* The option table (docs/design.md, "Options") over the rows of
 * base/option.h: the core's rows, and every distinct row of the core, the
 * patterns and the APIs, found by name or id and stored. The parser, --help, the man page, the
 * refusal of an option the chosen pattern or APIs do not take, and the configuration echoed in the
 * JSON results are all made from the rows. Every pattern's options are rows
 * it lists (pattern/pattern.h): its own, and those it shares. Pure. */
#ifndef H5PERF_OPTION_H
#define H5PERF_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/option.h"
#include "cli/cli.h"

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

/* Stores value (NULL for a flag) as row says. Returns 0, or -1 with msg. */
int opt_store(struct config *cfg, const struct opt_row *row, const char *spelled, const char *value,
              struct cli_msg *msg);

/* Is row one of the core's (every pattern takes it)? */
bool opt_is_core(const struct opt_row *row);

/* The API that owns row (api_opts.rows: every pattern takes it, -A must
 * select the API), or -1. */
int opt_api_owner(const struct opt_row *row);

/* Writes "key": value of each of the n rows (n < 0: up to a NULL) with a
 * key (and json_everywhere as asked) into the object open in w. */
void opt_json_rows(struct jsonw *w, const struct config *cfg, const struct opt_row *const *rows,
                   int n, bool everywhere);

/* --help's term of a row: "-A, --api=LIST", "--overwrite". */
void opt_term(const struct opt_row *row, char *buf, size_t len);

#endif
