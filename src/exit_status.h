/* Exit statuses of h5perf, defined once (docs/original.md §0).
 * Tests check these exact values; never exit with another literal. */
#ifndef H5PERF_EXIT_STATUS_H
#define H5PERF_EXIT_STATUS_H

enum exit_status {
    EXIT_OK = 0,           /* every run succeeded */
    EXIT_RUN_FAILED = 1,   /* an I/O error or a verification mismatch */
    EXIT_USAGE = 2,        /* bad usage, input or environment, before any data file existed */
    EXIT_SIGNAL_BASE = 128 /* + signal number, after removing our files */
};

#endif
