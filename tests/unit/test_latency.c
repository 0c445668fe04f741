/* Unit tests of the latency histogram (report/latency.h) against a sorted
 * list of every sample: each quantile by the nearest rank, never below the
 * true value and at most 1/128 above; merging histograms recorded apart
 * gives exactly the histogram of all samples; the buckets tile the range. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/latency.h"

#define SAMPLES 20000

/* A deterministic spread over nine decades: 1 ns to about 1000 s, with a
 * long tail (xorshift64*, then an exponent). */
static uint64_t draw(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    uint64_t r = *state * 2685821657736338717ull;
    double u = (double)(r >> 11) / 9007199254740992.0;
    return (uint64_t)pow(10.0, 12.0 * u * u);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void test_buckets(void)
{
    /* Contiguous, increasing, each of relative width below 1/128. */
    CHECK_I64(latency_bucket_low(0), 0);
    for (int b = 0; b + 1 < LATENCY_BUCKETS; b++) {
        uint64_t lo = latency_bucket_low(b), hi = latency_bucket_high(b);
        CHECK(hi >= lo);
        CHECK(latency_bucket(lo) == b && latency_bucket(hi) == b);
        CHECK(latency_bucket_low(b + 1) == hi + 1);
        if (lo > 0 && (double)(hi - lo) > (double)lo / 128.0) {
            CHECK(0);
            break;
        }
    }
    CHECK_I64(latency_bucket(UINT64_MAX), LATENCY_BUCKETS - 1);
    for (uint64_t v = 0; v < 128; v++)
        CHECK_I64(latency_bucket_low(latency_bucket(v)), v);
}

/* to += from as the engine merges the processes' histograms (a sum of
 * every count and of n, the least min and the greatest max: engine/
 * measure.c's reductions). */
static void merge(struct latency_hist *to, const struct latency_hist *from)
{
    for (int b = 0; b < LATENCY_BUCKETS; b++)
        to->count[b] += from->count[b];
    to->n += from->n;
    to->min_ns = from->min_ns < to->min_ns ? from->min_ns : to->min_ns;
    to->max_ns = from->max_ns > to->max_ns ? from->max_ns : to->max_ns;
}

static void test_quantiles_and_merge(void)
{
    static uint64_t all[SAMPLES];
    static struct latency_hist part[3], merged, whole;
    uint64_t state = 88172645463325252ull;
    for (int i = 0; i < 3; i++)
        latency_clear(&part[i]);
    latency_clear(&merged);
    latency_clear(&whole);
    for (int i = 0; i < SAMPLES; i++) {
        all[i] = draw(&state);
        latency_record(&part[i % 3], (double)all[i] * 1e-9);
        latency_record(&whole, (double)all[i] * 1e-9);
    }
    for (int i = 0; i < 3; i++)
        merge(&merged, &part[i]);
    /* Exact merge: every count, n, min and max. */
    CHECK(memcmp(merged.count, whole.count, sizeof whole.count) == 0);
    CHECK_I64(merged.n, SAMPLES);
    CHECK(merged.min_ns == whole.min_ns && merged.max_ns == whole.max_ns);
    qsort(all, SAMPLES, sizeof all[0], cmp_u64);
    CHECK(merged.min_ns == all[0] && merged.max_ns == all[SAMPLES - 1]);
    const double qs[] = {0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        size_t rank = (size_t)ceil(qs[k] * SAMPLES);
        uint64_t truth = all[rank - 1], got = latency_quantile(&merged, qs[k]);
        CHECK(got >= truth);
        CHECK((double)(got - truth) <= (double)truth / 128.0);
        if (got < truth || (double)(got - truth) > (double)truth / 128.0)
            fprintf(stderr, "  q %g: got %llu, true %llu\n", qs[k], (unsigned long long)got,
                    (unsigned long long)truth);
    }
    CHECK(latency_quantile(&merged, 1.0) == all[SAMPLES - 1]);
}

static void test_empty_and_summary(void)
{
    static struct latency_hist h;
    latency_clear(&h);
    CHECK_I64(latency_quantile(&h, 0.5), 0);
    struct latency_summary s;
    CHECK_I64(latency_summarize(&h, &s), 0);
    CHECK_I64(s.calls, 0);
    CHECK_I64(s.nbuckets, 0);
    latency_summary_release(&s);
    /* 1, 2 and 3 microseconds, 1000 calls each: the exact range below
     * 128 ns is not reached; p50 is 2 us within 1/128. */
    for (int i = 0; i < 3000; i++)
        latency_record(&h, (1 + i % 3) * 1e-6);
    CHECK_I64(latency_summarize(&h, &s), 0);
    CHECK_I64(s.calls, 3000);
    CHECK_I64(s.nbuckets, 3);
    CHECK(s.q[0] >= 2e-6 && s.q[0] <= 2e-6 * (1 + 1.0 / 128));
    CHECK(fabs(s.max - 3e-6) < 1e-18 && fabs(s.min - 1e-6) < 1e-18);
    CHECK(s.count[0] == 1000 && s.count[1] == 1000 && s.count[2] == 1000);
    CHECK(fabs(s.upper[2] - 3e-6) < 1e-18);
    latency_summary_release(&s);
}

/* The log: full exactly at LATENCY_LOG_SAMPLES, and calls kept there and
 * flushed (when full, and at the end with some left) give the very
 * histogram that recording each call directly gives. */
static void test_log(void)
{
    static struct latency_log log;
    static struct latency_hist direct, logged;
    latency_clear(&direct);
    latency_clear(&logged);
    uint64_t state = 2463534242ull;
    int fulls = 0, n = 2 * LATENCY_LOG_SAMPLES + 77;
    for (int i = 0; i < n; i++) {
        double s = (double)draw(&state) * 1e-9;
        latency_record(&direct, s);
        bool full = latency_log_add(&log, s);
        CHECK(full == (log.n == LATENCY_LOG_SAMPLES));
        if (full) {
            fulls++;
            latency_log_flush(&log, &logged);
            CHECK_I64(log.n, 0);
        }
    }
    CHECK_I64(fulls, 2);
    CHECK_I64(log.n, 77);
    latency_log_flush(&log, &logged);
    CHECK_I64(logged.n, n);
    CHECK(memcmp(&direct, &logged, sizeof direct) == 0);
    latency_log_flush(&log, &logged); /* empty: changes nothing */
    CHECK(memcmp(&direct, &logged, sizeof direct) == 0);
}

int main(void)
{
    test_buckets();
    test_quantiles_and_merge();
    test_empty_and_summary();
    test_log();
    return check_done("test_latency");
}
