/* The backend conformance driver (docs/design.md, "Adding an API"): one
 * backend of this build carries out the same small plans, written then
 * read back and verified through the engine's phase (engine/phase.h), the
 * file kept for an independent reader (tests/mpi/conformance.py). The
 * plans are the test's own, not a pattern's: a 4 x 6 array of 4-byte
 * unsigned integers in two variables, element i of variable v holding
 * i + 24 v, each process's selection one of:
 *   box     its rows, in one call
 *   boxes   every P-th row, several slabs and runs in one call
 *   ranges  its columns, moved in three calls of C-order ranges
 *   empty   process 0 the whole array, the others nothing (still calling)
 *   flat    flat extents only, interleaved 8-byte pieces (flat APIs)
 * Usage: mpiexec -n P conform API CASE ind|coll DIR; exit 0, 1 (a
 * failure, with its lines), 2 (usage), 77 (the API is not built, or the
 * case does not apply to it). */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "engine/agree.h"
#include "engine/files.h"
#include "engine/phase.h"

#define ROWS  4
#define COLS  6
#define ELEM  4
#define NVARS 2
#define ELEMS (ROWS * COLS)

enum conform_case { BOX, BOXES, RANGES, EMPTY, FLAT };
static const char *const case_names[] = {"box", "boxes", "ranges", "empty", "flat"};

struct conform_state {
    enum conform_case kind;
    int rank, nprocs;
    struct model_box box; /* box, ranges, empty: the process's box */
};

static const struct conform_state *state_of(const struct plan *p)
{
    return (const struct conform_state *)p->state.bytes;
}

static void conform_var(const struct plan *p, int v, struct plan_var *out)
{
    (void)p;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "c%d", v);
    out->kind = PLAN_UNSIGNED;
    out->elem = ELEM;
    out->ndims = 2;
    out->dims[0] = ROWS;
    out->dims[1] = COLS;
}

static int64_t var_base(int v)
{
    return (int64_t)v * ELEMS * ELEM;
}

/* The C-order runs of a box of the array in variable v. */
static struct model_runs box_runs(const struct model_box *b, int v)
{
    struct model_storage st = {2, {ROWS, COLS, 0}, {0, 0, 0}};
    struct model_runs r;
    if (model_box_runs(&st, b, &r) < 0)
        return plan_run(var_base(v), 0);
    return (struct model_runs){.disp = var_base(v) + r.disp * ELEM,
                               .len = r.len * ELEM,
                               .count = {r.count[0], r.count[1]},
                               .stride = {r.stride[0] * ELEM, r.stride[1] * ELEM}};
}

/* The process's rows of the boxes case: r, r + P, ... */
static int boxes_rows(const struct conform_state *st)
{
    return (ROWS - st->rank + st->nprocs - 1) / st->nprocs;
}

static int64_t conform_elems(const struct conform_state *st)
{
    if (st->kind == BOXES)
        return (int64_t)boxes_rows(st) * COLS;
    if (st->kind == FLAT)
        return ELEMS / st->nprocs;
    return model_product(2, st->box.count);
}

static void conform_access(const struct plan *p, int phase, int v, struct plan_access *out)
{
    const struct conform_state *st = state_of(p);
    (void)phase, (void)v;
    memset(out, 0, sizeof *out);
    out->nsteps = st->kind == RANGES ? 3 : 1;
    out->array_base = st->kind == FLAT ? -1 : var_base(v);
    out->view_any = st->kind != BOX && st->kind != EMPTY;
    if (st->kind == BOX || st->kind == RANGES || st->kind == EMPTY) {
        out->nwhole = out->nwhole_runs = 1;
        model_slab_of_box(&st->box, &out->whole_local_slabs[0]);
        out->whole_local_runs[0] = box_runs(&st->box, v);
    }
}

