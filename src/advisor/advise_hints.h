/* --advise's check of the search's MPI-IO hints (docs/advisor.md, "Hints
 * honoured"). */
#ifndef H5PERF_ADVISE_HINTS_H
#define H5PERF_ADVISE_HINTS_H

#include "engine/setup.h"
#include "workload/workload.h"

/* The hints left out, by reason, for process 0 to print ("hints left
 * out: KEYS: WHY"). */
struct advise_hints_left {
    int n;
    char keys[3][256];
    const char *why[3];
};

/* Collective: process 0 opens a scratch file in the data directory with
 * the search's hints and a made-up one, reads back what the MPI library
 * kept (MPI_File_get_info), removes the file, and looks at the
 * directory's file system; every process then removes from w's search
 * the hints that cannot act (hint_honoured()). *left gets process 0's
 * reasons. */
void advise_hints_filter(const struct run *run, struct workload *w, struct advise_hints_left *left);

#endif
