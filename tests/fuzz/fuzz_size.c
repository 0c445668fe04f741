/* libFuzzer target for the strict size and count parsers (src/cli/size.c):
 * the input, cut at its first NUL, is the text of a -e or -d value. Each
 * result is compared with an independent reference written here, so a wrong
 * answer aborts just like a memory error. Must not call anything with MPI. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/size.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SENTINEL INT64_C(-77)

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Whether the digits [p, end) exceed the decimal number max (no sign): by
 * their count after leading zeros and then by string comparison, so that
 * the reference shares no arithmetic with the parser it checks. */
static int digits_above(const char *p, const char *end, const char *max)
{
    size_t n, max_len = strlen(max);

    while (p < end && *p == '0')
        p++;
    n = (size_t)(end - p);
    if (n != max_len)
        return n > max_len;
    return memcmp(p, max, n) > 0;
}

static uint64_t digits_value(const char *p, const char *end)
{
    uint64_t v = 0;

    for (; p < end; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    return v;
}

/* The reference for size_scan: the grammar first, then the range. Units
 * are powers of two, so value * 2^shift fits in int64 exactly when value
 * is below 2^(63 - shift). */
static enum size_status ref_size(const char *s, int64_t *out)
{
    const char *p = s, *end;
    int shift = 0;
    uint64_t value;

    while (is_digit(*p))
        p++;
    end = p;
    if (end == s)
        return SIZE_SYNTAX;
    if (*p == 'K' || *p == 'k')
        shift = 10;
    else if (*p == 'M' || *p == 'm')
        shift = 20;
    else if (*p == 'G' || *p == 'g')
        shift = 30;
    if (shift != 0)
        p++;
    if (*p == 'B' || *p == 'b')
        p++;
    if (*p != '\0')
        return SIZE_SYNTAX;
    if (digits_above(s, end, "9223372036854775807"))
        return SIZE_RANGE;
    value = digits_value(s, end);
    if (value == 0)
        return SIZE_ZERO;
    if (value >= UINT64_C(1) << (63 - shift))
        return SIZE_RANGE;
    *out = (int64_t)(value << shift);
    return SIZE_OK;
}

/* The reference for size_scan_count: digits only, 1..INT_MAX; a number
 * too large for an int is a range error only when nothing follows it. */
static enum size_status ref_count(const char *s, int *out)
{
    const char *end = s;
    uint64_t value;

    while (is_digit(*end))
        end++;
    if (end == s || *end != '\0')
        return SIZE_SYNTAX;
    if (digits_above(s, end, "2147483647"))
        return SIZE_RANGE;
    value = digits_value(s, end);
    if (value == 0)
        return SIZE_ZERO;
    *out = (int)value;
    return SIZE_OK;
}

static void check_size(const char *text)
{
    int64_t got = SENTINEL, want = SENTINEL, again = SENTINEL;
    enum size_status st = size_scan(text, &got);

    if (st != ref_size(text, &want) || got != want)
        abort();
    if (st == SIZE_OK && got <= 0)
        abort();
    /* size_parse is size_scan reduced to 0/-1 and leaves *out alone on -1 */
    if (size_parse(text, &again) != (st == SIZE_OK ? 0 : -1) || again != got)
        abort();
}

static void check_count(const char *text)
{
    int got = -77, want = -77;
    enum size_status st = size_scan_count(text, &got);

    if (st != ref_count(text, &want) || got != want)
        abort();
    if (st == SIZE_OK && got <= 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An allocation of exactly the string up to its first NUL, so that
     * ASan sees a read past the terminator. */
    const uint8_t *nul = memchr(data, '\0', size);
    size_t len = nul != NULL ? (size_t)(nul - data) : size;
    char *text = malloc(len + 1);

    if (text == NULL)
        return 0;
    memcpy(text, data, len);
    text[len] = '\0';
    check_size(text);
    check_count(text);
    free(text);
    return 0;
}
