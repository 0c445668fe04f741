/* The option rows' storage (docs/design.md, "Options") over the rows of
 * base/option.h: a value stored as its row says, echoed in the results,
 * and a row's term in --help. The table of every row (the core's, the
 * patterns', the APIs') is options/options.h; the parser, --help, the man
 * page, the refusal of an option the chosen pattern or APIs do not take,
 * and the configuration echoed in the JSON results are all made from the
 * rows. Every pattern's options are rows it lists (pattern/pattern.h):
 * its own, and those it shares. Pure. */
#ifndef H5PERF_OPTION_H
#define H5PERF_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/option.h"
#include "cli/cli.h"

/* Stores value (NULL for a flag) as row says into dest, the struct its
 * field is in (base/option.h: struct config, or its API's settings).
 * Returns 0, or -1 with msg. */
int opt_store(void *dest, const struct opt_row *row, const char *spelled, const char *value,
              struct cli_msg *msg);

/* Writes "key": value of each of the n rows (n < 0: up to a NULL) with a
 * key (and json_everywhere as asked) into the object open in w, from src,
 * the struct their fields are in. */
void opt_json_rows(struct jsonw *w, const void *src, const struct opt_row *const *rows, int n,
                   bool everywhere);

/* --help's term of a row: "-A, --api=LIST", "--overwrite". */
void opt_term(const struct opt_row *row, char *buf, size_t len);

#endif
