/* How sure a median is (docs/results.md, "intervals"): the distribution-free
 * confidence interval of the median of n samples from order statistics,
 * [x(l), x(n+1-l)] with the largest l whose coverage under the binomial
 * distribution B(n, 1/2) is still at least the level asked; and the rule
 * of --confidence: every measure's interval within a given fraction of its
 * median. Pure. */
#ifndef H5PERF_CONFIDENCE_H
#define H5PERF_CONFIDENCE_H

#include <stdbool.h>

#define CONFIDENCE_LEVEL 0.95

struct median_interval {
    bool known;       /* n is enough for the level (6 or more at 95%) */
    double low, high; /* x(l) and x(n+1-l) */
    int l;            /* the order statistic's rank, 1-based */
    double coverage;  /* 1 - 2 P(B(n, 1/2) <= l - 1) */
};

/* The rank l of the interval of n samples at level (0 < level < 1), or 0
 * when no l reaches it; *coverage its exact coverage. */
int confidence_rank(int n, double level, double *coverage);

/* The interval of the median of the n values of sorted (ascending). */
void confidence_median(const double *sorted, int n, double level, struct median_interval *out);

/* Is the interval within +-fraction of the median med (med > 0)? */
static inline bool confidence_within(const struct median_interval *ci, double med, double fraction)
{
    return ci->known && med > 0 && ci->high - med <= fraction * med &&
           med - ci->low <= fraction * med;
}

/* The fewest samples whose median has an interval at level. */
int confidence_min_samples(double level);

#endif
