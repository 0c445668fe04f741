/* map.h: a map from its entries to its bytes (map_wire.h): the part every
 * process receives and each process's boxes (map_adopt.c: back).
 * Each entry becomes boxes (a run of a multi-dimensional array: a partial
 * row, whole rows, ...); the rows of every process's boxes are checked for
 * overlaps; each process's boxes are put in the array's C order (a process
 * whose boxes interleave, as side-by-side boxes of a 2D array do, keeps
 * their rows instead), so that every API moves its elements in that order
 * (docs/map.md, "The order of a selection"). Pure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/map.h"
#include "pattern/map_wire.h"

void map_builder_init(struct map_builder *b, const char *format, bool lines)
{
    memset(b, 0, sizeof *b);
    snprintf(b->format, sizeof b->format, "%s", format);
    b->lines = lines;
    b->memory = -1;
}

int map_builder_take(struct map_builder *b, int64_t bytes, char *why, size_t wlen)
{
    b->held = bytes > INT64_MAX - b->held ? INT64_MAX : b->held + bytes;
    if (b->memory < 0 || b->held <= b->memory)
        return 0;
    b->over = true;
    snprintf(why, wlen, "its reading needs more memory than process 0 has");
    return -1;
}

void map_builder_give(struct map_builder *b, int64_t bytes)
{
    b->held -= bytes < b->held ? bytes : b->held;
}

void map_builder_release(struct map_builder *b)
{
    for (int k = 0; k < b->ndecomps; k++)
        free(b->d[k].e);
    b->ndecomps = 0;
}

void map_procs_mismatch(int64_t map, int run, char *why, size_t wlen)
{
    snprintf(why, wlen,
             "is a map for %lld process%s, and the run has %d; start %lld (mpiexec -n), with -p "
             "and -P left out or %lld",
             (long long)map, map == 1 ? "" : "es", run, (long long)map, (long long)map);
}

int map_builder_procs(struct map_builder *b, int64_t n, char *why, size_t wlen)
{
    if (n < 1 || n > MAP_MAX_PROCS) {
        snprintf(why, wlen, "declares %lld processes; h5perf takes 1 to %d", (long long)n,
                 MAP_MAX_PROCS);
        return -1;
    }
    if (b->want_procs > 0 && n != b->want_procs) {
        map_procs_mismatch(n, b->want_procs, why, wlen);
        return -1;
    }
    b->nprocs = (int)n;
    return 0;
}

int map_builder_decomp(struct map_builder *b, int ndims, const int64_t *dims, char *why,
                       size_t wlen)
{
    if (b->ndecomps >= MAP_MAX_DECOMPS) {
        snprintf(why, wlen, "more than %d decompositions", MAP_MAX_DECOMPS);
        return -1;
    }
    struct map_decomp_build *d = &b->d[b->ndecomps++];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "D%d", b->ndecomps);
    d->ndims = ndims;
    for (int i = 0; i < ndims; i++)
        d->dims[i] = dims[i];
    return 0;
}

/* "process 1's run 990:20", "process 0's box 0:2,5:70"; E3SM-IO's: "process
 * 3's run 5 (280:8)". */
static void map_entry_text(const struct map_builder *b, const struct map_decomp_build *d,
                           const struct map_entry *e, char *buf, size_t len)
{
    char v[160];
    size_t n = 0;
    int parts = e->run ? 1 : d->ndims;
    for (int i = 0; i < parts && n < sizeof v; i++)
        n += (size_t)snprintf(v + n, sizeof v - n, "%s%lld:%lld", i ? "," : "",
                              (long long)e->start[i], (long long)e->count[i]);
    if (b->lines)
        snprintf(buf, len, "process %d's %s %s", e->proc, e->run ? "run" : "box", v);
    else
        snprintf(buf, len, "process %d's run %lld (%s)", e->proc, (long long)e->origin, v);
}

/* "line 7: " or "D3: " */
static void map_where(const struct map_builder *b, const struct map_decomp_build *d,
                      const struct map_entry *e, char *buf, size_t len)
{
    if (b->lines)
        snprintf(buf, len, "line %lld: ", (long long)e->origin);
    else
        snprintf(buf, len, "%s: ", d->name);
}

