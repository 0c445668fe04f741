/* plan.h: the readers' helpers over steps' runs. Pure. */
#include "plan/plan.h"

#include <stdio.h>
#include <string.h>

const char *plan_kind_text(enum plan_kind kind, int elem)
{
    if (kind == PLAN_FLOAT)
        return "32-bit little-endian floats";
    if (kind == PLAN_SIGNED)
        return "32-bit little-endian integers";
    switch (elem) {
    case 1:
        return "1-byte unsigned little-endian integers";
    case 2:
        return "2-byte unsigned little-endian integers";
    case 4:
        return "4-byte unsigned little-endian integers";
    default:
        return "8-byte unsigned little-endian integers";
    }
}

const char *plan_var_leaf(const struct plan_var *var)
{
    const char *slash = strrchr(var->name, '/');
    return slash ? slash + 1 : var->name;
}

void plan_var_dims_text(const struct plan_var *var, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < var->ndims && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "x" : "",
                                 (long long)var->dims[i]);
}

static int64_t runs_count(const struct model_runs *r)
{
    return r->len > 0 ? r->count[0] * r->count[1] : 0;
}

int64_t plan_step_runs(const struct plan_step *s)
{
    const struct model_runs *r = plan_runs(s);
    int64_t n = 0;
    for (int i = 0; i < s->nruns; i++)
        n += runs_count(&r[i]);
    return n;
}

void plan_step_run(const struct plan_step *s, int64_t i, int64_t *off, int64_t *len)
{
    const struct model_runs *all = plan_runs(s);
    for (int k = 0; k < s->nruns; k++) {
        const struct model_runs *r = &all[k];
        int64_t n = runs_count(r);
        if (i >= n) {
            i -= n;
            continue;
        }
        *off = r->disp + i / r->count[1] * r->stride[0] + i % r->count[1] * r->stride[1];
        *len = r->len;
        return;
    }
    *off = *len = -1;
}

int64_t plan_step_file_offset(const struct plan_step *s, int64_t mem)
{
    const struct model_runs *all = plan_runs(s);
    for (int k = 0; k < s->nruns; k++) {
        const struct model_runs *r = &all[k];
        int64_t bytes = runs_count(r) * r->len;
        if (mem >= bytes) {
            mem -= bytes;
            continue;
        }
        int64_t i = mem / r->len;
        return r->disp + i / r->count[1] * r->stride[0] + i % r->count[1] * r->stride[1] +
               mem % r->len;
    }
    return -1;
}

void plan_step_empty(struct plan_step *s, bool write, int v, int64_t k)
{
    memset(s, 0, offsetof(struct plan_step, local_slabs));
    s->kind = PLAN_STEP_IO;
    s->write = write;
    s->var = v;
    s->index = k;
}

struct model_runs plan_run(int64_t disp, int64_t len)
{
    return (struct model_runs){.disp = disp, .len = len, .count = {1, 1}, .stride = {0, 0}};
}

/* The steps of variable v within x. */
static int64_t plan_extent_steps(const struct plan *p, int phase, int v,
                                 const struct plan_extent *x)
{
    struct plan_access acc;
    plan_access(p, phase, v, &acc);
    if (x && x->nvars >= 0 && v == x->nvars - 1 && x->last_steps < acc.nsteps)
        return x->last_steps;
    return acc.nsteps;
}

static int plan_extent_vars(const struct plan *p, const struct plan_extent *x)
{
    return x && x->nvars >= 0 && x->nvars < p->nvars ? x->nvars : p->nvars;
}

int64_t plan_calls_bytes(const struct plan *p, int phase, const struct plan_extent *x, int64_t n)
{
    int64_t bytes = 0, calls = 0;
    struct plan_step s;
    for (int v = 0; v < plan_extent_vars(p, x); v++) {
        int64_t steps = plan_extent_steps(p, phase, v, x);
        for (int64_t k = 0; k < steps && calls < n; k++) {
            plan_step(p, phase, v, k, &s);
            if (s.kind != PLAN_STEP_IO)
                continue;
            bytes += s.bytes;
            calls++;
        }
    }
    return bytes;
}

int64_t plan_flat_end(const struct plan *p, int phase, const struct plan_extent *x)
{
    int64_t end = 0;
    struct plan_step s;
    for (int v = 0; v < plan_extent_vars(p, x); v++) {
        int64_t steps = plan_extent_steps(p, phase, v, x);
        for (int64_t k = 0; k < steps; k++) {
            plan_step(p, phase, v, k, &s);
            if (s.kind != PLAN_STEP_IO)
                continue;
            int64_t runs = plan_step_runs(&s);
            for (int64_t i = 0; i < runs; i++) {
                int64_t off, len;
                plan_step_run(&s, i, &off, &len);
                if (len > 0 && off + len > end)
                    end = off + len;
            }
        }
    }
    return end;
}
