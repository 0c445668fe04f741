/* map.h: a map's bytes (map_wire.h, made by map_build.c) adopted as a map
 * input: the common part (each process's figures) and the boxes of one
 * process, or of every process, checked before they are trusted, with the
 * figures derived from them. Pure. */
#include <stdlib.h>
#include <string.h>

#include "pattern/map.h"
#include "pattern/map_wire.h"

int64_t map_box_nruns(int ndims, const int64_t *dims, const struct model_box *b)
{
    struct model_storage s = {ndims, {0, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < ndims; i++)
        s.dims[i] = dims[i];
    struct model_runs r;
    return model_box_runs(&s, b, &r) == 0 ? r.count[0] * r.count[1] : 1;
}

const struct model_box *map_boxes(const struct map_input *in, int k, int p)
{
    if (p < in->lo || p >= in->hi)
        return NULL;
    const struct map_decomp *d = &in->d[k];
    return d->boxes + (d->first[p] - d->first[in->lo]);
}

/* What adopt() allocates besides the boxes: per decomposition, first,
 * count and runs of every process. */
static size_t map_figures_bytes(int ndecomps, int nprocs)
{
    return (size_t)ndecomps * (3 * (size_t)nprocs + 1) * sizeof(int64_t);
}

int64_t map_held_bytes(const struct map_input *in, int p)
{
    int64_t boxes = 0;
    for (int k = 0; k < in->ndecomps; k++)
        boxes += in->d[k].first[p + 1] - in->d[k].first[p];
    return (int64_t)sizeof *in + (int64_t)map_figures_bytes(in->ndecomps, in->nprocs) +
           boxes * (int64_t)sizeof(struct model_box);
}

/* The size of the common part of h's bytes (len of them), or 0 where they
 * are not a map's. */
static size_t map_wire_common(const struct map_wire *h, size_t len)
{
    if (memcmp(h->magic, MAP_MAGIC, sizeof h->magic) != 0 || h->nprocs < 1 ||
        h->nprocs > MAP_MAX_PROCS || h->ndecomps < 1 || h->ndecomps > MAP_MAX_DECOMPS)
        return 0;
    size_t procs = (size_t)h->ndecomps * (size_t)h->nprocs * sizeof(struct map_wire_proc);
    if (len < sizeof *h || len - sizeof *h < procs)
        return 0;
    for (int k = 0; k < h->ndecomps; k++) {
        const struct map_wire_decomp *w = &h->d[k];
        if (w->ndims < 1 || w->ndims > MODEL_MAX_DIMS || w->nboxes < 0 ||
            model_product(w->ndims, w->dims) < 1 || w->end < 0 ||
            w->end > model_product(w->ndims, w->dims))
            return 0;
    }
    return sizeof *h + procs;
}

/* The boxes of processes [lo, hi) by the figures of the common part, each
 * decomposition's adding up to its boxes and every figure possible; at
 * most max. Returns their count, or -1. */
static int64_t map_wire_held(const struct map_wire *h, const struct map_wire_proc *procs, int lo,
                             int hi, int64_t max)
{
    int64_t held = 0;
    for (int k = 0; k < h->ndecomps; k++) {
        int64_t sum = 0, elems = model_product(h->d[k].ndims, h->d[k].dims), total = 0;
        for (int p = 0; p < h->nprocs; p++) {
            const struct map_wire_proc *q = &procs[(size_t)k * (size_t)h->nprocs + (size_t)p];
            if (q->nboxes < 0 || q->nboxes > h->d[k].nboxes - sum || q->count < q->nboxes ||
                q->count > elems - total || q->runs < q->nboxes || q->runs > q->count)
                return -1;
            sum += q->nboxes;
            total += q->count;
            if (p >= lo && p < hi) {
                if (q->nboxes > max - held)
                    return -1;
                held += q->nboxes;
            }
        }
        if (sum != h->d[k].nboxes)
            return -1;
    }
    return held;
}

int map_input_parts(const unsigned char *bytes, size_t len, int nprocs, size_t *common,
                    size_t *ends)
{
    struct map_wire h;
    if (len < sizeof h)
        return -1;
    memcpy(&h, bytes, sizeof h);
    size_t c = map_wire_common(&h, len);
    if (c == 0 || nprocs < h.nprocs)
        return -1;
    const struct map_wire_proc *procs = (const struct map_wire_proc *)(bytes + sizeof h);
    int64_t box = (int64_t)sizeof(struct model_box), max = (int64_t)((len - c) / (size_t)box);
    if (map_wire_held(&h, procs, 0, nprocs, max) != max || (len - c) % (size_t)box)
        return -1;
    /* Processes past the map's (a run of fewer processes than started,
     * -p) receive the common part only. */
    size_t at = c;
    for (int p = 0; p < nprocs; p++) {
        for (int k = 0; k < h.ndecomps && p < h.nprocs; k++)
            at += (size_t)procs[(size_t)k * (size_t)h.nprocs + (size_t)p].nboxes * (size_t)box;
        ends[p] = at;
    }
    *common = c;
    return 0;
}

/* The held boxes of d (processes lo to hi - 1) inside its array, with the
 * elements, runs and end the common part gives them. */
static bool map_decomp_sane(const struct map_decomp *d, int lo, int hi, int64_t end)
{
    const struct model_box *b = d->boxes;
    for (int p = lo; p < hi; p++) {
        int64_t count = 0, runs = 0;
        for (int64_t i = d->first[p]; i < d->first[p + 1]; i++, b++) {
            if (b->ndims != d->ndims)
                return false;
            for (int k = 0; k < d->ndims; k++)
                if (b->start[k] < 0 || b->count[k] < 1 || b->start[k] > d->dims[k] - b->count[k])
                    return false;
            count += model_product(d->ndims, b->count);
            runs += map_box_nruns(d->ndims, d->dims, b);
        }
        if (count != d->count[p] || runs != d->runs[p])
            return false;
        if (d->first[p + 1] > d->first[p]) {
            struct model_storage s = {d->ndims, {0, 0, 0}, {0, 0, 0}};
            int64_t last[MODEL_MAX_DIMS] = {0, 0, 0};
            for (int k = 0; k < d->ndims; k++) {
                s.dims[k] = d->dims[k];
                last[k] = b[-1].start[k] + b[-1].count[k] - 1;
            }
            if (model_offset(&s, last) + 1 > end)
                return false;
        }
    }
    return true;
}

/* Decomposition k's figures from the common part into d (its arrays in
 * fig: first, count, runs), and the derived ones. */
static void map_figures(const struct map_wire *h, const struct map_wire_proc *procs, int k,
                        int64_t *fig, struct map_decomp *d)
{
    size_t np = (size_t)h->nprocs;
    int64_t *first = fig, *count = fig + np + 1, *runs = fig + 2 * np + 1;
    memcpy(d->name, h->d[k].name, sizeof d->name);
    d->name[sizeof d->name - 1] = '\0';
    d->ndims = h->d[k].ndims;
    memcpy(d->dims, h->d[k].dims, sizeof d->dims);
    d->elems = model_product(d->ndims, d->dims);
    d->end = h->d[k].end;
    d->total = d->most = 0;
    d->several = d->multi = false;
    first[0] = 0;
    for (size_t p = 0; p < np; p++) {
        const struct map_wire_proc *q = &procs[(size_t)k * np + p];
        first[p + 1] = first[p] + q->nboxes;
        count[p] = q->count;
        runs[p] = q->runs;
        d->total += q->count;
        d->most = q->count > d->most ? q->count : d->most;
        d->multi |= q->nboxes > 1;
        /* More than one run: more than one box, or a box of a few rows. */
        d->several |= q->runs > 1;
    }
    d->first = first;
    d->count = count;
    d->runs = runs;
}

/* Copies the held boxes from the part (process after process, each
 * process's decompositions in turn) to each decomposition's array. */
static void map_place(struct map_input *in, const struct model_box *src, struct model_box *dst)
{
    for (int k = 0; k < in->ndecomps; k++) {
        in->d[k].boxes = dst;
        dst += in->d[k].first[in->hi] - in->d[k].first[in->lo];
    }
    for (int p = in->lo; p < in->hi; p++)
        for (int k = 0; k < in->ndecomps; k++) {
            const struct map_decomp *d = &in->d[k];
            int64_t n = d->first[p + 1] - d->first[p];
            if (n > 0)
                memcpy((struct model_box *)d->boxes + (d->first[p] - d->first[in->lo]), src,
                       (size_t)n * sizeof *src);
            src += n;
        }
}

static int map_broken(const struct config *c, struct map_input *in, struct cli_msg *m)
{
    map_input_release(in);
    return cli_fail(m, "h5perf: %s '%s': internal error: a broken map",
                    map_file_spelled(map_own(c)), map_file_raw(map_own(c)));
}

int map_adopt_part(const struct config *c, int rank, const unsigned char *bytes, size_t len,
                   void **out, struct cli_msg *m)
{
    struct map_wire h;
    *out = NULL;
    if (len < sizeof h)
        return cli_fail(m, "h5perf: %s '%s': internal error: a map of %zu bytes",
                        map_file_spelled(map_own(c)), map_file_raw(map_own(c)), len);
    memcpy(&h, bytes, sizeof h);
    size_t common = map_wire_common(&h, len), box = sizeof(struct model_box);
    /* A process past the map's processes holds no boxes. */
    int lo = rank < 0 ? 0 : rank < h.nprocs ? rank : h.nprocs;
    int hi = rank < 0 ? h.nprocs : rank < h.nprocs ? rank + 1 : h.nprocs;
    const struct map_wire_proc *procs = (const struct map_wire_proc *)(bytes + sizeof h);
    int64_t held = common ? map_wire_held(&h, procs, lo, hi, (int64_t)((len - common) / box)) : -1;
    if (held < 0 || (size_t)held * box != len - common)
        return map_broken(c, NULL, m);
    size_t figs = map_figures_bytes(h.ndecomps, h.nprocs);
    struct map_input *in = calloc(1, sizeof *in);
    unsigned char *store = malloc(figs + (size_t)held * box + 1);
    if (!in || !store) {
        free(in);
        free(store);
        return cli_fail(m, "h5perf: %s '%s': out of memory for the map",
                        map_file_spelled(map_own(c)), map_file_raw(map_own(c)));
    }
    in->storage = store;
    in->nprocs = h.nprocs;
    in->lo = lo;
    in->hi = hi;
    in->ndecomps = h.ndecomps;
    memcpy(in->format, h.format, sizeof in->format);
    in->format[sizeof in->format - 1] = '\0';
    for (int k = 0; k < h.ndecomps; k++)
        map_figures(&h, procs, k, (int64_t *)store + (size_t)k * (3 * (size_t)h.nprocs + 1),
                    &in->d[k]);
    map_place(in, (const struct model_box *)(bytes + common), (struct model_box *)(store + figs));
    for (int k = 0; k < h.ndecomps; k++)
        if (!map_decomp_sane(&in->d[k], lo, hi, h.d[k].end))
            return map_broken(c, in, m);
    *out = in;
    return 0;
}

int map_adopt(const struct config *c, const unsigned char *bytes, size_t len, void **out,
              struct cli_msg *m)
{
    return map_adopt_part(c, -1, bytes, len, out, m);
}

void map_input_release(void *input)
{
    struct map_input *in = input;
    if (!in)
        return;
    free(in->storage);
    free(in);
}
