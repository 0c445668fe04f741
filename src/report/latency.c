/* The histogram of latency.h. Pure. */
#include "report/latency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void latency_clear(struct latency_hist *h)
{
    memset(h, 0, sizeof *h);
    h->min_ns = UINT64_MAX;
}

uint64_t latency_bucket_low(int b)
{
    if (b < LATENCY_SUB)
        return (uint64_t)b;
    int shift = (b - LATENCY_SUB) / LATENCY_SUB;
    uint64_t m = (uint64_t)LATENCY_SUB + (uint64_t)((b - LATENCY_SUB) % LATENCY_SUB);
    return m << shift;
}

uint64_t latency_bucket_high(int b)
{
    if (b == LATENCY_BUCKETS - 1)
        return UINT64_MAX;
    return latency_bucket_low(b + 1) - 1;
}

void latency_log_flush(struct latency_log *l, struct latency_hist *h)
{
    for (int i = 0; i < l->n; i++)
        latency_record(h, l->seconds[i]);
    l->n = 0;
}

uint64_t latency_quantile(const struct latency_hist *h, double q)
{
    if (h->n == 0)
        return 0;
    double want = ceil(q * (double)h->n);
    uint64_t rank = want < 1 ? 1 : want > (double)h->n ? h->n : (uint64_t)want;
    uint64_t seen = 0;
    for (int b = 0; b < LATENCY_BUCKETS; b++) {
        seen += h->count[b];
        if (seen >= rank) {
            uint64_t high = latency_bucket_high(b);
            return high < h->max_ns ? high : h->max_ns;
        }
    }
    return h->max_ns;
}

const double latency_quantiles[LATENCY_QUANTILES] = {0.5, 0.9, 0.99, 0.999};

const char *latency_call_name(enum latency_call c)
{
    static const char *const names[LATENCY_CALLS] = {"open", "transfer", "close"};
    return (int)c >= 0 && c < LATENCY_CALLS ? names[c] : "unknown";
}

int latency_summarize(const struct latency_hist *h, struct latency_summary *s)
{
    memset(s, 0, sizeof *s);
    s->calls = h->n;
    if (h->n == 0)
        return 0;
    s->min = (double)h->min_ns * 1e-9;
    s->max = (double)h->max_ns * 1e-9;
    for (int i = 0; i < LATENCY_QUANTILES; i++)
        s->q[i] = (double)latency_quantile(h, latency_quantiles[i]) * 1e-9;
    int n = 0;
    for (int b = 0; b < LATENCY_BUCKETS; b++)
        n += h->count[b] != 0;
    s->upper = malloc((size_t)n * sizeof *s->upper);
    s->count = malloc((size_t)n * sizeof *s->count);
    if (!s->upper || !s->count) {
        latency_summary_release(s);
        s->calls = h->n;
        return -1;
    }
    for (int b = 0; b < LATENCY_BUCKETS; b++) {
        if (!h->count[b])
            continue;
        uint64_t high = latency_bucket_high(b);
        s->upper[s->nbuckets] = (double)(high < h->max_ns ? high : h->max_ns) * 1e-9;
        s->count[s->nbuckets++] = h->count[b];
    }
    return 0;
}

void latency_summary_release(struct latency_summary *s)
{
    free(s->upper);
    free(s->count);
    s->upper = NULL;
    s->count = NULL;
    s->nbuckets = 0;
}
