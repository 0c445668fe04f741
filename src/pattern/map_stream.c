/* map_e3sm.h: E3SM-IO's maps streamed on process 0 (docs/map.md, "Memory"):
 * a first pass reads one process's runs of a decomposition at a time, checks
 * them against a bitmap of the array's elements and keeps only its figures;
 * the common part is sent; a second pass makes and sends each process's
 * part in turn. Nothing of the whole map is held at once. Pure: every byte
 * comes through the functions setup lends (pattern.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/map_e3sm.h"
#include "pattern/map_wire.h"

/* What the whole way holds per run (its offset and length read, its entry
 * kept): a bitmap larger than this per run of the map is not streamed. */
#define STREAM_WHOLE_PER_RUN 80

struct stream {
    const struct pattern_files *f;
    struct map_builder *b;
    int nd, np;
    int64_t *seg;    /* [nd][np + 1]: process p's runs of Dk are [seg[p], seg[p + 1]) */
    int64_t *writes; /* [nd][np]: the first writes[p] of them are written */
    struct map_wire head;
    unsigned char *common; /* head, then struct map_wire_proc [nd][np] */
    size_t clen;
    int64_t held; /* seg, writes and common, counted in b */
};

static int64_t *stream_seg(const struct stream *s, int k)
{
    return s->seg + (size_t)k * ((size_t)s->np + 1);
}

static int64_t *stream_writes(const struct stream *s, int k)
{
    return s->writes + (size_t)k * (size_t)s->np;
}

static struct map_wire_proc *stream_proc(const struct stream *s, int k, int p)
{
    return (struct map_wire_proc *)(s->common + sizeof s->head) + (size_t)k * (size_t)s->np +
           (size_t)p;
}

/* Process p's written runs of Dk (from 0) into off[] and len[] (malloc'd,
 * counted: 16 bytes per run); their count, or -1 with why. */
static int64_t stream_read(struct stream *s, int k, int p, int64_t **off, int64_t **len, char *why,
                           size_t wlen)
{
    int64_t n = stream_writes(s, k)[p], from = stream_seg(s, k)[p];
    int64_t bytes = 2 * (n > 0 ? n : 1) * (int64_t)sizeof **off;
    /* The library may hold a copy of the values it converts (PnetCDF's
     * long long), 8 bytes per run while it reads: counted too. */
    int64_t copy = (n > 0 ? n : 1) * (int64_t)sizeof(long long);
    char name[32], lib[512];
    *off = *len = NULL;
    if (map_builder_take(s->b, bytes + copy, why, wlen) < 0)
        return -1;
    map_builder_give(s->b, copy);
    *off = malloc((size_t)bytes);
    *len = *off ? *off + (n > 0 ? n : 1) : NULL;
    int rc = *off ? 0 : -1;
    if (!*off)
        snprintf(why, wlen, "out of memory for the runs of D%d", k + 1);
    const char *vars[2] = {"offsets", "lengths"};
    int64_t *into[2] = {*off, *len};
    for (int i = 0; rc == 0 && i < 2; i++) {
        snprintf(name, sizeof name, "D%d.%s", k + 1, vars[i]);
        rc = s->f->var_range(s->f->ctx, name, from, n, into[i], lib, sizeof lib);
        if (rc < 0)
            snprintf(why, wlen, "its variable '%s' cannot be read: %s", name, lib);
    }
    if (rc == 0)
        return n;
    free(*off);
    *off = *len = NULL;
    map_builder_give(s->b, bytes);
    return -1;
}

static void stream_free(struct stream *s, int64_t *off, int64_t n)
{
    free(off);
    map_builder_give(s->b, 2 * (n > 0 ? n : 1) * (int64_t)sizeof *off);
}

/* Process p's written runs of Dk as the entries of b's decomposition k
 * (checked inside its array, as the whole way adds them). */
