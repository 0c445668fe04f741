/* Strict parsers for the values of the size options (-a -B -e -T -x -X) and
 * the count options (-d -F -i -p -P). Pure and local: no I/O, no messages;
 * the caller names the option in its error line. */
#ifndef H5PERF_SIZE_H
#define H5PERF_SIZE_H

#include <stdint.h>

/* Why a value was refused, so that the caller's message can say so. */
enum size_status {
    SIZE_OK = 0,
    SIZE_SYNTAX, /* not digits with an optional K/M/G and an optional B */
    SIZE_ZERO,   /* the value is 0 */
    SIZE_RANGE   /* too large for the result type */
};

/* Scans a size: ^[0-9]+([KkMmGg])?([Bb])?$, K = 1024, M = 1048576,
 * G = 1073741824, value > 0 and value * unit <= INT64_MAX. No sign, no
 * blanks, no empty string. Sets *out only on SIZE_OK. */
enum size_status size_scan(const char *text, int64_t *out);

/* size_scan() reduced to 0 (accepted) or -1 (refused). */
int size_parse(const char *text, int64_t *out);

/* Scans a count: plain decimal digits only, 1..2147483647. Sets *out only
 * on SIZE_OK. */
enum size_status size_scan_count(const char *text, int *out);

#endif
