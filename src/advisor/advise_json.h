/* The advisor's answer as JSON (docs/advisor.md, "The answer as JSON";
 * docs/advice.schema.json): --advise FILE --budget S --results OUT.json.
 * Process 0 only. The document is made in memory, set by set as the
 * races end, then written into a new file beside OUT and renamed to OUT:
 * a reader sees the former file or the whole answer, never part of one,
 * and a launch that stops early leaves OUT as it was and nothing else. */
#ifndef H5PERF_ADVISE_JSON_H
#define H5PERF_ADVISE_JSON_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "advisor/advise_check.h"
#include "advisor/advise_race.h"
#include "base/jsonw.h"

#define ADVISE_JSON_SCHEMA         "h5perf-advice"
#define ADVISE_JSON_SCHEMA_VERSION 1

struct advise_json {
    const char *path; /* OUT */
    char tmp[PATH_MAX];
    FILE *f; /* the document in memory (open_memstream), NULL when closed */
    char *text;
    size_t len;
    struct jsonw w;
    double spent; /* over the sets so far */
};

/* Local, process 0, before anything is measured: can path take the
 * answer: a regular file or a new name, in a directory this process may
 * write, and not the workload file? Creates nothing. Returns 0, or -1 with
 * one line in m naming opt (the option as spelled). */
int advise_json_check(const char *opt, const char *path, const char *workload, struct cli_msg *m);

/* Local, process 0: starts the document (in memory) for path, with
 * the launch's facts (the workload, the processes, the whole budget, the
 * MPI-IO component this launch has: NULL for the library's default).
 * Returns 0, or -1 with errno. */
int advise_json_begin(struct advise_json *d, const char *path, const struct workload *w, int nprocs,
                      double budget, const char *component);

/* Local, process 0: the answer of set number set (candidates c[0 .. n-1],
 * c[0] the baseline; left_out: its candidates of another MPI-IO component,
 * not raced; refused: its candidates h5perf refuses, not raced either),
 * raced within budget seconds. */
void advise_json_set(struct advise_json *d, const struct workload *w, int set,
                     const struct workload_config *c, const struct advise_answer *a, double budget,
                     int left_out, const struct advise_checked *refused,
                     const struct workload_recorded *rec);

/* Local, process 0: ends the document, writes it into a new file beside
 * its path and renames that to the path. Returns 0, or -1 with errno (the
 * new file removed, the path left as it was). */
int advise_json_end(struct advise_json *d);

/* Local, process 0: frees the document (after advise_json_end, or
 * instead of it). */
void advise_json_abandon(struct advise_json *d);

#endif
