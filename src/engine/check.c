/* The backends' checks of every run point, before any file exists
 * (docs/design.md: validation knows the API table's limits, a backend what
 * only it knows, over all processes' measures). */
#include "engine/check.h"

#include <inttypes.h>
#include <stdio.h>

struct backend_settings engine_settings(const struct config *c, const struct run_point *p)
{
    return (struct backend_settings){
        .collective = c->collective,
        .fsync = c->fsync,
        .direct = c->direct,
        .align = c->align,
        .threshold = c->threshold,
        .variant = p->variant,
        .api_settings = c->api[p->api].own.bytes,
    };
}

int engine_check(const struct session *s, int rank, struct cli_msg *m)
{
    const struct config *c = s->cfg;
    for (int i = 0; i < s->npoints; i++) {
        const struct session_point *sp = &s->points[i];
        const struct backend_ops *ops = backend_get(sp->p.api);
        struct plan plan;
        char why[256];
        /* This process's own plan where it is in the point: a pattern's
         * input may hold its own part only (pattern.h, input_parts). */
        int of = rank < sp->p.nprocs ? rank : 0;
        if (!ops || s->pattern->plan(c, &sp->p, of, 0, &plan) < 0)
            continue;
        struct backend_settings set = engine_settings(c, &sp->p);
        int rc = ops->check(&set, &plan, &sp->m, why, sizeof why);
        /* One plan at a time: a map's holds its boxes, slabs and runs. */
        if (s->pattern->plan_release)
            s->pattern->plan_release(&plan);
        if (rc == 0)
            continue;
        const struct api_desc *api = ops->desc;
        return cli_fail(m, "h5perf: %s: %s: %s, or leave %s out of -A",
                        rc == BACKEND_REFUSED_CHUNKS ? sp->chunk_lead : sp->lead, api->err_name,
                        why, api->key);
    }
    return 0;
}

double engine_least_seconds(const struct session *s, const struct session_point **most)
{
    const struct config *c = s->cfg;
    int phases = (c->read_only ? 0 : 1) + (c->write_only ? 0 : 1);
    double runs = 0;
    *most = NULL;
    for (int i = 0; i < s->npoints; i++) {
        const struct session_point *sp = &s->points[i];
        runs += (double)sp->m.phase_runs * phases * c->iterations;
        if (!*most || sp->m.phase_runs > (*most)->m.phase_runs)
            *most = sp;
    }
    return runs * ENGINE_RUN_SECONDS;
}

void engine_warn_slow(const struct session *s, struct cli_warnings *w)
{
    const struct session_point *most;
    double seconds = engine_least_seconds(s, &most);
    if (!most || seconds < ENGINE_SLOW_SECONDS)
        return;
    bool hours = seconds >= 3600.0;
    cli_warn(w,
             "%s: each process moves its data in %.0f contiguous runs (%" PRId64
             " per phase here); at 1 us per run at the least, this run takes more than %.*f %s",
             most->lead, seconds / ENGINE_RUN_SECONDS, most->m.phase_runs, hours ? 1 : 0,
             hours ? seconds / 3600.0 : seconds / 60.0, hours ? "hours" : "minutes");
}
