/* The validation pipeline (docs/design.md), all before any data file exists:
 * parse -> defaults and warnings -> the session's run plan, every run point
 * checked by its pattern and by its API's backend, memory over all
 * processes -> agree across ranks -> probe the target directory and refuse
 * data files that already exist -> open the -o and --results files on
 * rank 0. */
#ifndef H5PERF_SETUP_H
#define H5PERF_SETUP_H

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "session/session.h"

#define SETUP_PATH_MAX 4096

struct run {
    struct config cfg;
    struct session session; /* the run plan: every run point, measured (session.h) */
    int world_rank, world_size;
    MPI_Info info;                     /* from HDF5_MPI_INFO, or MPI_INFO_NULL */
    FILE *out;                         /* world rank 0: stdout or the -o file; NULL elsewhere */
    FILE *report;                      /* out if --format is text (the text report), else NULL */
    FILE *results;                     /* world rank 0: the --results file, or NULL */
    bool out_created, results_created; /* the -o / --results file is new */
    bool dir_created;                  /* the $USER level of the prefix is new */
    struct cli_warnings warnings;      /* announced by world rank 0 */
    char dir[SETUP_PATH_MAX];          /* directory of the data files, "" = current */
    double (*clock)(void);  /* seconds for every timer (setup_run's choice, or a test's) */
    const char *clock_name; /* "tsc", "MPI_Wtime", or a test's */
    double clock_hz;        /* the counter's rate on this process; 0: not tsc */
    /* setup_check()'s: where a refusal goes (world rank 0) instead of
     * standard error; NULL: printed. */
    struct cli_msg *refusal;
};

/* Collective over MPI_COMM_WORLD. Returns -1 to go on with the run,
 * SETUP_ADVISE for --advise, or the exit status to end with: EXIT_OK after
 * -h (help printed), EXIT_USAGE after a bad input (one line printed by
 * world rank 0). */
int setup_run(struct run *run, int argc, char **argv);

/* setup_run()'s value for --advise: the command line was parsed, the
 * rest is advise_run()'s (advisor/advise.h), which the program calls. */
#define SETUP_ADVISE (-2)

/* Collective over MPI_COMM_WORLD: the checks of setup_run() that depend on
 * the command line alone (parse, defaults, the run plan checked by its
 * pattern and backends, memory, the file-size limit), with nothing
 * printed and no file touched: the advisor's check of a candidate before
 * any race (docs/advisor.md, "Running it"). Returns 0 on every process, or
 * -1 with the refusal's line in m on world rank 0. The session is run's:
 * setup_release() frees it. */
int setup_check(struct run *run, int argc, char **argv, struct cli_msg *m);

/* Frees what setup_run() made and closes the -o and --results files (if
 * run.c has not). Local. */
void setup_release(struct run *run);

#endif