static int stream_entries(struct stream *s, int k, int p, char *why, size_t wlen)
{
    int64_t *off = NULL, *len = NULL, n = stream_read(s, k, p, &off, &len, why, wlen);
    if (n < 0)
        return -1;
    struct map_builder *b = s->b;
    b->ndecomps = k + 1; /* map_builder_add() adds to the last one */
    b->d[k].n = 0;
    int rc = 0;
    for (int64_t i = 0; rc == 0 && i < n; i++) {
        struct map_entry e = {.proc = p, .run = true, .origin = i};
        e.start[0] = off[i];
        e.count[0] = len[i];
        rc = map_builder_add(b, &e, why, wlen);
    }
    b->ndecomps = s->nd;
    stream_free(s, off, n);
    return rc;
}

/* Drops the entries of b's decomposition k: one process's at a time. */
static void stream_drop(struct stream *s, int k)
{
    struct map_decomp_build *d = &s->b->d[k];
    free(d->e);
    map_builder_give(s->b, d->cap * (int64_t)sizeof *d->e);
    d->e = NULL;
    d->n = d->cap = 0;
}

/* The first element of [a, a + n) set in bits, or -1. */
static int64_t bits_first(const uint64_t *bits, int64_t a, int64_t n)
{
    for (int64_t i = a; i < a + n;) {
        int64_t w = i >> 6, span = 64 - (i & 63) < a + n - i ? 64 - (i & 63) : a + n - i;
        uint64_t mask = (span == 64 ? ~(uint64_t)0 : (((uint64_t)1 << span) - 1)) << (i & 63);
        if (bits[w] & mask)
            return (w << 6) + __builtin_ctzll(bits[w] & mask);
        i += span;
    }
    return -1;
}

static void bits_set(uint64_t *bits, int64_t a, int64_t n)
{
    for (int64_t i = a; i < a + n;) {
        int64_t w = i >> 6, span = 64 - (i & 63) < a + n - i ? 64 - (i & 63) : a + n - i;
        bits[w] |= (span == 64 ? ~(uint64_t)0 : (((uint64_t)1 << span) - 1)) << (i & 63);
        i += span;
    }
}

/* Entry e of Dk holds element x, set by an earlier run: that run, found
 * among e's process's earlier entries, else by reading the earlier
 * processes' runs again one at a time, named as the whole way names it. */
static int stream_overlap(struct stream *s, int k, const struct map_entry *e, int64_t x, char *why,
                          size_t wlen)
{
    const struct map_decomp_build *d = &s->b->d[k];
    struct map_entry other = {.proc = -1, .run = true};
    for (const struct map_entry *o = d->e; o < e && other.proc < 0; o++)
        if (o->start[0] <= x && x - o->start[0] < o->count[0])
            other = *o;
    for (int q = 0; q < e->proc && other.proc < 0; q++) {
        int64_t *off = NULL, *len = NULL, n = stream_read(s, k, q, &off, &len, why, wlen);
        if (n < 0)
            return -1;
        for (int64_t i = 0; i < n && other.proc < 0; i++)
            if (off[i] <= x && x - off[i] < len[i])
                other = (struct map_entry){
                    .proc = q, .run = true, .origin = i, .start = {off[i]}, .count = {len[i]}};
        stream_free(s, off, n);
    }
    if (other.proc < 0) {
        snprintf(why, wlen, "%s: its runs changed while being read", d->name);
        return -1;
    }
    /* The run that starts later overlaps the one before it. */
    if (other.start[0] > e->start[0])
        return map_overlap_fail(s->b, d, e, &other, x, why, wlen);
    return map_overlap_fail(s->b, d, &other, e, x, why, wlen);
}

/* The first pass over Dk: each process's runs checked against the bitmap
 * of the array's elements and its figures kept in the common part. */
