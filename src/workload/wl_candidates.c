/* workload_candidates() (workload.h): every combination of the search's
 * values for one data set, in a fixed order (the choices' table order, the
 * first choice slowest), each made into an h5perf run by workload_config();
 * a combination that does not apply to the set (a choice with no effect on
 * its API or data) is left out, so no two candidates are the same run.
 * Pure. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload/wl_internal.h"

/* The most combinations walked (before those that do not apply are left
 * out): a search beyond it is refused rather than walked for minutes. */
#define WL_MAX_COMBINATIONS (INT64_C(1) << 20)

/* The position of the walk over every choice: one index per choice, per
 * MPI-IO component and per hint (a hint's last index: unset). */
struct wl_walk {
    int at[WORKLOAD_DIM_MAX + 1 + WORKLOAD_MAX_HINTS];
    int radix[WORKLOAD_DIM_MAX + 1 + WORKLOAD_MAX_HINTS];
    int n;
};

/* Starts the walk; returns the number of combinations, at most
 * WL_MAX_COMBINATIONS + 1. */
static int64_t wl_walk_init(struct wl_walk *k, const struct workload_search *s)
{
    int64_t product = 1;
    memset(k, 0, sizeof *k);
    for (int d = 0; d < workload_dim_count(); d++)
        k->radix[k->n++] = s->dim[d].n;
    k->radix[k->n++] = s->ncomponents ? s->ncomponents : 1;
    for (int h = 0; h < s->nhints; h++)
        k->radix[k->n++] = s->hints[h].n + 1;
    for (int i = 0; i < k->n && product <= WL_MAX_COMBINATIONS; i++)
        product *= k->radix[i];
    return product <= WL_MAX_COMBINATIONS ? product : WL_MAX_COMBINATIONS + 1;
}

/* The next position; false after the last. */
static bool wl_walk_next(struct wl_walk *k)
{
    for (int i = k->n - 1; i >= 0; i--) {
        if (++k->at[i] < k->radix[i])
            return true;
        k->at[i] = 0;
    }
    return false;
}

/* The choice at position k. */
static void wl_walk_choice(const struct wl_walk *k, const struct workload_search *s,
                           struct workload_choice *c)
{
    memset(c, 0, sizeof *c);
    int i = 0;
    for (int d = 0; d < workload_dim_count(); d++, i++)
        c->v[d] = s->dim[d].v[k->at[i]];
    c->mpiio_component = s->ncomponents ? s->components[k->at[i]] : NULL;
    i++;
    for (int h = 0; h < s->nhints; h++, i++)
        if (k->at[i] < s->hints[h].n)
            c->hints[c->nhints++] =
                (struct workload_hint){s->hints[h].key, s->hints[h].values[k->at[i]]};
}

int workload_candidates(const struct workload *w, int set, int world_size, int max,
                        struct workload_config *out, int *count, struct cli_msg *msg)
{
    struct wl_walk k;
    struct workload_choice c;
    struct cli_msg skip;
    int n = 0;
    *count = 0;
    if (wl_walk_init(&k, &w->search) > WL_MAX_COMBINATIONS)
        return cli_fail(msg,
                        "h5perf: workload '%s', line %d, %s: its search combines more than %lld "
                        "values; narrow search (docs/advisor.md)",
                        w->path, w->sets[set].line, w->sets[set].key,
                        (long long)WL_MAX_COMBINATIONS);
    do {
        wl_walk_choice(&k, &w->search, &c);
        /* Cheap first: whether the choice applies at all. */
        struct workload_config *slot = out && n < max ? &out[n] : NULL;
        struct workload_config spare;
        int rc = workload_config(w, set, &c, world_size, slot ? slot : &spare, &skip);
        if (rc < 0) {
            *msg = skip;
            return -1;
        }
        if (rc == 0)
            n++;
    } while (n <= max && wl_walk_next(&k));
    *count = n;
    if (n > max)
        return cli_fail(msg,
                        "h5perf: workload '%s', line %d, %s: its search has more than %d "
                        "candidates; narrow search (docs/advisor.md)",
                        w->path, w->sets[set].line, w->sets[set].key, max);
    return 0;
}
