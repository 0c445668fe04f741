/* The answer of --advise --budget for one data set, printed by process 0
 * (docs/advisor.md, "The answer"), and the pieces of it that the JSON
 * answer (advise_json.h) carries too, so that both say the same. Local. */
#ifndef H5PERF_ADVISE_PRINT_H
#define H5PERF_ADVISE_PRINT_H

#include "advisor/advise_race.h"

/* The ranked table of set number set's candidates c (c[0] the baseline),
 * the recommendation or that none beats the baseline, the application's
 * recorded throughput beside it (rec, a trace's; NULL: none), and the
 * worst. */
void advise_print_answer(const struct workload *w, int set, const struct workload_config *c,
                         const struct advise_answer *a, double budget,
                         const struct workload_recorded *rec);

/* A direction's recorded throughput of a process, MB/s (10^6 bytes): its
 * bytes over the sum of its calls' seconds (docs/trace.md, "Report"); < 0
 * without such calls. */
double advise_recorded_mbs(const struct workload_recorded *rec, int write);

/* The median of the n samples v and its 95% interval (ci->known false
 * with fewer than 6 samples); *median 0 when n is 0. */
void advise_median(const double *v, int n, double *median, struct median_interval *ci);

/* Candidate i's state: "verified", "in race", "worse", "halved", "failed"
 * or "unmeasured". */
const char *advise_state(const struct advise_answer *a, int i);

/* Can candidate i (measured) not be told apart from the best? */
bool advise_tied_best(const struct advise_answer *a, int i);

/* The candidate not to use: the worst measured that did not fail, when
 * candidate ref (the recommendation, or the baseline) is significantly
 * better than it; -1 otherwise. */
int advise_worst(const struct advise_answer *a, int ref);

/* The recommendation's settings as text: in words, and the calls of its
 * API (api_desc.advice; api its error name, NULL when it has none to
 * show: POSIX). */
struct advise_settings {
    char in_words[512];
    const char *api; /* "HDF5", "PnetCDF", "MPI-IO", or NULL */
    char calls[512];
};
void advise_settings_of(const struct workload_config *c, struct advise_settings *out);

/* The value of choice d's option (workload_dim_row()) in c's words, or
 * NULL; "" for a flag (-C). */
const char *advise_word(const struct workload_config *c, enum workload_dim d);

/* Is c's word i one of its choices, *on (false before word 0) set from
 * -A on: its words from -A on but -w. */
bool advise_choice_word(const struct workload_config *c, int i, bool *on);

#endif
