/* The results model: per iteration, each timer's min/max/sum over processes,
 * and the statistics over iterations of SPEC 6.2. Pure: no MPI, no I/O, no
 * formatting (the writers in this directory format what it holds). */
#include "report/results.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BYTES_PER_MB 1048576.0

int results_init(struct api_result *r, enum api_id api, int nprocs, int64_t xfer, int64_t bytes,
                 int max_iterations)
{
    memset(r, 0, sizeof(*r));
    if (max_iterations <= 0)
        return -1;
    r->it = calloc((size_t)max_iterations, sizeof(*r->it));
    if (!r->it)
        return -1;
    r->api = api;
    r->nprocs = nprocs;
    r->xfer = xfer;
    r->bytes = bytes;
    r->max_iterations = max_iterations;
    return 0;
}

void results_release(struct api_result *r)
{
    free(r->it);
    memset(r, 0, sizeof(*r));
}

/* The next iteration's slot, zeroed with status RUN_OK; NULL when all
 * max_iterations have been used. */
struct iter_result *results_next_iteration(struct api_result *r)
{
    struct iter_result *it;

    if (!r->it || r->iterations >= r->max_iterations)
        return NULL;
    it = &r->it[r->iterations++];
    memset(it, 0, sizeof(*it));
    it->status = RUN_OK;
    return it;
}

/* MB/s of `bytes` moved in t seconds; 0 when t is too small to divide by,
 * as the original's MB_PER_SEC. */
static double mb_per_sec(int64_t bytes, double t)
{
    if (fabs(t) < DBL_EPSILON)
        return 0.0;
    return ((double)bytes / BYTES_PER_MB) / t;
}

void results_summarize(const struct api_result *r, enum timer_id t, struct timer_summary *s)
{
    double sum = 0.0;

    memset(s, 0, sizeof(*s));
    if (r->iterations <= 0 || (int)t < 0 || t >= TIMER_COUNT)
        return;
    /* Only the slowest process of each iteration counts (SPEC 6.2). */
    s->t_min = s->t_max = r->it[0].t[t].max;
    for (int i = 0; i < r->iterations; i++) {
        double ti = r->it[i].t[t].max;

        if (ti < s->t_min)
            s->t_min = ti;
        if (ti > s->t_max)
            s->t_max = ti;
        sum += ti;
    }
    /* The average throughput is that of the mean time, not the mean of the
     * throughputs. */
    s->t_avg = sum / r->iterations;
    s->mbs_max = mb_per_sec(r->bytes, s->t_min);
    s->mbs_avg = mb_per_sec(r->bytes, s->t_avg);
    s->mbs_min = mb_per_sec(r->bytes, s->t_max);
}

/* An I/O error outranks a verification failure: after it nothing stands. */
static int status_severity(enum run_status st)
{
    switch (st) {
    case RUN_OK:
        return 0;
    case RUN_VERIFY_FAILED:
        return 1;
    case RUN_IO_ERROR:
        return 2;
    }
    return 2;
}

enum run_status results_status(const struct api_result *r)
{
    enum run_status worst = RUN_OK;

    for (int i = 0; i < r->iterations; i++)
        if (status_severity(r->it[i].status) > status_severity(worst))
            worst = r->it[i].status;
    return worst;
}
