/* The run a library's overhead ratio is over (reference.h; docs/mpiio.md,
 * "Like with like"). */
#include "report/reference.h"

#include <math.h>

#include "api/api.h"

int reference_variant(int a, int v, bool (*ran)(int k, const void *arg), const void *arg)
{
    int ref = api_reference();
    const struct api_variant *var = api_variant((enum api_id)a, v);
    for (int k = 1; var && var->joins_vars && api_variant((enum api_id)ref, k); k++)
        if (api_variant((enum api_id)ref, k)->joins_vars && ran(k, arg))
            return k;
    return 0;
}

/* A run of the reference API at r's point, of variant k, in the log. */
struct reference_query {
    const struct results_log *log;
    const struct api_result *r;
};

static const struct api_result *reference_find(const struct reference_query *q, int k)
{
    const struct api_result *r = q->r;
    for (int i = 0; i < q->log->count; i++) {
        const struct api_result *x = &q->log->runs[i];
        if ((int)x->api == api_reference() && x->variant == k && x->nprocs == r->nprocs &&
            x->xfer == r->xfer && x->layout == r->layout && x->align == r->align &&
            x->shift == r->shift && x->buf_offset == r->buf_offset)
            return x;
    }
    return NULL;
}

static bool reference_ran(int k, const void *arg)
{
    return reference_find(arg, k) != NULL;
}

const struct api_result *reference_run(const struct results_log *log, const struct api_result *r)
{
    if ((int)r->api == api_reference() || r->layout < 0)
        return NULL;
    struct reference_query q = {log, r};
    return reference_find(&q, reference_variant((int)r->api, r->variant, reference_ran, &q));
}

double reference_figure(const struct api_result *r, enum timer_id t)
{
    struct timer_summary s;
    if (!r || results_measure_summary(r, t, &s) == 0)
        return NAN;
    return s.n >= 3 ? s.mbs_med : s.mbs_avg;
}