static int map_entry_fail(const struct map_builder *b, const struct map_decomp_build *d,
                          const struct map_entry *e, const char *what, char *why, size_t wlen)
{
    char where[64], text[256];
    map_where(b, d, e, where, sizeof where);
    map_entry_text(b, d, e, text, sizeof text);
    snprintf(why, wlen, "%s%s %s", where, text, what);
    return -1;
}

/* The entry lies inside the array and holds elements. */
static int map_entry_check(const struct map_builder *b, const struct map_decomp_build *d,
                           const struct map_entry *e, char *why, size_t wlen)
{
    char what[160];
    int64_t elems = model_product(d->ndims, d->dims);
    int parts = e->run ? 1 : d->ndims;
    for (int i = 0; i < parts; i++) {
        int64_t limit = e->run ? elems : d->dims[i];
        if (e->count[i] < 1)
            return map_entry_fail(b, d, e, "holds no elements (counts are 1 or more)", why, wlen);
        if (e->start[i] < 0 || e->start[i] > limit || e->count[i] > limit - e->start[i]) {
            if (e->run)
                snprintf(what, sizeof what, "passes the end of the array's %lld elements",
                         (long long)limit);
            else
                snprintf(what, sizeof what, "passes the end of dimension %d (%lld elements)", i + 1,
                         (long long)limit);
            return map_entry_fail(b, d, e, what, why, wlen);
        }
    }
    return 0;
}

int map_builder_add(struct map_builder *b, const struct map_entry *e, char *why, size_t wlen)
{
    struct map_decomp_build *d = &b->d[b->ndecomps - 1];
    if (map_entry_check(b, d, e, why, wlen) < 0)
        return -1;
    if (d->n == d->cap) {
        int64_t cap = d->cap ? d->cap * 2 : 64;
        /* realloc may hold both the old and the new array for a moment. */
        if (map_builder_take(b, cap * (int64_t)sizeof *d->e, why, wlen) < 0)
            return -1;
        map_builder_give(b, d->cap * (int64_t)sizeof *d->e);
        struct map_entry *grown = realloc(d->e, (size_t)cap * sizeof *grown);
        if (!grown) {
            snprintf(why, wlen, "out of memory for its runs");
            return -1;
        }
        d->e = grown;
        d->cap = cap;
    }
    d->e[d->n++] = *e;
    return 0;
}

/* --- from entries to boxes ---------------------------------------------- */

/* A box of the map with the entry it came from, and the first and last
 * element of its span in C order. */
struct map_piece {
    struct model_box box;
    int64_t entry;
    int64_t lo, hi;
};

/* A row (run of consecutive elements in C order) of some box, and its
 * entry. */
struct map_row {
    int64_t off, len, entry;
};

static int map_cmp_piece(const void *a, const void *b)
{
    const struct map_piece *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return (x->entry > y->entry) - (x->entry < y->entry);
}

static int map_cmp_row(const void *a, const void *b)
{
    const struct map_row *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return (x->entry > y->entry) - (x->entry < y->entry);
}

