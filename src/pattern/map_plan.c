/* map.h: the plan of one process of the map pattern (docs/map.md). Each
 * decomposition k has map_vars_of(k) variables, named "Dk_vj"; a process
 * moves its whole selection of a variable in one call (or in calls of at
 * most --transfer-size bytes, in its C order), as the boxes of its map
 * (the slabs HDF5 unites and PnetCDF's varn moves) and their rows (the
 * runs of an MPI-IO view, a pwrite each for POSIX). Shared: each variable
 * an array in C order, one after another in flat files. fpp: each variable
 * the process's elements, in their order, as a 1D array. Variable v of
 * the file holds (i + v * N) mod 2^(8 * elem) at element i of its array (N
 * its elements), in elem little-endian bytes, as the block pattern's.
 * Pure. */
#include <stdlib.h>
#include <string.h>

#include "pattern/map.h"

/* What the plan computes once per decomposition for this process: its
 * boxes cut at the calls' bounds, their slabs, and each variable's runs. */
struct map_pdecomp {
    int64_t n;       /* this process's elements */
    int64_t nsteps;  /* calls per variable, every process's */
    int64_t own;     /* calls that move some of this process's elements */
    int64_t npieces; /* boxes after the cuts */
    struct model_box *boxes;
    struct model_slab *slabs;
    int64_t *step_first;     /* [own + 1]: call k moves pieces [step_first[k], step_first[k + 1]) */
    struct model_runs *runs; /* [vars * npieces]: variable j's from j * npieces (shared) */
};

struct map_state {
    const struct map_input *in;
    int rank, layout, elem, nvars;
    int64_t per; /* elements per call; 0: a process's whole selection */
    int vars[MAP_MAX_DECOMPS];
    struct map_pdecomp *pd; /* [ndecomps] */
};

static const struct map_state *map_state_of(const struct plan *p)
{
    return (const struct map_state *)p->state.bytes;
}

int64_t map_nsteps(const struct map_decomp *d, int elem, int64_t xfer)
{
    int64_t per = xfer > 0 ? xfer / elem : 0;
    if (per <= 0 || d->most <= per)
        return 1;
    return d->most / per + (d->most % per != 0);
}

/* The decomposition of variable v and its number j there. */
static int map_var_decomp(const struct map_state *st, int v, int *j)
{
    int k = 0;
    while (k + 1 < st->in->ndecomps && v >= st->vars[k]) {
        v -= st->vars[k];
        k++;
    }
    *j = v;
    return k;
}

/* A variable's elements in its file: the array (shared), or the process's
 * own (fpp). */
static int64_t map_var_elems(const struct map_state *st, int k)
{
    return st->layout == LAYOUT_FPP ? st->pd[k].n : st->in->d[k].elems;
}

/* The first byte of variable v in a flat file. */
static int64_t map_base(const struct map_state *st, int v)
{
    int64_t at = 0;
    for (int k = 0; k < st->in->ndecomps && v > 0; k++) {
        int n = v < st->vars[k] ? v : st->vars[k];
        at += (int64_t)n * map_var_elems(st, k) * st->elem;
        v -= n;
    }
    return at;
}

/* Cuts the process's boxes of d at every per elements (per 0: none) into
 * pd->boxes (NULL: count only). Returns the pieces. */
static int64_t map_cut(const struct map_decomp *d, const struct model_box *boxes, int rank,
                       int64_t per, struct map_pdecomp *pd, bool fill)
{
    int64_t m = 0, done = 0, k = 0;
    for (int64_t i = 0; i < d->first[rank + 1] - d->first[rank]; i++) {
        const struct model_box *b = &boxes[i];
        int64_t n = model_product(b->ndims, b->count);
        for (int64_t at = 0; at < n;) {
            int64_t room = per > 0 ? per - done % per : n - at;
            int64_t take = room < n - at ? room : n - at;
            if (fill && per > 0 && done % per == 0)
                pd->step_first[k++] = m;
            struct model_box out[MODEL_RANGE_BOXES];
            int nb = model_box_range(b, at, take, out);
            for (int j = 0; fill && j < nb; j++)
                pd->boxes[m + j] = out[j];
            m += nb;
            at += take;
            done += take;
        }
    }
    if (fill && per <= 0)
        pd->step_first[k++] = 0;
    if (fill)
        pd->step_first[k] = m;
    return m;
}

