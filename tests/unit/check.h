/* Minimal assertions for unit tests: a failed check prints where and why and
 * the test program exits 1 at the end (check_done). No MPI. */
#ifndef H5PERF_CHECK_H
#define H5PERF_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_I64(a, b)                                                                            \
    do {                                                                                           \
        int64_t check_a_ = (int64_t)(a), check_b_ = (int64_t)(b);                                  \
        check_count++;                                                                             \
        if (check_a_ != check_b_) {                                                                \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: %s == %" PRId64 ", expected %" PRId64 "\n", __FILE__,          \
                    __LINE__, #a, check_a_, check_b_);                                             \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b)                                                                            \
    do {                                                                                           \
        const char *check_a_ = (a), *check_b_ = (b);                                               \
        check_count++;                                                                             \
        if (strcmp(check_a_, check_b_) != 0) {                                                     \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: %s\n  got:      \"%s\"\n  expected: \"%s\"\n", __FILE__,       \
                    __LINE__, #a, check_a_, check_b_);                                             \
        }                                                                                          \
    } while (0)

static inline int check_done(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
