/* The answer of --advise --budget for one data set, printed by process 0
 * (docs/advisor.md, "The answer"). Local. */
#ifndef H5PERF_ADVISE_PRINT_H
#define H5PERF_ADVISE_PRINT_H

#include "engine/advise_race.h"

/* The ranked table of set number set's candidates c (c[0] the baseline),
 * the recommendation or that none beats the baseline, and the worst. */
void advise_print_answer(const struct workload *w, int set, const struct workload_config *c,
                         const struct advise_answer *a, double budget);

#endif
