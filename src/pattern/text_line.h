/* What the text inputs of the patterns share (map_text.c's maps,
 * trace_text.c's traces): a part of a line, a whole number read from one,
 * and the refusal of a line that quotes it. Pure. */
#ifndef H5PERF_TEXT_LINE_H
#define H5PERF_TEXT_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The part of a line being read. */
struct text_span {
    const char *p;
    size_t n;
};

/* A whole number of digits only, up to INT64_MAX: 0, or 1 (not one), or
 * 2 (too large). */
int text_number(struct text_span w, int64_t *out);

/* Is w the word? */
bool text_is(struct text_span w, const char *word);

/* "line N: " and fmt with quoted (its first 64 bytes, "..." after a
 * longer one, control bytes as '?') and more ("" for NULL) for its two
 * %s, into why. Returns -1. */
int text_fail(char *why, size_t wlen, int64_t line, const char *fmt, struct text_span quoted,
              const char *more);

#endif