/* The runs of box b of decomposition d in variable v's array, stored in C
 * order from base. */
static struct model_runs map_box_runs(const struct map_decomp *d, const struct model_box *b,
                                      int64_t base, int elem)
{
    struct model_storage s = {d->ndims, {0, 0, 0}, {0, 0, 0}};
    struct model_runs r;
    for (int i = 0; i < d->ndims; i++)
        s.dims[i] = d->dims[i];
    model_box_runs(&s, b, &r);
    return (struct model_runs){.disp = base + r.disp * elem,
                               .len = r.len * elem,
                               .count = {r.count[0], r.count[1]},
                               .stride = {r.stride[0] * elem, r.stride[1] * elem}};
}

/* Decomposition k's part of the plan; the runs need every variable's base
 * (map_base), so they come after every decomposition's n. */
static int map_pdecomp(struct map_state *st, int k)
{
    const struct map_decomp *d = &st->in->d[k];
    struct map_pdecomp *pd = &st->pd[k];
    pd->n = d->count[st->rank];
    pd->nsteps = map_nsteps(d, st->elem, st->per * st->elem);
    pd->own = pd->n == 0 ? 0 : st->per > 0 ? pd->n / st->per + (pd->n % st->per != 0) : 1;
    if (st->vars[k] == 0 || pd->n == 0)
        return 0;
    const struct model_box *boxes = map_boxes(st->in, k, st->rank);
    if (!boxes)
        return -1;
    pd->npieces = map_cut(d, boxes, st->rank, st->per, pd, false);
    pd->boxes = malloc((size_t)pd->npieces * sizeof *pd->boxes);
    pd->step_first = malloc(((size_t)pd->own + 1) * sizeof *pd->step_first);
    if (!pd->boxes || !pd->step_first)
        return -1;
    map_cut(d, boxes, st->rank, st->per, pd, true);
    if (st->layout == LAYOUT_FPP)
        return 0;
    pd->slabs = malloc((size_t)pd->npieces * sizeof *pd->slabs);
    pd->runs = malloc((size_t)pd->npieces * (size_t)st->vars[k] * sizeof *pd->runs);
    if (!pd->slabs || !pd->runs)
        return -1;
    for (int64_t i = 0; i < pd->npieces; i++)
        model_slab_of_box(&pd->boxes[i], &pd->slabs[i]);
    return 0;
}

static void map_fill_runs(struct map_state *st)
{
    for (int v = 0, j = 0; v < st->nvars; v++) {
        int k = map_var_decomp(st, v, &j);
        struct map_pdecomp *pd = &st->pd[k];
        int64_t base = map_base(st, v);
        for (int64_t i = 0; pd->runs && i < pd->npieces; i++)
            pd->runs[(size_t)j * (size_t)pd->npieces + (size_t)i] =
                map_box_runs(&st->in->d[k], &pd->boxes[i], base, st->elem);
    }
}

void map_plan_release(struct plan *p)
{
    const struct map_state *st = map_state_of(p);
    for (int k = 0; st->pd && k < st->in->ndecomps; k++) {
        free(st->pd[k].boxes);
        free(st->pd[k].slabs);
        free(st->pd[k].step_first);
        free(st->pd[k].runs);
    }
    free(st->pd);
}

/* --- the plan functions ------------------------------------------------- */

static void map_var(const struct plan *p, int v, struct plan_var *out)
{
    const struct map_state *st = map_state_of(p);
    int j = 0, k = map_var_decomp(st, v, &j);
    const struct map_decomp *d = &st->in->d[k];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s_v%d", d->name, j);
    out->kind = PLAN_UNSIGNED;
    out->elem = st->elem;
    out->ndims = st->layout == LAYOUT_FPP ? 1 : d->ndims;
    for (int i = 0; i < out->ndims; i++)
        out->dims[i] = st->layout == LAYOUT_FPP ? st->pd[k].n : d->dims[i];
    out->library_fill = false;
}

/* An empty call of variable v, where this process's data would start. */
static void map_empty(const struct map_state *st, int v, int ndims, struct model_slab *sl,
                      struct model_runs *r, int64_t at)
{
    memset(sl, 0, sizeof *sl);
    sl->ndims = ndims;
    for (int i = 0; i < ndims; i++)
        sl->stride[i] = sl->count[i] = 1;
    *r = plan_run(map_base(st, v) + at * st->elem, 0);
}