static int stream_figures(struct stream *s, int k, char *why, size_t wlen)
{
    struct map_decomp_build *d = &s->b->d[k];
    int64_t elems = model_product(d->ndims, d->dims);
    int64_t bytes = ((elems + 63) / 64) * (int64_t)sizeof(uint64_t);
    if (map_builder_take(s->b, bytes, why, wlen) < 0)
        return -1;
    uint64_t *bits = calloc((size_t)bytes, 1);
    int rc = bits ? 0 : -1;
    if (!bits)
        snprintf(why, wlen, "out of memory for the elements of %s", d->name);
    struct map_wire_decomp *w = &s->head.d[k];
    for (int p = 0; rc == 0 && p < s->np; p++) {
        rc = stream_entries(s, k, p, why, wlen);
        for (int64_t i = 0; rc == 0 && i < d->n; i++) {
            const struct map_entry *e = &d->e[i];
            int64_t x = bits_first(bits, e->start[0], e->count[0]);
            if (x >= 0)
                rc = stream_overlap(s, k, e, x, why, wlen);
            else
                bits_set(bits, e->start[0], e->count[0]);
        }
        struct model_box *boxes = NULL;
        int64_t held = 0, n = rc == 0 ? map_proc_boxes(s->b, d, &boxes, &held, why, wlen) : -1;
        if (n >= 0) {
            int64_t end = map_proc_figures(d, boxes, n, stream_proc(s, k, p));
            w->nboxes += n;
            w->end = end > w->end ? end : w->end;
        }
        free(boxes);
        map_builder_give(s->b, held);
        stream_drop(s, k);
        rc = n < 0 ? -1 : rc;
    }
    free(bits);
    map_builder_give(s->b, bytes);
    return rc;
}

/* The second pass: process p's boxes of every decomposition, made again
 * and checked against its figures, sent (files->send_part). */
static int stream_part(struct stream *s, int p, char *why, size_t wlen)
{
    int64_t total = 0, box = (int64_t)sizeof(struct model_box);
    for (int k = 0; k < s->nd; k++)
        total += stream_proc(s, k, p)->nboxes * box;
    if (map_builder_take(s->b, total + 1, why, wlen) < 0)
        return -1;
    unsigned char *part = malloc((size_t)total + 1);
    int rc = part ? 0 : -1;
    if (!part)
        snprintf(why, wlen, "out of memory for process %d's part", p);
    int64_t at = 0;
    for (int k = 0; rc == 0 && k < s->nd; k++) {
        struct model_box *boxes = NULL;
        int64_t held = 0, n = -1;
        if (stream_entries(s, k, p, why, wlen) == 0)
            n = map_proc_boxes(s->b, &s->b->d[k], &boxes, &held, why, wlen);
        if (n >= 0 && n != stream_proc(s, k, p)->nboxes) {
            snprintf(why, wlen, "D%d: its runs changed while being read", k + 1);
            n = -1;
        }
        if (n > 0)
            memcpy(part + at, boxes, (size_t)(n * box));
        at += n > 0 ? n * box : 0;
        free(boxes);
        map_builder_give(s->b, held);
        stream_drop(s, k);
        rc = n < 0 ? -1 : 0;
    }
    if (rc == 0)
        rc = s->f->send_part(s->f->ctx, p, part, (size_t)total, why, wlen);
    free(part);
    map_builder_give(s->b, total + 1);
    return rc;
}

/* Every decomposition's array and counts: seg and writes, and whether the
 * largest bitmap stays within what the whole way holds of the runs. */
