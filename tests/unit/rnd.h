/* The unit tests' random numbers: xorshift64 from a fixed seed, so that a
 * test draws the same cases at every run. One state per test program. */
#ifndef H5PERF_TEST_RND_H
#define H5PERF_TEST_RND_H

#include <stdint.h>

static uint64_t rng_state = 88172645463325252ull;

/* A number from 0 to n - 1 (0 when n < 1). */
static inline int64_t rnd(int64_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n > 0 ? (int64_t)(rng_state % (uint64_t)n) : 0;
}

#endif