static void map_access(const struct plan *p, int phase, int v, struct plan_access *out)
{
    const struct map_state *st = map_state_of(p);
    int j = 0, k = map_var_decomp(st, v, &j);
    const struct map_pdecomp *pd = &st->pd[k];
    const struct map_decomp *d = &st->in->d[k];
    (void)phase;
    memset(out, 0, sizeof *out);
    out->nsteps = pd->nsteps;
    out->array_base = st->layout == LAYOUT_FPP ? -1 : map_base(st, v);
    out->view_any = st->layout != LAYOUT_FPP && d->several;
    /* Several boxes somewhere, or boxes cut into a few by --transfer-size. */
    out->slabs_any = st->layout != LAYOUT_FPP && (d->multi || (st->per > 0 && d->ndims > 1));
    if (st->layout == LAYOUT_FPP || pd->n == 0) {
        out->nwhole = out->nwhole_runs = 1;
        map_empty(st, v, st->layout == LAYOUT_FPP ? 1 : d->ndims, &out->whole_local_slabs[0],
                  &out->whole_local_runs[0], 0);
        out->whole_local_slabs[0].block[0] = st->layout == LAYOUT_FPP ? pd->n : 0;
        out->whole_local_runs[0].len = st->layout == LAYOUT_FPP ? pd->n * st->elem : 0;
        return;
    }
    out->nwhole = out->nwhole_runs = (int)pd->npieces;
    out->whole_slabs = pd->slabs;
    out->whole_runs = pd->runs + (size_t)j * (size_t)pd->npieces;
}

static void map_step(const struct plan *p, int phase, int v, int64_t k, struct plan_step *out)
{
    const struct map_state *st = map_state_of(p);
    int j = 0, dk = map_var_decomp(st, v, &j);
    const struct map_pdecomp *pd = &st->pd[dk];
    const struct map_decomp *d = &st->in->d[dk];
    int64_t per = st->per > 0 ? st->per : pd->n;
    int64_t first = k * per, n = k < pd->own ? (pd->n - first < per ? pd->n - first : per) : 0;
    plan_step_empty(out, p->phases[phase].write, v, k);
    out->nslabs = out->nruns = 1;
    out->mem_off = (k < pd->own ? first : pd->n) * st->elem;
    out->bytes = n * st->elem;
    if (n == 0) {
        map_empty(st, v, st->layout == LAYOUT_FPP ? 1 : d->ndims, &out->local_slabs[0],
                  &out->local_runs[0], st->layout == LAYOUT_FPP ? pd->n : 0);
        return;
    }
    if (st->layout == LAYOUT_FPP) {
        out->local_slabs[0] = (struct model_slab){
            .ndims = 1, .start = {first}, .stride = {1}, .count = {1}, .block = {n}};
        out->local_runs[0] = plan_run(map_base(st, v) + first * st->elem, n * st->elem);
        return;
    }
    int64_t lo = pd->step_first[k], hi = pd->step_first[k + 1];
    out->nslabs = out->nruns = (int)(hi - lo);
    out->slabs = pd->slabs + lo;
    out->runs = pd->runs + (size_t)j * (size_t)pd->npieces + (size_t)lo;
}

/* Writes (fill) or compares the values of the boxes [lo, hi) of the
 * process's pieces of variable v, from buf on. Returns the mismatches,
 * the first's offset, expected and found byte. */
struct map_walk {
    unsigned char *out;
    const unsigned char *in;
    bool poison;
    int64_t bad, bad_off;
    unsigned char expected, found;
};

