/* The advisor's race (docs/advisor.md, "The race"): successive halving of
 * candidates within a time budget. Every candidate is measured briefly
 * (enough samples for the 95% interval of its median), those whose
 * interval lies wholly below the best's are dropped, then the worse half
 * of the rest; the survivors are measured more, round after round, until
 * one is left besides the baseline; that one and the baseline are then
 * measured more, each round as many samples again, until they are told
 * apart. The race ends there, or when the budget would be passed, or when
 * every survivor has RACE_MAX_SAMPLES samples. The baseline is measured in every
 * round and never dropped. Samples are throughputs (higher is better);
 * how they are taken is the caller's (measure). Pure: no MPI, no clock. */
#ifndef H5PERF_RACE_H
#define H5PERF_RACE_H

#include <stdbool.h>

#include "report/confidence.h"

#define RACE_MAX_SAMPLES 64

struct race;

/* Takes k more samples of candidate i into v[0 .. k-1] and the seconds it
 * spent into *cost. Returns 0, or -1 when the candidate failed (an I/O
 * error, data that did not verify): it is dropped for good. */
typedef int (*race_measure_fn)(void *arg, int i, int k, double *v, double *cost);

/* Called after each round (progress lines). */
typedef void (*race_round_fn)(void *arg, const struct race *r);

enum race_state {
    RACE_ALIVE = 0,
    RACE_WORSE,     /* its interval lay wholly below the best's */
    RACE_HALVED,    /* in the worse half of a round */
    RACE_FAILED,    /* measure returned -1 */
    RACE_UNMEASURED /* the budget ran out before its first samples */
};

struct race_entry {
    int n; /* samples */
    double v[RACE_MAX_SAMPLES];
    double median;
    struct median_interval ci;
    double seconds; /* spent measuring it */
    enum race_state state;
    int round; /* the round it left the race in, or the last it ran */
};

struct race {
    int n;        /* candidates */
    int baseline; /* its index */
    double budget, spent;
    int rounds;
    bool out_of_budget;   /* the race ended because the next measurement would pass the budget */
    struct race_entry *e; /* [n], the caller's */
    int *rank;            /* [n], the caller's: indices, best first (after race_run) */
};

/* Races r->n candidates (r->e zeroed by the caller, r->baseline, r->budget
 * set); fills each entry, r->spent, r->rounds and r->rank. Returns 0. */
int race_run(struct race *r, race_measure_fn measure, race_round_fn round, void *arg);

/* Can candidate i not be told apart from candidate j (neither is
 * race_better than the other)? */
bool race_tied(const struct race *r, int i, int j);

/* Is candidate i significantly better than candidate j (both have an
 * interval, and i's lies wholly above j's by more than a millionth)? */
bool race_better(const struct race *r, int i, int j);

#endif