static void conform_step(const struct plan *p, int phase, int v, int64_t k, struct plan_step *out)
{
    const struct conform_state *st = state_of(p);
    plan_step_empty(out, p->phases[phase].write, v, k);
    int64_t n = conform_elems(st);
    out->bytes = n * ELEM;
    if (st->kind == BOXES) {
        for (int i = 0; i < boxes_rows(st); i++) {
            struct model_box row = {2, {st->rank + (int64_t)i * st->nprocs, 0}, {1, COLS}};
            model_slab_of_box(&row, &out->local_slabs[i]);
            out->local_runs[i] = box_runs(&row, v);
        }
        out->nslabs = out->nruns = boxes_rows(st);
        return;
    }
    if (st->kind == FLAT) {
        /* Interleaved pieces of 2 elements: piece j of process r at
         * (j * P + r) * 8 bytes. */
        out->nruns = 1;
        out->local_runs[0] = (struct model_runs){.disp = var_base(v) + st->rank * 2 * ELEM,
                                                 .len = 2 * ELEM,
                                                 .count = {1, n / 2},
                                                 .stride = {0, (int64_t)st->nprocs * 2 * ELEM}};
        return;
    }
    /* box, empty: one call; ranges: a third of the box (and the rest) per
     * call, in its C order. */
    int64_t per = st->kind == RANGES ? (n + 2) / 3 : n, first = k * per;
    int64_t count = first + per > n ? n - first : per;
    struct model_box parts[MODEL_RANGE_BOXES];
    int nb = count > 0 ? model_box_range(&st->box, first, count, parts) : 0;
    for (int i = 0; i < nb; i++) {
        model_slab_of_box(&parts[i], &out->local_slabs[i]);
        out->local_runs[i] = box_runs(&parts[i], v);
    }
    if (nb == 0) {
        struct model_box none = st->box;
        none.count[0] = 0;
        model_slab_of_box(&none, &out->local_slabs[0]);
        out->local_runs[0] = plan_run(var_base(v), 0);
        nb = 1;
    }
    out->nslabs = out->nruns = nb;
    out->mem_off = first * ELEM;
    out->bytes = count > 0 ? count * ELEM : 0;
}

/* Element i of variable v: i + 24 v, little-endian; memory holds the
 * selection's elements in order (their global indexes, index()). */
static int64_t conform_index(const struct conform_state *st, int64_t m)
{
    if (st->kind == BOXES)
        return (st->rank + m / COLS * st->nprocs) * COLS + m % COLS;
    if (st->kind == FLAT)
        return (m / 2 * st->nprocs + st->rank) * 2 + m % 2;
    return (st->box.start[0] + m / st->box.count[1]) * COLS + st->box.start[1] +
           m % st->box.count[1];
}

static void conform_fill(const struct plan *p, int phase, int v, unsigned char *buf, bool poison)
{
    const struct conform_state *st = state_of(p);
    (void)phase;
    for (int64_t m = 0; m < conform_elems(st); m++) {
        uint32_t x = (uint32_t)(conform_index(st, m) + (int64_t)v * ELEMS);
        for (int b = 0; b < ELEM; b++, x >>= 8)
            buf[m * ELEM + b] = (unsigned char)(poison ? ~x : x);
    }
}

static int64_t conform_verify(const struct plan *p, int phase, const struct plan_step *s,
                              const unsigned char *buf, int64_t *bad_off, unsigned char *expected,
                              unsigned char *found)
{
    const struct conform_state *st = state_of(p);
    unsigned char want[ELEMS * ELEM];
    int64_t bad = 0;
    conform_fill(p, phase, s->var, want, false);
    for (int64_t i = s->mem_off; i < s->mem_off + s->bytes; i++)
        if (buf[i] != want[i] && bad++ == 0) {
            *bad_off = i - s->mem_off;
            *expected = want[i];
            *found = buf[i];
        }
    (void)st;
    return bad;
}

static const struct plan_ops conform_ops = {
    .var = conform_var,
    .access = conform_access,
    .step = conform_step,
    .fill = conform_fill,
    .verify = conform_verify,
};

