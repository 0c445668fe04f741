/* --advise --budget (docs/advisor.md, "The race"): one data set's
 * candidates measured in this launch by quiet runs of h5perf's own
 * pipeline (setup, engine; no report), raced by successive halving within
 * the budget (workload/race.h), the finalists verified with -D v. */
#ifndef H5PERF_ADVISE_RACE_H
#define H5PERF_ADVISE_RACE_H

#include "backend/backend.h"
#include "engine/setup.h"
#include "workload/race.h"
#include "workload/workload.h"

/* The share of a set's budget kept for the verification of the
 * finalists; the race has the rest. */
#define ADVISE_VERIFY_SHARE 0.1

/* What a race found: the race itself (rank best first), the candidate
 * recommended (the first significantly better than the baseline whose data
 * verified; -1: none, the baseline stays), the finalists tried, the
 * seconds spent, and each candidate's write and read MiB/s samples. */
struct advise_answer {
    struct race race;
    int chosen;
    int tried;
    double spent;
    double (*wr)[RACE_MAX_SAMPLES];
    double (*rd)[RACE_MAX_SAMPLES];
    int *nw;
    bool reads;
};

/* Collective over MPI_COMM_WORLD: races the n candidates c (c[0] the
 * baseline) of set number set within budget seconds, 10% of which are
 * kept for the verification of the finalists. Returns 0 with *out (to
 * release), or -1 (out of memory). */
int advise_race(const struct run *run, const struct backend_ops *const ops[API_COUNT],
                const struct workload *w, int set, struct workload_config *c, int n, double budget,
                struct advise_answer *out);

/* Collective over MPI_COMM_WORLD: candidate c's run checked as one
 * sample of the race would run it (setup_check(): nothing printed, no
 * file touched) into *r (setup_release() it). Returns 0, or -1 with the
 * refusal in m on process 0. */
int advise_check_one(const struct workload_config *c, struct run *r, struct cli_msg *m);

void advise_answer_release(struct advise_answer *a);

#endif
