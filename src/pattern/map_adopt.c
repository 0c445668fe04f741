/* map.h: the bytes every process keeps (map_wire.h, made by
 * map_build.c) adopted as a map input, checked before they are trusted,
 * with the figures derived from them. Pure. */
#include <stdlib.h>
#include <string.h>

#include "pattern/map.h"
#include "pattern/map_wire.h"

/* The derived figures of a decomposition: elements per process, the
 * total, the most, whether any selection is more than one run. */
static void map_derive(struct map_input *in, struct map_decomp *d, int64_t *count)
{
    struct model_storage s = {d->ndims, {0, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < d->ndims; i++)
        s.dims[i] = d->dims[i];
    d->total = d->most = d->end = 0;
    d->several = d->multi = false;
    for (int p = 0; p < in->nprocs; p++) {
        count[p] = 0;
        for (int64_t i = d->first[p]; i < d->first[p + 1]; i++)
            count[p] += model_product(d->ndims, d->boxes[i].count);
        d->total += count[p];
        d->most = count[p] > d->most ? count[p] : d->most;
        struct model_runs r;
        int64_t n = d->first[p + 1] - d->first[p];
        d->multi |= n > 1;
        if (n > 0) {
            const struct model_box *b = &d->boxes[d->first[p + 1] - 1];
            int64_t last[MODEL_MAX_DIMS] = {0, 0, 0};
            for (int i = 0; i < d->ndims; i++)
                last[i] = b->start[i] + b->count[i] - 1;
            int64_t end = model_offset(&s, last) + 1;
            d->end = end > d->end ? end : d->end;
        }
        d->several |= n > 1 || (n == 1 && model_box_runs(&s, &d->boxes[d->first[p]], &r) == 0 &&
                                (r.count[0] > 1 || r.count[1] > 1));
    }
    d->count = count;
}

/* The structure of the bytes: sizes that add up, boxes inside their
 * arrays, processes' boxes in order. Returns the arrays' size, or 0. */
static size_t map_wire_check(const struct map_wire *h, size_t len)
{
    if (memcmp(h->magic, MAP_MAGIC, sizeof h->magic) != 0 || h->nprocs < 1 ||
        h->nprocs > MAP_MAX_PROCS || h->ndecomps < 1 || h->ndecomps > MAP_MAX_DECOMPS)
        return 0;
    size_t need = 0, left = len - sizeof *h;
    for (int k = 0; k < h->ndecomps; k++) {
        const struct map_wire_decomp *w = &h->d[k];
        if (w->ndims < 1 || w->ndims > MODEL_MAX_DIMS || w->nboxes < 0 ||
            model_product(w->ndims, w->dims) < 1 ||
            (uint64_t)w->nboxes > left / sizeof(struct model_box))
            return 0;
        need += ((size_t)h->nprocs + 1) * sizeof(int64_t) +
                (size_t)w->nboxes * sizeof(struct model_box);
        if (need > left)
            return 0;
    }
    return need == left ? need : 0;
}

static bool map_decomp_sane(const struct map_decomp *d, int nprocs, int64_t nboxes)
{
    if (d->first[0] != 0 || d->first[nprocs] != nboxes)
        return false;
    for (int p = 0; p < nprocs; p++)
        if (d->first[p + 1] < d->first[p])
            return false;
    for (int64_t i = 0; i < nboxes; i++) {
        const struct model_box *b = &d->boxes[i];
        if (b->ndims != d->ndims)
            return false;
        for (int k = 0; k < d->ndims; k++)
            if (b->start[k] < 0 || b->count[k] < 1 || b->start[k] > d->dims[k] - b->count[k])
                return false;
    }
    return true;
}

int map_adopt(const struct config *c, const unsigned char *bytes, size_t len, void **out,
              struct cli_msg *m)
{
    struct map_wire h;
    *out = NULL;
    if (len < sizeof h)
        return cli_fail(m, "h5perf: %s '%s': internal error: a map of %zu bytes",
                        map_file_spelled(map_own(c)), map_file_raw(map_own(c)), len);
    memcpy(&h, bytes, sizeof h);
    size_t arrays = map_wire_check(&h, len);
    struct map_input *in = calloc(1, sizeof *in);
    unsigned char *store =
        arrays ? malloc(arrays + (size_t)h.ndecomps * (size_t)h.nprocs * 8) : NULL;
    if (!arrays || !in || !store) {
        free(in);
        free(store);
        return cli_fail(m, "h5perf: %s '%s': %s", map_file_spelled(map_own(c)),
                        map_file_raw(map_own(c)),
                        arrays ? "out of memory for the map" : "internal error: a broken map");
    }
    memcpy(store, bytes + sizeof h, arrays);
    in->storage = store;
    in->nprocs = h.nprocs;
    in->ndecomps = h.ndecomps;
    memcpy(in->format, h.format, sizeof in->format);
    in->format[sizeof in->format - 1] = '\0';
    size_t at = 0;
    int64_t *counts = (int64_t *)(store + arrays);
    for (int k = 0; k < h.ndecomps; k++) {
        struct map_decomp *d = &in->d[k];
        memcpy(d->name, h.d[k].name, sizeof d->name);
        d->name[sizeof d->name - 1] = '\0';
        d->ndims = h.d[k].ndims;
        memcpy(d->dims, h.d[k].dims, sizeof d->dims);
        d->elems = model_product(d->ndims, d->dims);
        d->first = (const int64_t *)(store + at);
        at += ((size_t)h.nprocs + 1) * sizeof(int64_t);
        d->boxes = (const struct model_box *)(store + at);
        at += (size_t)h.d[k].nboxes * sizeof(struct model_box);
        if (!map_decomp_sane(d, h.nprocs, h.d[k].nboxes)) {
            map_input_release(in);
            return cli_fail(m, "h5perf: %s '%s': internal error: a broken map",
                            map_file_spelled(map_own(c)), map_file_raw(map_own(c)));
        }
        map_derive(in, d, counts + (size_t)k * (size_t)h.nprocs);
    }
    *out = in;
    return 0;
}

void map_input_release(void *input)
{
    struct map_input *in = input;
    if (!in)
        return;
    free(in->storage);
    free(in);
}
