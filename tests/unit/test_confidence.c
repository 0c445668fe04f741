/* Unit tests of the order-statistic intervals of the median
 * (report/confidence.h) against the binomial tables, and of the rule
 * --confidence applies to a run's iterations (results.h): on synthetic
 * timings it stops once every interval is within the bound, and never
 * while noise keeps the interval wide. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "report/confidence.h"
#include "report/results.h"

static void test_ranks(void)
{
    /* n: the rank l and the coverage of [x(l), x(n+1-l)] at 95%, from the
     * binomial distribution B(n, 1/2). */
    const struct {
        int n, l;
        double coverage;
    } table[] = {{5, 0, 0},         {6, 1, 0.96875},   {8, 1, 0.9921875},  {9, 2, 0.9609375},
                 {12, 3, 0.961426}, {20, 6, 0.958611}, {100, 40, 0.964800}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        double cov = 0;
        CHECK_I64(confidence_rank(table[i].n, 0.95, &cov), table[i].l);
        CHECK(fabs(cov - table[i].coverage) < 1e-5);
    }
    CHECK_I64(confidence_min_samples(0.95), 6);
    CHECK_I64(confidence_min_samples(0.99), 8);
    double sorted[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    struct median_interval ci;
    confidence_median(sorted, 9, 0.95, &ci);
    CHECK(ci.known && ci.low == 2 && ci.high == 8);
    CHECK(confidence_within(&ci, 5, 0.6) && !confidence_within(&ci, 5, 0.5));
    confidence_median(sorted, 5, 0.95, &ci);
    CHECK(!ci.known);
}

/* A run of n iterations whose write and read times are t(i). */
static void fill(struct api_result *r, int n, double (*t)(int))
{
    results_init(r, API_POSIX, 2, 65536, 1048576, 100);
    for (int i = 0; i < n; i++) {
        struct iter_result *it = results_next_iteration(r);
        for (int k = 0; k < TIMER_COUNT; k++)
            it->t[k] = (struct timer_stat){t(i), t(i), 2 * t(i)};
    }
}

static double steady(int i)
{
    return 0.010 + 0.0001 * (i % 3); /* within 1% */
}

static double noisy(int i)
{
    return i % 2 ? 0.010 : 0.030; /* half at three times the other */
}

static void test_rule(void)
{
    struct report_settings cfg;
    memset(&cfg, 0, sizeof cfg);
    struct api_result r;
    /* Steady timings: no interval with 5 iterations, within 5% from 6 on. */
    fill(&r, 5, steady);
    CHECK(!results_intervals_within(&r, &cfg, 0.05));
    results_release(&r);
    fill(&r, 6, steady);
    CHECK(results_intervals_within(&r, &cfg, 0.05));
    CHECK(!results_intervals_within(&r, &cfg, 0.001));
    struct timer_summary s;
    results_summarize(&r, TIMER_WRITE_FINE, &s);
    CHECK(s.mbs_ci.known && s.mbs_ci.low <= s.mbs_med && s.mbs_med <= s.mbs_ci.high);
    results_release(&r);
    /* Noise that never narrows: wide at any count. */
    for (int n = 6; n <= 60; n += 9) {
        fill(&r, n, noisy);
        CHECK(!results_intervals_within(&r, &cfg, 0.2));
        results_release(&r);
    }
    /* With bytes that differ between iterations (--stonewall): the
     * interval is of each iteration's MB/s. */
    fill(&r, 6, steady);
    for (int i = 0; i < 6; i++)
        r.it[i].bytes[0] = r.it[i].bytes[1] = 1048576 * (i % 2 ? 1 : 3);
    CHECK(!results_intervals_within(&r, &cfg, 0.05));
    results_release(&r);
}

int main(void)
{
    test_ranks();
    test_rule();
    return check_done("test_confidence");
}
