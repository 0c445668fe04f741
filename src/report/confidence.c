/* Order-statistic intervals of the median (confidence.h). The binomial
 * probabilities are summed in logarithms, so that n of many thousands
 * neither overflows nor loses the tail. Pure. */
#include "report/confidence.h"

#include <math.h>
#include <stddef.h>

/* P(B(n, 1/2) = i). */
static double binomial_pmf_half(int n, int i)
{
    return exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) + n * log(0.5));
}

int confidence_rank(int n, double level, double *coverage)
{
    int best = 0;
    double best_cov = 0, below = 0; /* P(B(n, 1/2) <= l - 1) */
    /* Coverage falls as l rises: the largest l still at the level. */
    for (int l = 1; 2 * l <= n + 1; l++) {
        below += binomial_pmf_half(n, l - 1);
        double cov = 1.0 - 2.0 * below;
        if (cov < level)
            break;
        best = l;
        best_cov = cov;
    }
    if (coverage)
        *coverage = best_cov;
    return best;
}

void confidence_median(const double *sorted, int n, double level, struct median_interval *out)
{
    out->l = confidence_rank(n, level, &out->coverage);
    out->known = out->l > 0;
    out->low = out->known ? sorted[out->l - 1] : 0;
    out->high = out->known ? sorted[n - out->l] : 0;
}

int confidence_min_samples(double level)
{
    for (int n = 1; n < 1000; n++)
        if (confidence_rank(n, level, NULL) > 0)
            return n;
    return 1000;
}
