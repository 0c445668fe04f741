/* race.h: successive halving on the intervals of medians, within a
 * budget of seconds that the caller's measure() reports. Pure. */
#include "workload/race.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Intervals apart by less than this fraction are not told apart: the
 * rounding of seconds subtracted on a clock that runs for hours. */
#define RACE_EPSILON 1e-6

/* Samples every candidate gets in the first round: the fewest whose
 * median has a 95% interval. */
static int race_first_samples(void)
{
    int k = confidence_min_samples(CONFIDENCE_LEVEL);
    return k > 0 && k <= RACE_MAX_SAMPLES ? k : RACE_MAX_SAMPLES;
}

static int race_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median and its interval from the samples. */
static void race_stats(struct race_entry *e)
{
    double sorted[RACE_MAX_SAMPLES];
    memcpy(sorted, e->v, (size_t)e->n * sizeof *sorted);
    qsort(sorted, (size_t)e->n, sizeof *sorted, race_cmp_double);
    e->median = e->n % 2 ? sorted[e->n / 2] : (sorted[e->n / 2 - 1] + sorted[e->n / 2]) / 2;
    confidence_median(sorted, e->n, CONFIDENCE_LEVEL, &e->ci);
}

/* The seconds one more sample of entry e is expected to take: its own
 * average, else the average of every sample taken so far (0: none yet). */
static double race_cost(const struct race *r, const struct race_entry *e)
{
    if (e->n > 0)
        return e->seconds / e->n;
    double s = 0;
    int n = 0;
    for (int i = 0; i < r->n; i++) {
        s += r->e[i].seconds;
        n += r->e[i].n;
    }
    return n ? s / n : 0;
}

bool race_tied(const struct race *r, int i, int j)
{
    return !race_better(r, i, j) && !race_better(r, j, i);
}

bool race_better(const struct race *r, int i, int j)
{
    const struct race_entry *a = &r->e[i], *b = &r->e[j];
    return a->ci.known && b->ci.known && a->ci.low > b->ci.high * (1 + RACE_EPSILON);
}

static int race_live(const struct race *r);

/* One round: k more samples of every live candidate, the baseline first;
 * the first round (first) gives the others fewer when half the budget
 * left cannot pay k each at the baseline's cost (at least 1). Returns
 * false when the budget stopped it. */
static bool race_round(struct race *r, int k, bool first, race_measure_fn measure, void *arg)
{
    for (int t = -1; t < r->n; t++) {
        if (t == 0 && first && r->e[r->baseline].n > 0) {
            double per = race_cost(r, &r->e[r->baseline]) * race_live(r);
            double fit = per > 0 ? (r->budget - r->spent) / 2 / per : k;
            k = fit < 1 ? 1 : fit < k ? (int)fit : k;
        }
        int i = t < 0 ? r->baseline : t;
        struct race_entry *e = &r->e[i];
        if ((t >= 0 && i == r->baseline) || (e->state != RACE_ALIVE))
            continue;
        int want = k < RACE_MAX_SAMPLES - e->n ? k : RACE_MAX_SAMPLES - e->n;
        if (want <= 0)
            continue;
        if (r->spent + want * race_cost(r, e) > r->budget) {
            r->out_of_budget = true;
            return false;
        }
        double cost = 0;
        int rc = measure(arg, i, want, e->v + e->n, &cost);
        r->spent += cost;
        e->seconds += cost;
        e->round = r->rounds;
        if (rc != 0) {
            e->state = RACE_FAILED;
            continue;
        }
        e->n += want;
        race_stats(e);
    }
    return true;
}

/* The live candidate (not the baseline) with the highest median, or -1. */
static int race_best(const struct race *r)
{
    int best = -1;
    for (int i = 0; i < r->n; i++)
        if (r->e[i].state == RACE_ALIVE && r->e[i].n > 0 &&
            (best < 0 || r->e[i].median > r->e[best].median))
            best = i;
    return best;
}

static int race_live(const struct race *r)
{
    int n = 0;
    for (int i = 0; i < r->n; i++)
        n += i != r->baseline && r->e[i].state == RACE_ALIVE;
    return n;
}

/* Drops the clearly worse, then the lowest medians down to half of the
 * candidates that started the round. */
