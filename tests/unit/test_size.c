/* Unit tests of the strict size and count parsers (src/cli/size.c): the
 * grammar, every unit, and each boundary of the 64-bit and int ranges.
 * Table-driven; no MPI. */
#include <limits.h>
#include <stdint.h>

#include "check.h"
#include "cli/size.h"

struct size_case {
    const char *text;
    enum size_status status;
    int64_t value; /* when status == SIZE_OK */
};

static const struct size_case size_cases[] = {
    /* plain numbers and every unit, with and without B, in both cases */
    {"1", SIZE_OK, 1},
    {"512", SIZE_OK, 512},
    {"512B", SIZE_OK, 512},
    {"512b", SIZE_OK, 512},
    {"007", SIZE_OK, 7},
    {"1K", SIZE_OK, 1024},
    {"1k", SIZE_OK, 1024},
    {"256K", SIZE_OK, 262144},
    {"256KB", SIZE_OK, 262144},
    {"256kb", SIZE_OK, 262144},
    {"256Kb", SIZE_OK, 262144},
    {"1M", SIZE_OK, 1048576},
    {"1m", SIZE_OK, 1048576},
    {"1MB", SIZE_OK, 1048576},
    {"3G", SIZE_OK, INT64_C(3221225472)},
    {"3gB", SIZE_OK, INT64_C(3221225472)},
    /* the 64-bit boundary, with and without units */
    {"9223372036854775807", SIZE_OK, INT64_MAX},
    {"9223372036854775807B", SIZE_OK, INT64_MAX},
    {"9223372036854775808", SIZE_RANGE, 0},
    {"9223372036854775810", SIZE_RANGE, 0},
    {"99999999999999999999", SIZE_RANGE, 0},
    {"18446744073709551616", SIZE_RANGE, 0},
    {"9007199254740991K", SIZE_OK, INT64_C(9223372036854774784)},
    {"9007199254740992K", SIZE_RANGE, 0},
    {"8796093022207M", SIZE_OK, INT64_C(9223372036853727232)},
    {"8796093022208M", SIZE_RANGE, 0},
    {"8589934591G", SIZE_OK, INT64_C(9223372035781033984)},
    {"8589934592G", SIZE_RANGE, 0},
    {"9000000000G", SIZE_RANGE, 0},
    /* zero in every spelling */
    {"0", SIZE_ZERO, 0},
    {"000", SIZE_ZERO, 0},
    {"0K", SIZE_ZERO, 0},
    {"0GB", SIZE_ZERO, 0},
    /* grammar: no sign, blanks, other letters, repeated or misplaced units */
    {"", SIZE_SYNTAX, 0},
    {"K", SIZE_SYNTAX, 0},
    {"B", SIZE_SYNTAX, 0},
    {"-5K", SIZE_SYNTAX, 0},
    {"-1", SIZE_SYNTAX, 0},
    {"+5", SIZE_SYNTAX, 0},
    {" 5", SIZE_SYNTAX, 0},
    {"5 ", SIZE_SYNTAX, 0},
    {"5 K", SIZE_SYNTAX, 0},
    {"10Q", SIZE_SYNTAX, 0},
    {"abc", SIZE_SYNTAX, 0},
    {"0x10", SIZE_SYNTAX, 0},
    {"8Kxyz", SIZE_SYNTAX, 0},
    {"8KK", SIZE_SYNTAX, 0},
    {"8BK", SIZE_SYNTAX, 0},
    {"8KBB", SIZE_SYNTAX, 0},
    {"8T", SIZE_SYNTAX, 0},
    {"1.5K", SIZE_SYNTAX, 0},
    {"1e3", SIZE_SYNTAX, 0},
    {"99999999999999999999Q", SIZE_SYNTAX, 0},
};

struct count_case {
    const char *text;
    enum size_status status;
    int value;
};

static const struct count_case count_cases[] = {
    {"1", SIZE_OK, 1},
    {"3", SIZE_OK, 3},
    {"0010", SIZE_OK, 10},
    {"2147483647", SIZE_OK, INT_MAX},
    {"02147483647", SIZE_OK, INT_MAX},
    {"2147483648", SIZE_RANGE, 0},
    {"99999999999999999999", SIZE_RANGE, 0},
    {"0", SIZE_ZERO, 0},
    {"00", SIZE_ZERO, 0},
    {"", SIZE_SYNTAX, 0},
    {"-1", SIZE_SYNTAX, 0},
    {"-0", SIZE_SYNTAX, 0},
    {"+1", SIZE_SYNTAX, 0},
    {" 1", SIZE_SYNTAX, 0},
    {"1 ", SIZE_SYNTAX, 0},
    {"3.7", SIZE_SYNTAX, 0},
    {"1K", SIZE_SYNTAX, 0},
    {"abc", SIZE_SYNTAX, 0},
    {"0x1", SIZE_SYNTAX, 0},
    {"99999999999999999999x", SIZE_SYNTAX, 0},
};

static void test_size_cases(void)
{
    for (size_t i = 0; i < sizeof size_cases / sizeof size_cases[0]; i++) {
        const struct size_case *c = &size_cases[i];
        int64_t out = -7;
        enum size_status st = size_scan(c->text, &out);
        if (st != c->status)
            fprintf(stderr, "size_scan(\"%s\")\n", c->text);
        CHECK_I64(st, c->status);
        CHECK_I64(out, c->status == SIZE_OK ? c->value : -7); /* untouched on error */
        out = -7;
        CHECK_I64(size_parse(c->text, &out), c->status == SIZE_OK ? 0 : -1);
        CHECK_I64(out, c->status == SIZE_OK ? c->value : -7);
    }
    CHECK_I64(size_scan(NULL, &(int64_t){0}), SIZE_SYNTAX);
}

static void test_count_cases(void)
{
    for (size_t i = 0; i < sizeof count_cases / sizeof count_cases[0]; i++) {
        const struct count_case *c = &count_cases[i];
        int out = -7;
        enum size_status st = size_scan_count(c->text, &out);
        if (st != c->status)
            fprintf(stderr, "size_scan_count(\"%s\")\n", c->text);
        CHECK_I64(st, c->status);
        CHECK_I64(out, c->status == SIZE_OK ? c->value : -7);
    }
    CHECK_I64(size_scan_count(NULL, &(int){0}), SIZE_SYNTAX);
}

int main(void)
{
    test_size_cases();
    test_count_cases();
    return check_done("test_size");
}