static int stream_counts(struct stream *s, bool *fits, char *why, size_t wlen)
{
    int64_t runs = 0, most = 0;
    for (int k = 0; k < s->nd; k++) {
        int64_t *nreqs = NULL, *fill = NULL, total = 0;
        char name[32];
        if (map_e3sm_counts(s->f, k + 1, s->b, &nreqs, &fill, &total, why, wlen) < 0)
            return -1;
        int64_t *seg = stream_seg(s, k), *writes = stream_writes(s, k);
        seg[0] = 0;
        for (int p = 0; p < s->np; p++) {
            seg[p + 1] = seg[p] + nreqs[p];
            writes[p] = fill ? fill[p] : nreqs[p];
        }
        free(nreqs);
        free(fill);
        const char *vars[2] = {"offsets", "lengths"};
        for (int i = 0; i < 2; i++) {
            snprintf(name, sizeof name, "D%d.%s", k + 1, vars[i]);
            if (map_e3sm_length(s->f, name, total, why, wlen) < 0)
                return -1;
        }
        const struct map_decomp_build *d = &s->b->d[k];
        int64_t bits = (model_product(d->ndims, d->dims) + 7) / 8;
        runs += total;
        most = bits > most ? bits : most;
    }
    *fits = most / STREAM_WHOLE_PER_RUN <= runs;
    return 0;
}

/* The header of the common part. */
static void stream_head(struct stream *s)
{
    struct map_wire *h = &s->head;
    memset(h, 0, sizeof *h);
    memcpy(h->magic, MAP_MAGIC, sizeof h->magic);
    h->nprocs = s->np;
    h->ndecomps = s->nd;
    memcpy(h->format, s->b->format, sizeof h->format);
    for (int k = 0; k < s->nd; k++) {
        const struct map_decomp_build *d = &s->b->d[k];
        memcpy(h->d[k].name, d->name, sizeof h->d[k].name);
        h->d[k].ndims = d->ndims;
        memcpy(h->d[k].dims, d->dims, sizeof h->d[k].dims);
    }
}

/* Both passes, once the counts are read. */
static int stream_run(struct stream *s, char *why, size_t wlen)
{
    s->clen = sizeof s->head + (size_t)s->nd * (size_t)s->np * sizeof(struct map_wire_proc);
    /* Twice: setup keeps a copy, process 0's own input (send_common). */
    if (map_builder_take(s->b, 2 * (int64_t)s->clen, why, wlen) < 0)
        return -1;
    s->held += 2 * (int64_t)s->clen;
    s->common = calloc(s->clen, 1);
    if (!s->common) {
        snprintf(why, wlen, "out of memory");
        return -1;
    }
    stream_head(s);
    for (int k = 0; k < s->nd; k++)
        if (stream_figures(s, k, why, wlen) < 0)
            return -1;
    memcpy(s->common, &s->head, sizeof s->head);
    /* Kept: the second pass checks each part against its figures. */
    if (s->f->send_common(s->f->ctx, s->common, s->clen, why, wlen) < 0)
        return -1;
    for (int p = 0; p < s->np; p++)
        if (stream_part(s, p, why, wlen) < 0)
            return -1;
    return 0;
}

int map_e3sm_stream(const struct pattern_files *files, enum pattern_file_kind kind,
                    struct map_builder *b, char *why, size_t wlen)
{
    struct stream s = {.f = files, .b = b};
    if (map_e3sm_head(files, kind, b, &s.nd, why, wlen) < 0)
        return -1;
    s.np = b->nprocs;
    s.held = (int64_t)sizeof(int64_t) * s.nd * (2 * (int64_t)s.np + 1);
    if (map_builder_take(b, s.held, why, wlen) < 0)
        return -1;
    s.seg = malloc((size_t)s.nd * ((size_t)s.np + 1) * sizeof *s.seg);
    s.writes = malloc((size_t)s.nd * (size_t)s.np * sizeof *s.writes);
    bool fits = false;
    int rc = s.seg && s.writes ? 0 : -1;
    if (rc < 0)
        snprintf(why, wlen, "out of memory");
    if (rc == 0)
        rc = stream_counts(&s, &fits, why, wlen);
    if (rc == 0 && !fits)
        rc = 1;
    if (rc == 0)
        rc = stream_run(&s, why, wlen);
    free(s.seg);
    free(s.writes);
    free(s.common);
    map_builder_give(b, s.held);
    return rc;
}