static void map_walk(const struct map_state *st, int v, int k, int64_t lo, int64_t hi,
                     struct map_walk *w)
{
    const struct map_decomp *d = &st->in->d[k];
    const struct map_pdecomp *pd = &st->pd[k];
    uint64_t base = (uint64_t)v * (uint64_t)d->elems;
    int64_t off = 0;
    for (int64_t i = lo; i < hi; i++) {
        const struct model_box *b = &pd->boxes[i];
        int64_t dims[3] = {1, 1, 1}, s[3] = {0, 0, 0}, c[3] = {1, 1, 1};
        int lead = 3 - d->ndims;
        for (int q = 0; q < d->ndims; q++) {
            dims[lead + q] = d->dims[q];
            s[lead + q] = b->start[q];
            c[lead + q] = b->count[q];
        }
        for (int64_t z = 0; z < c[0]; z++)
            for (int64_t y = 0; y < c[1]; y++) {
                int64_t e0 = ((s[0] + z) * dims[1] + s[1] + y) * dims[2] + s[2];
                for (int64_t x = 0; x < c[2]; x++, off += st->elem) {
                    uint64_t value = base + (uint64_t)(e0 + x);
                    for (int q = 0; q < st->elem; q++, value >>= 8) {
                        unsigned char want = (unsigned char)value;
                        if (w->out) {
                            w->out[off + q] = w->poison ? (unsigned char)~want : want;
                        } else if (w->in[off + q] != want && w->bad++ == 0) {
                            w->bad_off = off + q;
                            w->expected = want;
                            w->found = w->in[off + q];
                        }
                    }
                }
            }
    }
}

static void map_fill(const struct plan *p, int phase, int v, unsigned char *buf, bool poison)
{
    const struct map_state *st = map_state_of(p);
    int j = 0, k = map_var_decomp(st, v, &j);
    struct map_walk w = {.out = buf, .poison = poison};
    (void)phase;
    map_walk(st, v, k, 0, st->pd[k].npieces, &w);
}

static int64_t map_verify(const struct plan *p, int phase, const struct plan_step *s,
                          const unsigned char *buf, int64_t *bad_off, unsigned char *expected,
                          unsigned char *found)
{
    const struct map_state *st = map_state_of(p);
    int j = 0, k = map_var_decomp(st, s->var, &j);
    const struct map_pdecomp *pd = &st->pd[k];
    struct map_walk w = {.in = buf + s->mem_off};
    (void)phase;
    if (s->index < pd->own)
        map_walk(st, s->var, k, pd->step_first[s->index], pd->step_first[s->index + 1], &w);
    *bad_off = w.bad_off;
    *expected = w.expected;
    *found = w.found;
    return w.bad;
}

static const struct plan_ops map_ops = {
    .var = map_var,
    .access = map_access,
    .step = map_step,
    .fill = map_fill,
    .verify = map_verify,
};

int map_plan(const struct config *c, const struct run_point *pt, int rank, int it, struct plan *out)
{
    _Static_assert(sizeof(struct map_state) <= PLAN_STATE_BYTES, "map_state fits in a plan");
    const struct map_input *in = pt->input;
    memset(out, 0, sizeof *out);
    struct map_state *st = (struct map_state *)out->state.bytes;
    st->in = in;
    st->rank = rank;
    st->layout = pt->layout;
    st->elem = c->elem;
    st->per = c->transfer_size / c->elem;
    for (int k = 0; k < in->ndecomps; k++) {
        st->vars[k] = map_vars_of(c, k);
        st->nvars += st->vars[k];
    }
    st->pd = calloc((size_t)in->ndecomps, sizeof *st->pd);
    int rc = st->pd ? 0 : -1;
    for (int k = 0; rc == 0 && k < in->ndecomps; k++)
        rc = map_pdecomp(st, k);
    if (rc < 0) {
        map_plan_release(out);
        return -1;
    }
    map_fill_runs(st);
    out->ops = &map_ops;
    out->nprocs = pt->nprocs;
    out->exec_rank = out->data_rank = rank;
    out->iteration = it;
    out->nfiles = 1;
    out->per_process = pt->layout == LAYOUT_FPP;
    out->nvars = st->nvars;
    out->nphases = 2;
    out->phases[0] = (struct plan_phase){"write", true, 0};
    out->phases[1] = (struct plan_phase){"read", false, 1};
    for (int k = 0; k < in->ndecomps; k++)
        if (st->vars[k] > 0 && st->pd[k].n * st->elem > out->buffer_bytes)
            out->buffer_bytes = st->pd[k].n * st->elem;
    out->fill_per_var = true;
    /* A shared file's data ends at the last element written of its last
     * variable. */
    int last = 0;
    for (int k = 0; k < in->ndecomps; k++)
        last = st->vars[k] > 0 ? k : last;
    if (st->layout != LAYOUT_FPP)
        out->unwritten_tail = (in->d[last].elems - in->d[last].end) * st->elem;
    out->flat_bytes = map_base(st, st->nvars) - out->unwritten_tail;
    out->exact_source = true;
    return 0;
}
