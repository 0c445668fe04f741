/* What process 0's host names and page-cache check cost at a process count
 * this machine cannot start (docs/scale.md): engine/context.c's own
 * context_distinct() and context_reads_local(), compiled in from its
 * source (they are static), run on a list of P host names as
 * context_hosts() gathers them (n processes per host), for the guide's
 * pattern, timed (elapsed and processor time); one JSON line per count. No
 * MPI call is made.
 * Usage: scale_rank0 [PER_HOST [P ...]] */
#include "engine/context.c"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/config.h"

static double rank0_now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int per_host = argc > 1 ? atoi(argv[1]) : 128;
    static struct config cfg;
    config_init(&cfg);
    struct session s = {.cfg = &cfg, .pattern = pattern_of(&cfg)};
    for (int i = 2; i < argc || i == 2; i++) {
        int p = argc > 2 ? atoi(argv[i]) : 1000;
        if (p < 1 || per_host < 1)
            return 2;
        /* Names as a cluster's: "nid" and five digits, one per line. */
        char *names = malloc((size_t)p * 9 + 1), *at = names;
        if (!names)
            return 1;
        for (int r = 0; r < p; r++)
            at += sprintf(at, "nid%05d\n", r / per_host % 100000);
        /* Indexed as context_hosts() indexes the gathered names. */
        struct context_names h = {.text = names, .n = p};
        h.at = malloc((size_t)p * sizeof *h.at);
        h.len = malloc((size_t)p * sizeof *h.len);
        if (!h.at || !h.len)
            return 1;
        for (int r = 0; r < p; r++) {
            h.at[r] = names + (size_t)r * 9;
            h.len[r] = 8;
        }
        struct run_context ctx = {0};
        double t0 = rank0_now(CLOCK_MONOTONIC), c0 = rank0_now(CLOCK_PROCESS_CPUTIME_ID);
        context_distinct(&ctx, &h);
        bool local = context_reads_local(&s, &h, p);
        double t = rank0_now(CLOCK_MONOTONIC) - t0, c = rank0_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        printf("{\"procs\": %d, \"per_host\": %d, \"local\": %s, \"seconds\": %.6f, "
               "\"cpu_seconds\": %.6f}\n",
               p, per_host, local ? "true" : "false", t, c);
        fflush(stdout);
        free(ctx.host_names);
        context_names_free(&h);
    }
    return 0;
}
