/* text_line.h: the words, numbers and refusals of the patterns' text
 * inputs (docs/map.md and docs/trace.md, "The text format"). Pure. */
#include "pattern/text_line.h"

#include <stdio.h>
#include <string.h>

int text_number(struct text_span w, int64_t *out)
{
    if (w.n == 0)
        return 1;
    int64_t v = 0;
    for (size_t i = 0; i < w.n; i++) {
        if (w.p[i] < '0' || w.p[i] > '9')
            return 1;
        int digit = w.p[i] - '0';
        if (v > (INT64_MAX - digit) / 10)
            return 2;
        v = v * 10 + digit;
    }
    *out = v;
    return 0;
}

bool text_is(struct text_span w, const char *word)
{
    return w.n == strlen(word) && memcmp(w.p, word, w.n) == 0;
}

int text_fail(char *why, size_t wlen, int64_t line, const char *fmt, struct text_span quoted,
              const char *more)
{
    char q[72];
    size_t n = quoted.n < 64 ? quoted.n : 64;
    memcpy(q, quoted.p, n);
    snprintf(q + n, sizeof q - n, "%s", quoted.n > 64 ? "..." : "");
    for (size_t i = 0; q[i]; i++)
        if ((unsigned char)q[i] < 0x20 || q[i] == 0x7f)
            q[i] = '?';
    char what[320];
    snprintf(what, sizeof what, fmt, q, more ? more : "");
    snprintf(why, wlen, "line %lld: %s", (long long)line, what);
    return -1;
}