static struct model_storage map_storage(const struct map_decomp_build *d)
{
    struct model_storage s = {d->ndims, {0, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < d->ndims; i++)
        s.dims[i] = d->dims[i];
    return s;
}

/* The span of a box: its first and last elements' offsets. */
static void map_span(const struct model_storage *s, struct map_piece *p)
{
    int64_t last[MODEL_MAX_DIMS] = {0, 0, 0};
    for (int i = 0; i < s->ndims; i++)
        last[i] = p->box.start[i] + p->box.count[i] - 1;
    p->lo = model_offset(s, p->box.start);
    p->hi = model_offset(s, last);
}

/* Calls visit for each row of box b (rows of whole planes merged). */
static int64_t map_rows_of(const struct model_storage *s, const struct model_box *b, int64_t entry,
                           struct map_row *out)
{
    struct model_runs r;
    if (model_box_runs(s, b, &r) < 0)
        return 0;
    int64_t n = 0;
    for (int64_t j = 0; j < r.count[0]; j++)
        for (int64_t i = 0; i < r.count[1]; i++, n++)
            if (out)
                out[n] = (struct map_row){r.disp + j * r.stride[0] + i * r.stride[1], r.len, entry};
    return n;
}

/* Appends the boxes of entry i of d to pieces (at most MODEL_RANGE_BOXES). */
static int map_boxes_of(const struct map_decomp_build *d, int64_t i, struct map_piece *out)
{
    const struct map_entry *e = &d->e[i];
    const struct model_storage s = map_storage(d);
    struct model_box boxes[MODEL_RANGE_BOXES];
    int n = 1;
    if (e->run) {
        struct model_box whole = {d->ndims, {0, 0, 0}, {0, 0, 0}};
        for (int k = 0; k < d->ndims; k++)
            whole.count[k] = d->dims[k];
        n = model_box_range(&whole, e->start[0], e->count[0], boxes);
    } else {
        boxes[0] = (struct model_box){d->ndims, {0, 0, 0}, {0, 0, 0}};
        for (int k = 0; k < d->ndims; k++) {
            boxes[0].start[k] = e->start[k];
            boxes[0].count[k] = e->count[k];
        }
    }
    for (int k = 0; k < n; k++) {
        out[k].box = boxes[k];
        out[k].entry = i;
        map_span(&s, &out[k]);
    }
    return n;
}

int map_overlap_fail(const struct map_builder *b, const struct map_decomp_build *d,
                     const struct map_entry *first, const struct map_entry *second, int64_t at,
                     char *why, size_t wlen)
{
    if (second->origin < first->origin && b->lines) {
        const struct map_entry *t = first;
        first = second;
        second = t;
    }
    char text[256], what[512], where[32] = "";
    map_entry_text(b, d, first, text, sizeof text);
    if (b->lines)
        snprintf(where, sizeof where, " (line %lld)", (long long)first->origin);
    snprintf(what, sizeof what, "overlaps %s%s at element %lld", text, where, (long long)at);
    return map_entry_fail(b, d, second, what, why, wlen);
}

/* Refuses elements two entries share: the rows of every box, sorted. */
static int map_check_overlaps(struct map_builder *b, const struct map_decomp_build *d,
                              const struct map_piece *pc, int64_t npc, char *why, size_t wlen)
{
    const struct model_storage s = map_storage(d);
    int64_t nrows = 0;
    for (int64_t i = 0; i < npc; i++) {
        nrows += map_rows_of(&s, &pc[i].box, pc[i].entry, NULL);
        if (nrows > MAP_MAX_ROWS) {
            snprintf(why, wlen,
                     "%s: its boxes make more than %d rows, more than h5perf checks for "
                     "overlaps; give fewer or larger boxes",
                     d->name, MAP_MAX_ROWS);
            return -1;
        }
    }
    int64_t bytes = (nrows > 0 ? nrows : 1) * (int64_t)sizeof(struct map_row);
    if (map_builder_take(b, bytes, why, wlen) < 0)
        return -1;
    struct map_row *rows = malloc((size_t)bytes);
    if (!rows) {
        map_builder_give(b, bytes);
        snprintf(why, wlen, "out of memory for the rows of %s", d->name);
        return -1;
    }
    for (int64_t i = 0, at = 0; i < npc; i++)
        at += map_rows_of(&s, &pc[i].box, pc[i].entry, rows + at);
    qsort(rows, (size_t)nrows, sizeof *rows, map_cmp_row);
    int rc = 0;
    for (int64_t i = 1; i < nrows && rc == 0; i++) {
        if (rows[i].off >= rows[i - 1].off + rows[i - 1].len)
            continue;
        rc = map_overlap_fail(b, d, &d->e[rows[i - 1].entry], &d->e[rows[i].entry], rows[i].off,
                              why, wlen);
    }
    free(rows);
    map_builder_give(b, bytes);
    return rc;
}

/* One process's pieces pc[0, n), sorted by span: in C order as they are,
 * or (spans interleave) as their rows, each a box or a few. Returns the
 * new count (into *out, malloc'd and counted in b) or -1 (why set when
 * b's memory would pass). */
static int64_t map_order(struct map_builder *b, const struct map_decomp_build *d,
                         struct map_piece *pc, int64_t n, struct map_piece **out, int64_t *held,
                         char *why, size_t wlen)
{
    qsort(pc, (size_t)n, sizeof *pc, map_cmp_piece);
    *out = NULL;
    *held = 0;
    bool interleave = false;
    for (int64_t i = 1; i < n; i++)
        interleave |= pc[i].lo <= pc[i - 1].hi;
    if (!interleave)
        return n;
    const struct model_storage s = map_storage(d);
    int64_t nrows = 0;
    for (int64_t i = 0; i < n; i++)
        nrows += map_rows_of(&s, &pc[i].box, pc[i].entry, NULL);
    int64_t nr = nrows > 0 ? nrows : 1, row_bytes = nr * (int64_t)sizeof(struct map_row),
            res_bytes = nr * MODEL_RANGE_BOXES * (int64_t)sizeof(struct map_piece);
    if (map_builder_take(b, row_bytes + res_bytes, why, wlen) < 0)
        return -1;
    struct map_row *rows = malloc((size_t)row_bytes);
    struct map_piece *res = malloc((size_t)res_bytes);
    if (!rows || !res) {
        free(rows);
        free(res);
        map_builder_give(b, row_bytes + res_bytes);
        return -1;
    }
    for (int64_t i = 0, at = 0; i < n; i++)
        at += map_rows_of(&s, &pc[i].box, pc[i].entry, rows + at);
    qsort(rows, (size_t)nrows, sizeof *rows, map_cmp_row);
    struct model_box whole = {d->ndims, {0, 0, 0}, {0, 0, 0}};
    for (int k = 0; k < d->ndims; k++)
        whole.count[k] = d->dims[k];
    int64_t m = 0;
    for (int64_t i = 0; i < nrows; i++) {
        struct model_box boxes[MODEL_RANGE_BOXES];
        int nb = model_box_range(&whole, rows[i].off, rows[i].len, boxes);
        for (int k = 0; k < nb; k++, m++) {
            res[m].box = boxes[k];
            res[m].entry = rows[i].entry;
            map_span(&s, &res[m]);
        }
    }
    free(rows);
    map_builder_give(b, row_bytes);
    *out = res;
    *held = res_bytes;
    return m;
}

/* --- the bytes every process keeps ------------------------------------- */

/* The bytes of n pieces (at least one allocated). */
static int64_t map_pieces_bytes(int64_t n)
{
    return (n > 0 ? n : 1) * (int64_t)sizeof(struct map_piece);
}

/* The pieces of d's entries grouped by process, each process's in the
 * order of its entries: *pc (malloc'd, counted in b), process p's from
 * at[p] to at[p + 1]. Returns 0, or -1 (out of memory, or why set when b's
 * memory would pass). */
static int map_group(struct map_builder *b, const struct map_decomp_build *d, struct map_piece **pc,
                     int64_t *at, char *why, size_t wlen)
{
    struct map_piece tmp[MODEL_RANGE_BOXES];
    *pc = NULL;
    memset(at, 0, ((size_t)b->nprocs + 1) * sizeof *at);
    for (int64_t i = 0; i < d->n; i++)
        at[d->e[i].proc + 1] += map_boxes_of(d, i, tmp);
    for (int p = 0; p < b->nprocs; p++)
        at[p + 1] += at[p];
    int64_t bytes = map_pieces_bytes(at[b->nprocs]);
    if (map_builder_take(b, bytes, why, wlen) < 0)
        return -1;
    int64_t *next = malloc(((size_t)b->nprocs + 1) * sizeof *next);
    *pc = malloc((size_t)bytes);
    if (!next || !*pc) {
        free(next);
        free(*pc);
        *pc = NULL;
        map_builder_give(b, bytes);
        return -1;
    }
    memcpy(next, at, ((size_t)b->nprocs + 1) * sizeof *next);
    for (int64_t i = 0; i < d->n; i++) {
        int p = d->e[i].proc;
        next[p] += map_boxes_of(d, i, *pc + next[p]);
    }
    free(next);
    return 0;
}

int64_t map_proc_boxes(struct map_builder *b, const struct map_decomp_build *d,
                       struct model_box **boxes, int64_t *bytes, char *why, size_t wlen)
{
    struct map_piece tmp[MODEL_RANGE_BOXES], *pc = NULL, *rows = NULL;
    struct model_box *out = NULL;
    int64_t n = 0, held = 0, out_bytes = 0;
    *boxes = NULL;
    *bytes = 0;
    for (int64_t i = 0; i < d->n; i++)
        n += map_boxes_of(d, i, tmp);
    int64_t pc_bytes = map_pieces_bytes(n);
    if (map_builder_take(b, pc_bytes, why, wlen) < 0)
        return -1;
    pc = malloc((size_t)pc_bytes);
    int64_t m = pc ? 0 : -1;
    for (int64_t i = 0, at = 0; pc && i < d->n; i++)
        at += map_boxes_of(d, i, pc + at);
    if (pc)
        m = map_order(b, d, pc, n, &rows, &held, why, wlen);
    out_bytes = (m > 0 ? m : 1) * (int64_t)sizeof *out;
    if (m >= 0 && map_builder_take(b, out_bytes, why, wlen) == 0 &&
        !(out = malloc((size_t)out_bytes)))
        map_builder_give(b, out_bytes);
    for (int64_t i = 0; out && i < m; i++)
        out[i] = (rows ? rows : pc)[i].box;
    free(rows);
    map_builder_give(b, held);
    free(pc);
    map_builder_give(b, pc_bytes);
    if (!out) {
        if (!b->over)
            snprintf(why, wlen, "out of memory for the boxes of %s", d->name);
        return -1;
    }
    *boxes = out;
    *bytes = out_bytes;
    return m;
}

/* The boxes of decomposition d, every process's in C order, into *boxes
 * (malloc'd, counted in b as their capacity *cap_bytes) and first[nprocs +
 * 1]. Returns 0, or -1 with why. */
static int map_decomp_boxes(struct map_builder *b, const struct map_decomp_build *d,
                            struct model_box **boxes, int64_t *cap_bytes, int64_t *first, char *why,
                            size_t wlen)
{
    struct map_piece *pc = NULL;
    int64_t *at = malloc(((size_t)b->nprocs + 1) * sizeof *at);
    *boxes = NULL;
    *cap_bytes = 0;
    if (!at || map_group(b, d, &pc, at, why, wlen) < 0) {
        free(at);
        if (!b->over)
            snprintf(why, wlen, "out of memory for the boxes of %s", d->name);
        return -1;
    }
    int64_t nout = 0, cap = 0, box = (int64_t)sizeof(struct model_box);
    int rc = map_check_overlaps(b, d, pc, at[b->nprocs], why, wlen);
    struct model_box *out = NULL;
    first[0] = 0;
    for (int p = 0; rc == 0 && p < b->nprocs; p++) {
        struct map_piece *rows = NULL;
        int64_t held = 0;
        int64_t m = map_order(b, d, pc + at[p], at[p + 1] - at[p], &rows, &held, why, wlen);
        const struct map_piece *src = rows ? rows : pc + at[p];
        if (m >= 0 && nout + m > cap) {
            int64_t grow = (nout + m) * 2;
            /* realloc may hold both the old and the new array for a moment. */
            bool fits = map_builder_take(b, (grow > 0 ? grow : 1) * box, why, wlen) == 0;
            struct model_box *grown =
                fits ? realloc(out, (size_t)(grow > 0 ? grow : 1) * sizeof *grown) : NULL;
            map_builder_give(b, grown ? *cap_bytes : (grow > 0 ? grow : 1) * box);
            if (grown) {
                cap = grow;
                *cap_bytes = (cap > 0 ? cap : 1) * box;
            }
            m = grown ? m : -1;
            out = grown ? grown : out;
        }
        for (int64_t i = 0; i < m; i++)
            out[nout++] = src[i].box;
        free(rows);
        map_builder_give(b, held);
        if (m < 0) {
            rc = -1;
            if (!b->over)
                snprintf(why, wlen, "out of memory for the boxes of %s", d->name);
        }
        first[p + 1] = nout;
    }
    free(pc);
    map_builder_give(b, map_pieces_bytes(at[b->nprocs]));
    free(at);
    if (rc < 0) {
        free(out);
        map_builder_give(b, *cap_bytes);
        *cap_bytes = 0;
    } else {
        *boxes = out;
    }
    return rc;
}

int64_t map_proc_figures(const struct map_decomp_build *d, const struct model_box *boxes, int64_t n,
                         struct map_wire_proc *q)
{
    *q = (struct map_wire_proc){n, 0, 0};
    for (int64_t i = 0; i < n; i++) {
        q->count += model_product(d->ndims, boxes[i].count);
        q->runs += map_box_nruns(d->ndims, d->dims, &boxes[i]);
    }
    if (n == 0)
        return 0;
    const struct model_storage s = map_storage(d);
    struct map_piece last = {.box = boxes[n - 1]};
    map_span(&s, &last);
    return last.hi + 1;
}

/* The common part of decomposition k of b into w and procs[nprocs]: each
 * process's boxes, elements and runs, and the end of what any has. */
static void map_wire_common(const struct map_builder *b, int k, const struct model_box *boxes,
                            const int64_t *first, struct map_wire_decomp *w,
                            struct map_wire_proc *procs)
{
    const struct map_decomp_build *d = &b->d[k];
    memcpy(w->name, d->name, sizeof w->name);
    w->ndims = d->ndims;
    memcpy(w->dims, d->dims, sizeof w->dims);
    w->nboxes = first[b->nprocs];
    w->end = 0;
    for (int p = 0; p < b->nprocs; p++) {
        /* A decomposition of no box has no array of them (NULL). */
        const struct model_box *mine = boxes ? boxes + first[p] : NULL;
        int64_t end = map_proc_figures(d, mine, first[p + 1] - first[p], &procs[p]);
        w->end = end > w->end ? end : w->end;
    }
}

int map_builder_finish(struct map_builder *b, unsigned char **bytes, size_t *len, char *why,
                       size_t wlen)
{
    *bytes = NULL;
    *len = 0;
    if (b->ndecomps == 0) {
        snprintf(why, wlen, "declares no decomposition");
        return -1;
    }
    struct model_box *boxes[MAP_MAX_DECOMPS] = {NULL};
    int64_t held[MAP_MAX_DECOMPS] = {0};
    size_t np = (size_t)b->nprocs;
    int64_t *firsts = calloc((size_t)b->ndecomps * (np + 1), sizeof *firsts);
    struct map_wire head;
    memset(&head, 0, sizeof head);
    memcpy(head.magic, MAP_MAGIC, sizeof head.magic);
    head.nprocs = b->nprocs;
    head.ndecomps = b->ndecomps;
    memcpy(head.format, b->format, sizeof head.format);
    int rc = firsts ? 0 : -1;
    if (!firsts)
        snprintf(why, wlen, "out of memory");
    size_t common = sizeof head + (size_t)b->ndecomps * np * sizeof(struct map_wire_proc);
    size_t total = common;
    for (int k = 0; rc == 0 && k < b->ndecomps; k++) {
        int64_t *first = firsts + (size_t)k * (np + 1);
        rc = map_decomp_boxes(b, &b->d[k], &boxes[k], &held[k], first, why, wlen);
        if (rc == 0)
            total += (size_t)first[b->nprocs] * sizeof(struct model_box);
    }
    if (rc == 0)
        rc = map_builder_take(b, (int64_t)total, why, wlen);
    unsigned char *out = rc == 0 ? malloc(total) : NULL;
    if (rc == 0 && !out) {
        rc = -1;
        snprintf(why, wlen, "out of memory for the map's %zu bytes", total);
    }
    if (rc == 0) {
        /* The common part, then each process's boxes together: its part
         * is then one range of the bytes (docs/map.md, "Memory"). */
        struct map_wire_proc *procs = (struct map_wire_proc *)(out + sizeof head);
        for (int k = 0; k < b->ndecomps; k++)
            map_wire_common(b, k, boxes[k], firsts + (size_t)k * (np + 1), &head.d[k],
                            procs + (size_t)k * np);
        memcpy(out, &head, sizeof head);
        size_t at = common;
        for (int p = 0; p < b->nprocs; p++)
            for (int k = 0; k < b->ndecomps; k++) {
                const int64_t *first = firsts + (size_t)k * (np + 1);
                size_t nb = (size_t)(first[p + 1] - first[p]) * sizeof(struct model_box);
                if (nb)
                    memcpy(out + at, boxes[k] + first[p], nb);
                at += nb;
            }
        *bytes = out;
        *len = total;
    }
    for (int k = 0; k < b->ndecomps; k++) {
        free(boxes[k]);
        map_builder_give(b, held[k]);
    }
    free(firsts);
    return rc;
}