static void conform_plan(struct plan *p, enum conform_case kind, int rank, int nprocs)
{
    struct conform_state st = {.kind = kind, .rank = rank, .nprocs = nprocs};
    int64_t rows = ROWS / nprocs, cols = COLS / nprocs;
    if (kind == BOX)
        st.box = (struct model_box){2, {rank * rows, 0}, {rows, COLS}};
    else if (kind == RANGES)
        st.box = (struct model_box){2, {0, rank * cols}, {ROWS, cols}};
    else if (kind == EMPTY)
        st.box = (struct model_box){2, {0, 0}, {rank == 0 ? ROWS : 0, COLS}};
    memset(p, 0, sizeof *p);
    p->ops = &conform_ops;
    p->nprocs = nprocs;
    p->exec_rank = p->data_rank = rank;
    p->nfiles = 1;
    p->nvars = NVARS;
    p->nphases = 2;
    p->phases[0] = (struct plan_phase){"write", true, 0};
    p->phases[1] = (struct plan_phase){"read", false, 1};
    p->buffer_bytes = ELEMS * ELEM;
    p->fill_per_var = true;
    p->flat_bytes = NVARS * ELEMS * ELEM;
    p->exact_source = true;
    memcpy(p->state.bytes, &st, sizeof st);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nprocs, status = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    int api = argc == 5 ? api_find(argv[1], strlen(argv[1])) : -1, kind = -1;
    for (int k = 0; argc == 5 && k < 5; k++)
        kind = strcmp(argv[2], case_names[k]) == 0 ? k : kind;
    if (api < 0 || kind < 0 || ROWS % nprocs || COLS % nprocs) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 1|2 conform API box|boxes|ranges|empty|flat "
                            "ind|coll DIR\n");
        MPI_Finalize();
        return 2;
    }
    const struct backend_ops *ops = backend_get((enum api_id)api);
    if (!ops || (kind == FLAT && !(ops->desc->caps & API_CAP_FLAT_FILE))) {
        if (rank == 0)
            printf("SKIP: %s\n", !ops ? "not in this build" : "flat extents only for flat APIs");
        MPI_Finalize();
        return 77;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    char path[4096];
    snprintf(path, sizeof path, "%s/conform-%s%s", argv[4], argv[2], ops->desc->suffix);
    char *paths[1] = {path};
    files_init(1, paths, true, rank == 0);
    struct plan plan;
    conform_plan(&plan, (enum conform_case)kind, rank, nprocs);
    struct backend_settings set = {
        .collective = strcmp(argv[3], "coll") == 0, .align = 1, .threshold = 1};
    struct backend_ctx ctx = {MPI_COMM_WORLD, MPI_INFO_NULL, rank, nprocs, &set};
    unsigned char *buf = malloc(ELEMS * ELEM);
    double t[PHASE_TIMERS] = {0};
    struct verify_state v = {0};
    for (int ph = 0; ph < 2 && status == 0; ph++) {
        struct err e;
        err_clear(&e);
        struct latency_hist lat[2 * LATENCY_CALLS];
        static struct latency_log tlog[2];
        for (int c = 0; c < 2 * LATENCY_CALLS; c++)
            latency_clear(&lat[c]);
        struct phase_io io = {.ops = ops,
                              .ctx = &ctx,
                              .plan = &plan,
                              .phase = ph,
                              .slot = 0,
                              .path = path,
                              .buf = buf,
                              .verify = ph == 1,
                              .agree = MPI_COMM_WORLD,
                              .clock = MPI_Wtime,
                              .lat = lat,
                              .tlog = tlog};
        if (!phase_run(&io, t, &v, &e)) {
            agree_report(MPI_COMM_WORLD, &e, rank, stderr, NULL);
            status = 1;
        }
    }
    int64_t bad = v.bad, all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (v.bad)
        fprintf(stderr,
                "conform: rank %d: %lld bytes read back differ, the first at offset "
                "%lld: expected %u, found %u\n",
                rank, (long long)v.bad, (long long)v.first_offset, v.expected, v.found);
    if (all && status == 0)
        status = 1;
    free(buf);
    files_release();
    MPI_Finalize();
    return status;
}
