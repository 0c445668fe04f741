/* libFuzzer target for the map pattern's text format (src/pattern/map_text.c,
 * docs/map.md): the input is a map file. map_text_parse(), then
 * map_builder_finish() and map_adopt() (the whole map; the last process's
 * part alone, as setup sends it, too);
 * a refusal must be one line starting "line N: " (or the map's own
 * words), and an accepted map must keep its promises, checked here
 * without the parser's code: every box inside its array and after the
 * one before in C order, no element of a small array held twice, and the
 * plans of its first and last processes (shared and fpp, with and without
 * --transfer-size) inside their buffers, variables and files. No MPI. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/runs_bytes.h"
#include "pattern/map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Larger maps are parsed but not built: their arrays of every process's
 * boxes would only measure memory. */
#define FUZZ_MAX_PROCS 4096
/* Arrays up to this many elements are checked element by element. */
#define FUZZ_SMALL (1 << 16)

static void check_why(const char *why, size_t cap)
{
    size_t len = strnlen(why, cap);
    if (len == 0 || len == cap || strchr(why, '\n') != NULL)
        abort();
    long long line = 0;
    bool lined = sscanf(why, "line %lld: ", &line) == 1 && line >= 1;
    bool whole = strncmp(why, "has no ", 7) == 0 || strncmp(why, "declares no ", 12) == 0 ||
                 strncmp(why, "out of memory", 13) == 0 || strncmp(why, "D", 1) == 0;
    if (!lined && !whole)
        abort();
}

static int64_t elem_of(const struct map_decomp *d, const int64_t *idx)
{
    int64_t at = 0;
    for (int k = 0; k < d->ndims; k++)
        at = at * d->dims[k] + idx[k];
    return at;
}

/* Boxes inside the array, in C order per process; a small array's
 * elements held once at most. */
static void check_decomp(const struct map_input *in, const struct map_decomp *d)
{
    unsigned char *seen = d->elems <= FUZZ_SMALL ? calloc((size_t)d->elems, 1) : NULL;
    for (int p = 0; p < in->nprocs; p++) {
        int64_t last = -1, count = 0;
        for (int64_t i = d->first[p]; i < d->first[p + 1]; i++) {
            const struct model_box *b = &d->boxes[i];
            int64_t lo[MODEL_MAX_DIMS] = {0}, hi[MODEL_MAX_DIMS] = {0}, n = 1;
            for (int k = 0; k < d->ndims; k++) {
                if (b->start[k] < 0 || b->count[k] < 1 || b->start[k] + b->count[k] > d->dims[k])
                    abort();
                lo[k] = b->start[k];
                hi[k] = b->start[k] + b->count[k] - 1;
                n *= b->count[k];
            }
            if (elem_of(d, lo) <= last)
                abort();
            last = elem_of(d, hi);
            count += n;
            for (int64_t e = 0; seen && e < n; e++) {
                int64_t idx[MODEL_MAX_DIMS], rest = e;
                for (int k = d->ndims - 1; k >= 0; k--) {
                    idx[k] = b->start[k] + rest % b->count[k];
                    rest /= b->count[k];
                }
                if (seen[elem_of(d, idx)]++)
                    abort();
            }
        }
        if (count != d->count[p])
            abort();
    }
    free(seen);
}

/* Every step of every variable of process rank's plan, where the
 * pattern's validate() takes the map (4-byte elements, one variable). */
