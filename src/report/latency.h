/* The latency of calls as a histogram of fixed size (docs/results.md,
 * "latency"): logarithmic buckets of 2^LATENCY_SUB_BITS linear sub-buckets
 * per power of two of nanoseconds (HdrHistogram's layout), so that a value
 * it reports is never below the sample it stands for and at most 1/128
 * (0.78%) above; recording is a few integer operations and never
 * allocates; merging histograms adds their counts and is exact. Pure. */
#ifndef H5PERF_LATENCY_H
#define H5PERF_LATENCY_H

#include <stdbool.h>
#include <stdint.h>

#define LATENCY_SUB_BITS 7
#define LATENCY_SUB      (1 << LATENCY_SUB_BITS)
/* Powers of two above the exact range; values from 2^LATENCY_TOP_EXP ns
 * (about 9.8 hours) on count in the last bucket, and max keeps them. */
#define LATENCY_TOP_EXP 45
#define LATENCY_BUCKETS (LATENCY_SUB + (LATENCY_TOP_EXP - LATENCY_SUB_BITS) * LATENCY_SUB)

struct latency_hist {
    uint64_t n;              /* samples */
    uint64_t min_ns, max_ns; /* exact; min_ns is UINT64_MAX while n is 0 */
    uint64_t count[LATENCY_BUCKETS];
};

void latency_clear(struct latency_hist *h);

/* The bucket of a value (inline: every call recorded takes one), and the
 * values it holds: [low, high]. */
static inline int latency_bucket(uint64_t ns)
{
    if (ns < LATENCY_SUB)
        return (int)ns;
    int e = 63 - __builtin_clzll(ns); /* LATENCY_SUB_BITS <= e <= 63 */
    if (e >= LATENCY_TOP_EXP)
        return LATENCY_BUCKETS - 1;
    int shift = e - LATENCY_SUB_BITS;
    /* the top LATENCY_SUB_BITS + 1 bits: LATENCY_SUB .. 2 LATENCY_SUB - 1 */
    uint64_t m = ns >> shift;
    return LATENCY_SUB + shift * LATENCY_SUB + (int)(m - LATENCY_SUB);
}
uint64_t latency_bucket_low(int b);
uint64_t latency_bucket_high(int b);

/* Records one call of the given seconds (negative counts as 0). */
static inline void latency_record(struct latency_hist *h, double seconds)
{
    uint64_t ns = seconds > 0 ? (uint64_t)(seconds * 1e9 + 0.5) : 0;
    h->count[latency_bucket(ns)]++;
    h->n++;
    if (ns < h->min_ns)
        h->min_ns = ns;
    if (ns > h->max_ns)
        h->max_ns = ns;
}

/* Calls' times kept as they come, binned into a histogram later: a call
 * costs one store, where latency_record() touches the histogram's counts
 * (40 KiB, more than a processor's first-level cache) and its bounds
 * right after the library's call has filled that cache with its own
 * (docs/performance.md, "The cost of recording every call's latency").
 * Fixed size: the caller flushes it when latency_log_add() says it is
 * full, and at the end of its calls. */
#define LATENCY_LOG_SAMPLES 2048
struct latency_log {
    int n;
    double seconds[LATENCY_LOG_SAMPLES];
};

/* Keeps one call's seconds; true when the log is full (flush it then). */
static inline bool latency_log_add(struct latency_log *l, double seconds)
{
    l->seconds[l->n++] = seconds;
    return l->n == LATENCY_LOG_SAMPLES;
}

/* Records every kept call into h (latency_record()) and empties l. */
void latency_log_flush(struct latency_log *l, struct latency_hist *h);

/* The q-quantile (0 < q <= 1) by the nearest rank: the smallest sample s
 * with at least ceil(q n) samples at or below it, reported as the upper
 * end of its bucket but never above the maximum; in nanoseconds. 0 when
 * the histogram is empty. */
uint64_t latency_quantile(const struct latency_hist *h, double q);

/* The calls of a phase whose latency is kept. */
enum latency_call { LATENCY_OPEN = 0, LATENCY_TRANSFER, LATENCY_CLOSE, LATENCY_CALLS };

/* The quantiles reported: p50, p90, p99, p99.9. */
#define LATENCY_QUANTILES 4
extern const double latency_quantiles[LATENCY_QUANTILES];

/* A histogram as the results keep it: its quantiles and its non-empty
 * buckets (their upper ends, capped at max), in seconds. */
struct latency_summary {
    uint64_t calls;
    double min, q[LATENCY_QUANTILES], max;
    int nbuckets;
    double *upper;   /* [nbuckets], owned */
    uint64_t *count; /* [nbuckets], owned */
};

/* "open", "transfer", "close". */
const char *latency_call_name(enum latency_call c);

/* s from h. Returns 0, or -1 (out of memory: s without buckets). */
int latency_summarize(const struct latency_hist *h, struct latency_summary *s);
void latency_summary_release(struct latency_summary *s);

#endif
