/* The help text as items made from the option table (cli/option.h) and a
 * few paragraphs: what -h prints (help_print) and what the man page
 * h5perf.1 is generated from at build time (src/cli/help_man.c), so the
 * two cannot drift from each other or from the options. No MPI. */
#ifndef H5PERF_HELP_H
#define H5PERF_HELP_H

#include <stdio.h>

#define HELP_USAGE "usage: mpiexec -n N h5perf [options]"

enum help_kind {
    HELP_PARA,    /* a paragraph: lines as printed, '\n'-separated */
    HELP_HEADING, /* "Options:", "Environment:" (a man page section) */
    HELP_OPTION,  /* term "-A, --api=LIST" or "--overwrite"; text its lines */
    HELP_ENV      /* term an environment variable; text its lines */
};

struct help_item {
    enum help_kind kind;
    char term[64];   /* "" for HELP_PARA and HELP_HEADING */
    char text[1024]; /* lines without indentation, '\n'-separated */
};

/* Item i (0-based) in the order printed, after HELP_USAGE, into out.
 * Returns 0, or -1 past the last. */
int help_item_at(int i, struct help_item *out);

/* Exit statuses with their meaning; the last one's code is printed
 * "128+n" (EXIT_SIGNAL_BASE plus the signal number). */
struct help_status {
    int code;
    const char *text;
};
extern const struct help_status help_statuses[];
extern const int help_status_count;

/* Writes the APIs this build includes, each preceded by a blank: " posix
 * mpiio phdf5". */
void help_print_apis(FILE *out);

#endif
