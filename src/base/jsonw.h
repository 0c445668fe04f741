/* A small streaming JSON emitter: objects, arrays, keys and scalars with
 * two-space indentation, strings escaped and made valid UTF-8. It does not
 * check the nesting beyond a fixed depth; the callers are the writers. */
#ifndef H5PERF_JSONW_H
#define H5PERF_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 16

struct jsonw {
    FILE *out;
    int depth;
    bool has_items[JSONW_MAX_DEPTH]; /* a value was written at this level */
    char closer[JSONW_MAX_DEPTH];    /* '}' or ']' for each open level */
    bool after_key;                  /* the next value follows "key": */
};

void jsonw_init(struct jsonw *w, FILE *out);
void jsonw_object(struct jsonw *w); /* { */
void jsonw_array(struct jsonw *w);  /* [ */
void jsonw_end(struct jsonw *w);    /* } or ], whichever is open */
void jsonw_key(struct jsonw *w, const char *key);
void jsonw_string(struct jsonw *w, const char *s); /* NULL writes null */
void jsonw_int(struct jsonw *w, int64_t v);
/* A finite double, with enough digits to read back the same value; a value
 * that is not finite (never expected) becomes null rather than bad JSON. */
void jsonw_number(struct jsonw *w, double v);

/* The shortest decimal text of a finite v that reads back (strtod) as the
 * same double: "0.000587783", not "0.00058778300000000003". Also used by
 * the CSV writer. buf holds at least 32 bytes. */
void jsonw_shortest(char *buf, size_t len, double v);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);

/* "key": value, for the writers' many fields. */
void jsonw_key_int(struct jsonw *w, const char *key, int64_t v);
void jsonw_key_bool(struct jsonw *w, const char *key, bool v);
void jsonw_key_string(struct jsonw *w, const char *key, const char *s);
/* "key": [v0, v1, ...] of n values. */
void jsonw_key_ints(struct jsonw *w, const char *key, int n, const int64_t *v);
/* "key": a process grid of n dimensions, or null when grid[0] is 0 (none
 * given). */
void jsonw_key_grid(struct jsonw *w, const char *key, int n, const int *grid);

/* Writes s as the inside of a JSON string (no quotes), to out. Bytes that
 * are not valid UTF-8 become U+FFFD; control characters become \u escapes. */
void jsonw_escape(FILE *out, const char *s);

#endif