static void race_drop(struct race *r, int started)
{
    int best = race_best(r);
    if (best < 0)
        return;
    for (int i = 0; i < r->n; i++)
        if (i != r->baseline && i != best && r->e[i].state == RACE_ALIVE &&
            race_better(r, best, i)) {
            r->e[i].state = RACE_WORSE;
            r->e[i].round = r->rounds;
        }
    int keep = (started + 1) / 2;
    while (race_live(r) > keep) {
        int worst = -1;
        for (int i = 0; i < r->n; i++)
            if (i != r->baseline && i != best && r->e[i].state == RACE_ALIVE &&
                (worst < 0 || r->e[i].median < r->e[worst].median))
                worst = i;
        if (worst < 0)
            break;
        r->e[worst].state = RACE_HALVED;
        r->e[worst].round = r->rounds;
    }
}

/* Samples for the next round: the budget left spread over the rounds
 * halving still needs (at least 1). */
static int race_next_samples(const struct race *r)
{
    int rounds = 1;
    for (int m = race_live(r); m > 1; m = (m + 1) / 2)
        rounds++;
    double per = 0;
    for (int i = 0; i < r->n; i++)
        if (r->e[i].state == RACE_ALIVE)
            per += race_cost(r, &r->e[i]);
    double k = per > 0 ? (r->budget - r->spent) / (rounds * per) : 1;
    return k < 1 ? 1 : k > RACE_MAX_SAMPLES ? RACE_MAX_SAMPLES : (int)k;
}

/* The duel: one candidate left besides the baseline, and neither told
 * apart from the other yet (fewer than 6 samples count as not told
 * apart). The best candidate's index, or -1 when there is no duel. */
static int race_duel(const struct race *r)
{
    int best = race_best(r);
    if (race_live(r) != 1 || best < 0 || r->e[r->baseline].state != RACE_ALIVE)
        return -1;
    return race_tied(r, best, r->baseline) ? best : -1;
}

/* Samples for the duel's next round: as many again as the one of the two
 * with fewer has (so the intervals narrow by about a third each round and
 * the duel can stop as soon as they part), within the budget left. */
static int race_duel_samples(const struct race *r, int best)
{
    int n = r->e[best].n < r->e[r->baseline].n ? r->e[best].n : r->e[r->baseline].n;
    int k = race_next_samples(r);
    return n < 1 ? 1 : n < k ? n : k;
}

static int race_order(const struct race *r, int i, int j)
{
    const struct race_entry *a = &r->e[i], *b = &r->e[j];
    if ((a->n > 0) != (b->n > 0))
        return a->n > 0 ? -1 : 1;
    if (a->median != b->median)
        return a->median > b->median ? -1 : 1;
    return i - j;
}

int race_run(struct race *r, race_measure_fn measure, race_round_fn round, void *arg)
{
    r->spent = 0;
    r->rounds = 0;
    r->out_of_budget = false;
    int k = race_first_samples();
    for (;;) {
        int started = race_live(r);
        bool whole = race_round(r, k, r->rounds == 0, measure, arg);
        if (!whole)
            break;
        race_drop(r, started);
        r->rounds++;
        if (round)
            round(arg, r);
        bool more = false;
        for (int i = 0; i < r->n; i++)
            more |= r->e[i].state == RACE_ALIVE && r->e[i].n < RACE_MAX_SAMPLES;
        if (!more)
            break;
        if (race_live(r) <= 1) {
            /* Halving is done; the budget left goes to telling the last
             * candidate and the baseline apart (docs/advisor.md, "The
             * race"). */
            int best = race_duel(r);
            if (best < 0)
                break;
            k = race_duel_samples(r, best);
        } else {
            k = race_next_samples(r);
        }
    }
    for (int i = 0; i < r->n; i++)
        if (r->e[i].n == 0 && r->e[i].state == RACE_ALIVE)
            r->e[i].state = RACE_UNMEASURED;
    for (int i = 0; i < r->n; i++)
        r->rank[i] = i;
    /* Insertion sort: a few hundred candidates at most. */
    for (int i = 1; i < r->n; i++)
        for (int j = i; j > 0 && race_order(r, r->rank[j - 1], r->rank[j]) > 0; j--) {
            int t = r->rank[j];
            r->rank[j] = r->rank[j - 1];
            r->rank[j - 1] = t;
        }
    return 0;
}
