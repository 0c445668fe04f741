/* The advisor's race (src/workload/race.c, docs/advisor.md "The race") on
 * synthetic timings: every sample of candidate i is its true throughput
 * times a deterministic jitter, and costs a fixed number of seconds. The
 * best survives and is ranked first, significantly better than the
 * baseline; equal candidates are reported equal to the best and none
 * better than the baseline; the budget is never passed, and is mostly
 * used; a candidate that fails is never ranked first. Pure: no MPI. */
#include <stdlib.h>

#include "check.h"
#include "workload/race.h"

#define NCAND 24

struct synth {
    double mu[NCAND]; /* true throughput */
    double jitter;    /* +- this fraction */
    double cost;      /* seconds per sample */
    int fail;         /* a candidate whose measure fails, or -1 */
    unsigned long long state;
    int calls;
};

static double synth_noise(struct synth *s)
{
    s->state = s->state * 6364136223846793005ull + 1442695040888963407ull;
    return ((double)(s->state >> 11) / 9007199254740992.0) * 2 - 1;
}

static int synth_measure(void *arg, int i, int k, double *v, double *cost)
{
    struct synth *s = arg;
    s->calls++;
    *cost = k * s->cost;
    if (i == s->fail)
        return -1;
    for (int j = 0; j < k; j++)
        v[j] = s->mu[i] * (1 + s->jitter * synth_noise(s));
    return 0;
}

static void race_on(struct synth *s, int n, double budget, struct race *r)
{
    static struct race_entry e[NCAND];
    static int rank[NCAND];
    memset(e, 0, sizeof e);
    *r = (struct race){.n = n, .baseline = 0, .budget = budget, .e = e, .rank = rank};
    race_run(r, synth_measure, NULL, s);
}

static void test_best_survives(void)
{
    struct synth s = {.jitter = 0.05, .cost = 0.5, .fail = -1, .state = 1};
    for (int i = 0; i < NCAND; i++)
        s.mu[i] = 100 + 2 * i;
    s.mu[7] = 200; /* the best, not last in any order */
    struct race r;
    race_on(&s, NCAND, 300, &r);
    CHECK_I64(r.rank[0], 7);
    CHECK_I64(r.e[7].state, RACE_ALIVE);
    CHECK(race_better(&r, 7, 0));
    CHECK(r.spent <= r.budget);
    CHECK(r.spent >= 0.5 * r.budget || !r.out_of_budget);
    CHECK(r.e[0].n >= r.e[1].n); /* the baseline is measured every round */
    for (int i = 1; i < NCAND; i++)
        if (i != 7)
            CHECK(r.e[i].state == RACE_WORSE || r.e[i].state == RACE_HALVED);
}

static void test_equal(void)
{
    struct synth s = {.jitter = 0.05, .cost = 0.1, .fail = -1, .state = 7};
    for (int i = 0; i < 8; i++)
        s.mu[i] = 100;
    struct race r;
    race_on(&s, 8, 60, &r);
    int best = r.rank[0];
    for (int i = 0; i < 8; i++)
        CHECK(race_tied(&r, i, best));
    CHECK(!race_better(&r, best, 0));
    CHECK(r.spent <= r.budget);
    /* Never told apart: the last candidate and the baseline are measured
     * to the most samples the budget allows. */
    CHECK_I64(r.e[best].n, RACE_MAX_SAMPLES);
    CHECK_I64(r.e[0].n, RACE_MAX_SAMPLES);
}

/* One candidate 10% better than the baseline, samples within +-10%: six
 * samples each cannot tell them apart (the first round's intervals
 * overlap), so the two are measured more, each round as many samples
 * again, until they are told apart, and no further. */
static void test_duel(void)
{
    struct synth s = {.jitter = 0.1, .cost = 0.1, .fail = -1, .state = 11};
    s.mu[0] = 100;
    s.mu[1] = 110;
    struct race r;
    race_on(&s, 2, 60, &r);
    CHECK(r.rounds > 1);
    CHECK(race_better(&r, 1, 0));
    CHECK_I64(r.rank[0], 1);
    CHECK_I64(r.e[0].n, r.e[1].n);
    CHECK(r.e[1].n < RACE_MAX_SAMPLES);
    CHECK(r.spent < r.budget / 2);
    CHECK(!r.out_of_budget);
}

static void test_budget(void)
{
    struct synth s = {.jitter = 0.1, .cost = 0.5, .fail = -1, .state = 3};
    for (int i = 0; i < NCAND; i++)
        s.mu[i] = 50 + i;
    struct race r;
    /* 24 candidates x 6 samples x 0.5 s = 72 s for the first round alone. */
    race_on(&s, NCAND, 10, &r);
    CHECK(r.out_of_budget);
    CHECK(r.spent <= 10);
    CHECK(r.spent >= 9); /* within 10% of the budget */
    CHECK_I64(r.e[NCAND - 1].state, RACE_UNMEASURED);
    CHECK(r.e[0].n > 0); /* the baseline first */
    /* A larger budget: every second of it but the last measurement's. */
    race_on(&s, NCAND, 500, &r);
    CHECK(r.spent <= 500);
    CHECK(r.spent >= 450 || !r.out_of_budget);
}

static void test_failure(void)
{
    struct synth s = {.jitter = 0.02, .cost = 0.2, .fail = 3, .state = 5};
    for (int i = 0; i < 6; i++)
        s.mu[i] = 100;
    s.mu[3] = 1000; /* would be the best, but its data did not verify */
    struct race r;
    race_on(&s, 6, 100, &r);
    CHECK_I64(r.e[3].state, RACE_FAILED);
    CHECK(r.rank[0] != 3);
}

int main(void)
{
    test_best_survives();
    test_equal();
    test_duel();
    test_budget();
    test_failure();
    return check_done("test_race");
}
