/* The map pattern's pure parts (docs/map.md): the text format's exact
 * refusals; random maps on small arrays against a brute-force owner of
 * every element (overlaps refused exactly when two entries share one, each
 * process's boxes in C order and holding exactly its entries' elements);
 * and every plan (shared, fpp, with and without --transfer-size): its
 * steps move the process's elements in C order, one step for the whole
 * selection without --transfer-size, slabs and runs name the same
 * elements, and fill and verify agree; each process's part of the map
 * (its boxes and every process's figures) adopted alone agrees with the
 * whole. Pure: no MPI. */
#include <stdlib.h>

#include "check.h"
#include "rnd.h"
#include "runs_bytes.h"
#include "pattern/map.h"

/* The text's refusal (or "" when it is taken). */
static const char *parse_text(const char *text)
{
    static char why[1024];
    struct map_builder b;
    unsigned char *bytes = NULL;
    size_t len = 0;
    why[0] = '\0';
    map_builder_init(&b, "text", true);
    if (map_text_parse(text, strlen(text), &b, why, sizeof why) == 0 &&
        map_builder_finish(&b, &bytes, &len, why, sizeof why) == 0)
        why[0] = '\0';
    map_builder_release(&b);
    free(bytes);
    return why;
}

static void check_text_refusals(void)
{
    static const struct {
        const char *text, *why;
    } cases[] = {
        {"processes 2\narray 10\n0: 0:5\n1: 5:5\n", ""},
        {"# comment\n\n  processes 1 # trailing\narray 2x3\n0: 0:1,0:3 1:1,0:3\n", ""},
        {"", "has no 'processes N' line"},
        {"processes 2\n", "has no 'array DIMS' line"},
        {"array 10\n", "line 1: 'array 10': an array before 'processes N'"},
        {"0: 0:1\n", "line 1: '0: 0:1': expected 'processes N' first"},
        {"processes 0\n", "line 1: 'processes 0': expected 'processes N', N from 1 to 1048576"},
        {"processes 2\nprocesses 2\n",
         "line 2: 'processes 2': the processes are given once, before the first array"},
        {"processes 2\narray 10x\n",
         "line 2: 'array 10x': expected 'array DIMS', DIMS 1 to 3 whole numbers from 1 joined by "
         "'x' (slowest first), whose product fits in 64 bits"},
        {"processes 2\narray 4294967296x4294967296\n",
         "line 2: 'array 4294967296x4294967296': expected 'array DIMS', DIMS 1 to 3 whole numbers "
         "from 1 joined by 'x' (slowest first), whose product fits in 64 bits"},
        {"processes 2\n0: 0:1\n",
         "line 2: '0: 0:1': a process's line before the first 'array DIMS'"},
        {"processes 2\narray 10\n2: 0:1\n", "line 3: '2:': the map is for processes 2 (0 to 1)"},
        {"processes 2\narray 10\n1: 0:1\n1: 2:1\n",
         "line 4: '1:': the process has its line in this array already (line 3)"},
        {"processes 2\narray 10\n0:0:1\n",
         "line 3: '0:0:1': a process's number ends with ': ' (a colon, then a space)"},
        {"processes 2\narray 10\nzero: 0:1\n",
         "line 3: 'zero: 0:1' is not a map line: expected 'processes N', 'array DIMS', or 'P: "
         "RUNS' (P a process from 0)"},
        {"processes 2\narray 10\n0: 5:\n",
         "line 3: '5:' is not a run OFFSET:LENGTH or a box START:COUNT,... (one pair per "
         "dimension, whole numbers)"},
        {"processes 2\narray 10\n0: 1:2,\n",
         "line 3: '1:2,' is not a run OFFSET:LENGTH or a box START:COUNT,... (one pair per "
         "dimension, whole numbers)"},
        {"processes 2\narray 10\n0: 99999999999999999999:1\n",
         "line 3: '99999999999999999999:1': a number does not fit in 64 bits"},
        {"processes 2\narray 10x10\n0: 0:1,0:1,0:1\n",
         "line 3: '0:1,0:1,0:1': a box gives one START:COUNT per dimension, and the array has 2"},
        {"processes 2\narray 10\n0: 5:0\n",
         "line 3: process 0's run 5:0 holds no elements (counts are 1 or more)"},
        {"processes 2\narray 10\n0: 8:3\n",
         "line 3: process 0's run 8:3 passes the end of the array's 10 elements"},
        {"processes 2\narray 10\n0: 9223372036854775807:9223372036854775807\n",
         "line 3: process 0's run 9223372036854775807:9223372036854775807 passes the end of the "
         "array's 10 elements"},
        {"processes 2\narray 4x5\n1: 0:2,3:3\n",
         "line 3: process 1's box 0:2,3:3 passes the end of dimension 2 (5 elements)"},
        {"processes 2\narray 10\n0: 0:5\n1: 4:2\n",
         "line 4: process 1's run 4:2 overlaps process 0's run 0:5 (line 3) at element 4"},
        {"processes 2\narray 4x4\n0: 0:4,0:2\n\n1: 6:4\n",
         "line 5: process 1's run 6:4 overlaps process 0's box 0:4,0:2 (line 3) at element 8"},
        {"processes 1\narray 10\n0: 0:3 2:2\n",
         "line 3: process 0's run 2:2 overlaps process 0's run 0:3 (line 3) at element 2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_STR(parse_text(cases[i].text), cases[i].why);
}

/* --- random maps against a brute-force owner of every element ---------- */

#define MAXE 64

struct oracle {
    int nprocs, ndims;
    int64_t dims[3], n;
    int owner[MAXE]; /* -1: none; -2: two entries */
};

static int64_t flat(const struct oracle *o, const int64_t *idx)
{
    int64_t at = 0;
    for (int d = 0; d < o->ndims; d++)
        at = at * o->dims[d] + idx[d];
    return at;
}

/* A random entry of process p inside the array, recorded in the oracle. */
static struct map_entry random_entry(struct oracle *o, int p, int64_t line)
{
    struct map_entry e = {.proc = p, .origin = line};
    e.run = o->ndims == 1 || rnd(2);
    if (e.run) {
        e.start[0] = rnd(o->n);
        e.count[0] = 1 + rnd(o->n - e.start[0] < 12 ? o->n - e.start[0] : 12);
        for (int64_t i = e.start[0]; i < e.start[0] + e.count[0]; i++)
            o->owner[i] = o->owner[i] == -1 ? p : -2;
        return e;
    }
    for (int d = 0; d < o->ndims; d++) {
        e.start[d] = rnd(o->dims[d]);
        e.count[d] = 1 + rnd(o->dims[d] - e.start[d]);
    }
    int64_t idx[3];
    for (idx[0] = e.start[0]; idx[0] < e.start[0] + e.count[0]; idx[0]++)
        for (idx[1] = e.start[1]; idx[1] < e.start[1] + (o->ndims > 1 ? e.count[1] : 1); idx[1]++)
            for (idx[2] = e.start[2]; idx[2] < e.start[2] + (o->ndims > 2 ? e.count[2] : 1);
                 idx[2]++) {
                int64_t f = flat(o, idx);
                o->owner[f] = o->owner[f] == -1 ? p : -2;
            }
    return e;
}

/* The elements of box b in C order into out; returns how many. */
static int64_t box_elems(const struct oracle *o, const struct model_box *b, int64_t *out)
{
    int64_t n = 0, idx[3] = {0, 0, 0};
    int64_t c[3] = {1, 1, 1};
    for (int d = 0; d < o->ndims; d++)
        c[d] = b->count[d];
    for (int64_t i = 0; i < c[0]; i++)
        for (int64_t j = 0; j < c[1]; j++)
            for (int64_t k = 0; k < c[2]; k++) {
                int64_t rel[3] = {i, j, k};
                for (int d = 0; d < o->ndims; d++)
                    idx[d] = b->start[d] + rel[d];
                out[n++] = flat(o, idx);
            }
    return n;
}

/* The elements of a step from its slabs (shared: global; fpp: the
 * process's own numbering mapped through mine). */
static int64_t step_elems(const struct oracle *o, const struct plan_step *s, bool fpp,
                          const int64_t *mine, int64_t *out)
{
    int64_t n = 0;
    const struct model_slab *sl = plan_slabs(s);
    for (int i = 0; i < s->nslabs; i++) {
        if (model_slab_elems(&sl[i]) == 0)
            continue;
        struct model_box b = {sl[i].ndims, {0}, {0}};
        for (int d = 0; d < sl[i].ndims; d++) {
            CHECK_I64(sl[i].count[d], 1);
            b.start[d] = sl[i].start[d];
            b.count[d] = sl[i].block[d];
        }
        if (fpp)
            for (int64_t k = 0; k < b.count[0]; k++)
                out[n++] = mine[b.start[0] + k];
        else
            n += box_elems(o, &b, out + n);
    }
    return n;
}

/* Every plan of process p over the adopted map (one decomposition). */
static void check_plans(const struct oracle *o, const struct map_input *in, int p)
{
    int64_t mine[MAXE], nmine = 0;
    for (int64_t i = 0; i < o->n; i++)
        if (o->owner[i] == p)
            mine[nmine++] = i;
    for (int layout = 0; layout < 2; layout++)
        for (int xi = 0; xi < 4; xi++) {
            static const int64_t xfers[] = {0, 8, 24, 56};
            struct config c;
            memset(&c, 0, sizeof c);
            c.elem = 8;
            c.nvars = 2;
            c.transfer_size = xfers[xi];
            struct run_point pt = {.nprocs = o->nprocs,
                                   .api = API_POSIX,
                                   .layout = layout ? LAYOUT_FPP : LAYOUT_SHARED,
                                   .input = in};
            struct plan plan;
            CHECK(map_plan(&c, &pt, p, 0, &plan) == 0);
            CHECK_I64(plan.nvars, 2);
            unsigned char *buf = malloc((size_t)(plan.buffer_bytes > 0 ? plan.buffer_bytes : 1));
            for (int v = 0; v < 2; v++) {
                struct plan_access acc;
                plan_access(&plan, 0, v, &acc);
                CHECK_I64(acc.nsteps, map_nsteps(&in->d[0], 8, xfers[xi]));
                if (xfers[xi] == 0)
                    CHECK_I64(acc.nsteps, 1);
                plan.ops->fill(&plan, 0, v, buf, false);
                int64_t got[MAXE], ngot = 0, mem = 0;
                for (int64_t k = 0; k < acc.nsteps; k++) {
                    struct plan_step s;
                    plan_step(&plan, 0, v, k, &s);
                    CHECK_I64(s.mem_off, mem);
                    CHECK(xfers[xi] == 0 || s.bytes <= xfers[xi]);
                    int64_t n = step_elems(o, &s, layout == 1, mine, got + ngot);
                    CHECK_I64(n * 8, s.bytes);
                    CHECK_I64(runs_bytes(plan_runs(&s), s.nruns), s.bytes);
                    /* The runs: each element at its place in the file. */
                    for (int64_t q = 0; q < n; q++) {
                        int64_t off = plan_step_file_offset(&s, q * 8);
                        int64_t base = layout ? (int64_t)v * nmine * 8 : (int64_t)v * o->n * 8;
                        CHECK_I64(off, base + (layout ? ngot + q : got[ngot + q]) * 8);
                    }
                    int64_t bad = 0;
                    unsigned char want, found;
                    CHECK_I64(plan.ops->verify(&plan, 1, &s, buf, &bad, &want, &found), 0);
                    if (s.bytes > 0) {
                        buf[s.mem_off] ^= 1;
                        CHECK_I64(plan.ops->verify(&plan, 1, &s, buf, &bad, &want, &found), 1);
                        buf[s.mem_off] ^= 1;
                    }
                    ngot += n;
                    mem += s.bytes;
                }
                CHECK_I64(ngot, nmine);
                for (int64_t q = 0; q < ngot && q < nmine; q++)
                    CHECK_I64(got[q], mine[q]);
                /* Content: element i of variable v holds i + v * N. */
                for (int64_t q = 0; q < nmine; q++)
                    CHECK_I64(buf[q * 8], (unsigned char)(mine[q] + v * o->n));
            }
            free(buf);
            map_plan_release(&plan);
        }
}

/* The bytes divided as setup sends them (map_input_parts(), one process
 * more than the map's): each process's part, adopted, holds its own boxes
 * only, the same as the whole map's, with every process's figures, and
 * makes the same plans; the process past the map's holds no box. */
static void check_parts(const struct oracle *o, const unsigned char *bytes, size_t len,
                        const struct map_input *whole)
{
    size_t common = 0, ends[8];
    struct config c;
    struct cli_msg m;
    memset(&c, 0, sizeof c);
    CHECK(map_input_parts(bytes, len, o->nprocs, &common, ends) == 0);
    CHECK(map_input_parts(bytes, len, o->nprocs + 1, &common, ends) == 0);
    CHECK_I64((int64_t)ends[o->nprocs], (int64_t)len);
    for (int p = 0; p <= o->nprocs; p++) {
        size_t from = p ? ends[p - 1] : common, n = ends[p] - from;
        unsigned char *own = malloc(common + n + 1);
        memcpy(own, bytes, common);
        memcpy(own + common, bytes + from, n);
        void *v = NULL;
        CHECK(map_adopt_part(&c, p, own, common + n, &v, &m) == 0);
        const struct map_input *in = v;
        const struct map_decomp *d = &in->d[0], *w = &whole->d[0];
        /* A part given as that of a process of another number of boxes is
         * refused. */
        int next = (p + 1) % (o->nprocs + 1);
        int64_t other = next < o->nprocs ? w->first[next + 1] - w->first[next] : 0;
        void *bad = NULL;
        if (other * (int64_t)sizeof(struct model_box) != (int64_t)n)
            CHECK(map_adopt_part(&c, next, own, common + n, &bad, &m) < 0);
        map_input_release(bad);
        free(own);
        CHECK_I64(d->total, w->total);
        CHECK_I64(d->most, w->most);
        CHECK_I64(d->end, w->end);
        CHECK(d->several == w->several && d->multi == w->multi);
        for (int q = 0; q < o->nprocs; q++) {
            CHECK_I64(d->first[q + 1], w->first[q + 1]);
            CHECK_I64(d->count[q], w->count[q]);
            CHECK_I64(d->runs[q], w->runs[q]);
            const struct model_box *got = map_boxes(in, 0, q);
            CHECK((got != NULL) == (q == p));
            int64_t nb = w->first[q + 1] - w->first[q];
            if (got && nb > 0)
                CHECK(memcmp(got, map_boxes(whole, 0, q), (size_t)nb * sizeof *got) == 0);
        }
        if (p < o->nprocs)
            check_plans(o, in, p);
        map_input_release(v);
    }
}

static void check_random_map(void)
{
    struct oracle o;
    memset(&o, 0, sizeof o);
    o.nprocs = 1 + (int)rnd(5);
    o.ndims = 1 + (int)rnd(3);
    static const int64_t sides[3][3] = {{40, 1, 1}, {8, 7, 1}, {4, 3, 5}};
    for (int d = 0; d < o.ndims; d++)
        o.dims[d] = 1 + rnd(sides[o.ndims - 1][d]);
    o.n = model_product(o.ndims, o.dims);
    for (int64_t i = 0; i < o.n; i++)
        o.owner[i] = -1;
    struct map_builder b;
    char why[1024] = "";
    map_builder_init(&b, "text", true);
    b.nprocs = o.nprocs;
    CHECK(map_builder_decomp(&b, o.ndims, o.dims, why, sizeof why) == 0);
    int nentries = (int)rnd(2 * o.nprocs + 2);
    for (int i = 0; i < nentries; i++) {
        struct map_entry e = random_entry(&o, (int)rnd(o.nprocs), i + 3);
        CHECK(map_builder_add(&b, &e, why, sizeof why) == 0);
    }
    bool overlap = false;
    for (int64_t i = 0; i < o.n; i++)
        overlap |= o.owner[i] == -2;
    unsigned char *bytes = NULL;
    size_t len = 0;
    int rc = map_builder_finish(&b, &bytes, &len, why, sizeof why);
    map_builder_release(&b);
    CHECK_I64(rc, overlap ? -1 : 0);
    CHECK(!overlap || strstr(why, " overlaps ") != NULL);
    if (rc < 0)
        return;
    struct config c;
    struct cli_msg m;
    void *in = NULL;
    memset(&c, 0, sizeof c);
    CHECK(map_adopt(&c, bytes, len, &in, &m) == 0);
    check_parts(&o, bytes, len, in);
    free(bytes);
    const struct map_decomp *d = &((struct map_input *)in)->d[0];
    for (int p = 0; p < o.nprocs; p++) {
        int64_t all[MAXE], n = 0, last = -1;
        for (int64_t i = d->first[p]; i < d->first[p + 1]; i++) {
            int64_t k = box_elems(&o, &d->boxes[i], all + n);
            CHECK(all[n] > last); /* each box after the one before, in C order */
            last = all[n + k - 1];
            n += k;
        }
        int64_t want = 0;
        for (int64_t i = 0; i < o.n; i++)
            want += o.owner[i] == p;
        CHECK_I64(n, want);
        CHECK_I64(d->count[p], want);
        for (int64_t i = 1; i < n; i++)
            CHECK(all[i] > all[i - 1]);
        for (int64_t i = 0; i < n; i++)
            CHECK_I64(o.owner[all[i]], p);
        check_plans(&o, in, p);
    }
    map_input_release(in);
}

int main(void)
{
    check_text_refusals();
    for (int i = 0; i < 3000; i++)
        check_random_map();
    return check_done("test_map");
}
