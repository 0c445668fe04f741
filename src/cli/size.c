/* Strict size and count parsing (docs/original.md §0): whole numbers in
 * decimal with an optional binary unit, range-checked before every
 * multiplication. Never calls strtol (it accepts signs, blanks and wraps) and
 * never prints. */
#include "cli/size.h"

#include <limits.h>
#include <stddef.h>

/* Reads the leading decimal digits of text into *value, stopping with
 * SIZE_RANGE as soon as the number would exceed limit. *end is set to the
 * first character after the digits. No digits at all is SIZE_SYNTAX. */
static enum size_status size_digits(const char *text, int64_t limit, int64_t *value,
                                    const char **end)
{
    int64_t v = 0;
    const char *p = text;

    if (*p < '0' || *p > '9')
        return SIZE_SYNTAX;
    for (; *p >= '0' && *p <= '9'; p++) {
        int64_t digit = *p - '0';
        if (v > (limit - digit) / 10)
            return SIZE_RANGE;
        v = v * 10 + digit;
    }
    *value = v;
    *end = p;
    return SIZE_OK;
}

/* The multiplier of a unit letter, or 0 if c is not one. */
static int64_t size_unit(char c)
{
    switch (c) {
    case 'K':
    case 'k':
        return INT64_C(1024);
    case 'M':
    case 'm':
        return INT64_C(1048576);
    case 'G':
    case 'g':
        return INT64_C(1073741824);
    default:
        return 0;
    }
}

/* A syntax error outranks a range error: "99999999999999999999Q" is not a
 * size at all, so the digits are checked for the grammar first. */
static int size_grammar_ok(const char *text)
{
    const char *p = text;

    if (*p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    if (size_unit(*p) != 0)
        p++;
    if (*p == 'B' || *p == 'b')
        p++;
    return *p == '\0';
}

enum size_status size_scan(const char *text, int64_t *out)
{
    int64_t value = 0, unit;
    const char *end = NULL;
    enum size_status st;

    if (text == NULL || !size_grammar_ok(text))
        return SIZE_SYNTAX;
    st = size_digits(text, INT64_MAX, &value, &end);
    if (st != SIZE_OK)
        return st;
    unit = size_unit(*end);
    if (unit == 0)
        unit = 1;
    if (value == 0)
        return SIZE_ZERO;
    if (value > INT64_MAX / unit)
        return SIZE_RANGE;
    *out = value * unit;
    return SIZE_OK;
}

int size_parse(const char *text, int64_t *out)
{
    return size_scan(text, out) == SIZE_OK ? 0 : -1;
}

enum size_status size_scan_count(const char *text, int *out)
{
    int64_t value = 0;
    const char *end = NULL;
    enum size_status st;

    if (text == NULL)
        return SIZE_SYNTAX;
    st = size_digits(text, INT_MAX, &value, &end);
    if (st == SIZE_RANGE) {
        /* a long run of digits followed by garbage is still garbage */
        while (*text >= '0' && *text <= '9')
            text++;
        return *text == '\0' ? SIZE_RANGE : SIZE_SYNTAX;
    }
    if (st != SIZE_OK || *end != '\0')
        return SIZE_SYNTAX;
    if (value == 0)
        return SIZE_ZERO;
    *out = (int)value;
    return SIZE_OK;
}
