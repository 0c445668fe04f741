/* --advise's check of every candidate before any race (docs/advisor.md,
 * "Running it"): each candidate's run through setup_check(), the
 * candidates h5perf refuses left out and said once, and the workload
 * refused (one line, exit status 2) when a set's baseline or every one of
 * its other candidates cannot run, or its baseline cannot be measured
 * within the budget. Prints nothing itself. */
#ifndef H5PERF_ADVISE_CHECK_H
#define H5PERF_ADVISE_CHECK_H

#include <stdbool.h>

#include "cli/cli.h"
#include "engine/setup.h"
#include "workload/workload.h"

/* Of one set's collected candidates (the baseline first): which h5perf
 * refuses, how many, and the first refusal, as said on process 0. */
struct advise_checked {
    int n;
    bool *refused; /* [n] */
    int nrefused;
    char first[2 * sizeof(struct cli_msg)];
};

/* Collective over MPI_COMM_WORLD: checks the n candidates c (c[0] the
 * baseline) of set number set; budget the set's share of --budget (0:
 * no race). Returns 0 with *out (advise_checked_release() it), or -1 with
 * the workload's refusal in m on process 0. */
int advise_check_set(const struct run *run, const struct workload *w, int set,
                     const struct workload_config *c, int n, double budget,
                     struct advise_checked *out, struct cli_msg *m);

/* Keeps the candidates of c[0 .. n-1] that checked out, in order; returns
 * their number. */
int advise_checked_keep(const struct advise_checked *k, struct workload_config *c, int n);

void advise_checked_release(struct advise_checked *k);

#endif