static void check_plan(const struct map_input *in, int rank, int layout, int64_t xfer)
{
    struct config c;
    struct cli_msg m;
    memset(&c, 0, sizeof c);
    c.elem = 4;
    c.nvars = 1;
    c.transfer_size = xfer;
    c.spelled[OPT_TRANSFER_SIZE] = "--transfer-size";
    c.raw[OPT_TRANSFER_SIZE] = "12";
    struct run_point pt = {.nprocs = in->nprocs, .api = API_POSIX, .layout = layout, .input = in};
    if (pattern_map.validate(&c, &pt, 1, &m) != 0) {
        if (strncmp(m.line, "h5perf: ", 8) != 0 || strchr(m.line, '\n'))
            abort();
        return;
    }
    struct plan p;
    if (map_plan(&c, &pt, rank, 0, &p) != 0)
        return; /* out of memory */
    for (int v = 0; v < p.nvars; v++) {
        struct plan_var var;
        struct plan_access acc;
        plan_var(&p, v, &var);
        plan_access(&p, 0, v, &acc);
        int64_t moved = 0;
        for (int64_t k = 0; k < acc.nsteps && k < 4096; k++) {
            struct plan_step s;
            plan_step(&p, 0, v, k, &s);
            if (s.mem_off != moved || s.bytes < 0 || s.mem_off + s.bytes > p.buffer_bytes ||
                runs_bytes(plan_runs(&s), s.nruns) != s.bytes)
                abort();
            for (int i = 0; i < s.nslabs; i++)
                for (int k2 = 0; k2 < var.ndims; k2++)
                    if (plan_slabs(&s)[i].start[k2] + plan_slabs(&s)[i].block[k2] > var.dims[k2])
                        abort();
            for (int64_t r = 0; r < plan_step_runs(&s); r++) {
                int64_t off, len;
                plan_step_run(&s, r, &off, &len);
                if (off < 0 || len < 0 || off + len > p.flat_bytes)
                    abort();
            }
            moved += s.bytes;
        }
    }
    map_plan_release(&p);
}

/* The last process's part of bytes, divided and adopted as setup and that
 * process do: the same boxes and figures as the whole map's. */
static void check_part(const unsigned char *bytes, size_t len, const struct map_input *whole)
{
    int p = whole->nprocs - 1;
    size_t common = 0, *ends = malloc((size_t)whole->nprocs * sizeof *ends);
    if (!ends || map_input_parts(bytes, len, whole->nprocs, &common, ends) != 0 || ends[p] != len)
        abort();
    size_t from = p ? ends[p - 1] : common, n = len - from;
    unsigned char *own = malloc(common + n + 1);
    if (!own)
        abort();
    memcpy(own, bytes, common);
    memcpy(own + common, bytes + from, n);
    struct config c;
    struct cli_msg m;
    void *part = NULL;
    memset(&c, 0, sizeof c);
    if (map_adopt_part(&c, p, own, common + n, &part, &m) != 0)
        abort();
    const struct map_input *in = part;
    for (int k = 0; k < in->ndecomps; k++) {
        const struct map_decomp *d = &in->d[k], *w = &whole->d[k];
        int64_t nb = w->first[p + 1] - w->first[p];
        if (d->first[p + 1] - d->first[p] != nb || d->count[p] != w->count[p] ||
            d->total != w->total || d->end != w->end || (p > 0 && map_boxes(in, k, 0)) ||
            (nb > 0 && memcmp(map_boxes(in, k, p), map_boxes(whole, k, p),
                              (size_t)nb * sizeof(struct model_box)) != 0))
            abort();
    }
    map_input_release(part);
    free(own);
    free(ends);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct map_builder b;
    char why[1024] = "";
    map_builder_init(&b, "text", true);
    int rc = map_text_parse((const char *)data, size, &b, why, sizeof why);
    unsigned char *bytes = NULL;
    size_t len = 0;
    if (rc == 0 && b.nprocs > FUZZ_MAX_PROCS) {
        map_builder_release(&b);
        return 0;
    }
    if (rc == 0)
        rc = map_builder_finish(&b, &bytes, &len, why, sizeof why);
    map_builder_release(&b);
    if (rc != 0) {
        check_why(why, sizeof why);
        return 0;
    }
    struct config c;
    struct cli_msg m;
    void *input = NULL;
    memset(&c, 0, sizeof c);
    if (map_adopt(&c, bytes, len, &input, &m) != 0)
        abort();
    const struct map_input *in = input;
    check_part(bytes, len, in);
    free(bytes);
    for (int k = 0; k < in->ndecomps; k++)
        check_decomp(in, &in->d[k]);
    /* --transfer-size 12 (3 elements) where the calls stay few enough to
     * walk them quickly. */
    bool few = true;
    for (int k = 0; k < in->ndecomps; k++)
        few &= in->d[k].most / 3 < FUZZ_SMALL;
    int ranks[2] = {0, in->nprocs - 1};
    for (int i = 0; i < 2; i++)
        for (int layout = 0; layout < 2; layout++) {
            check_plan(in, ranks[i], layout ? LAYOUT_FPP : LAYOUT_SHARED, 0);
            if (few)
                check_plan(in, ranks[i], layout ? LAYOUT_FPP : LAYOUT_SHARED, 12);
        }
    map_input_release(input);
    return 0;
}
