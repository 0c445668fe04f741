/* session.h: the sweep listed, validated and measured once. */
#include "session/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sweep.h"

/* Is the file of point p each process's own? */
static bool session_per_process(const struct run_point *p)
{
    const struct layout_desc *l = layout_desc(p->layout);
    return l && l->per_process;
}

/* The pattern's point p once per variant of its API that c chooses (those
 * for shared files only replaced, in a file per process, by what such a
 * file runs), into out (when not NULL); returns how many. */
static int session_variants(const struct config *c, const struct run_point *p,
                            struct run_point *out)
{
    unsigned chosen = api_variants(c->api, p->api), done = 0;
    int n = 0;
    for (int v = 0; v < 32; v++) {
        if (!(chosen >> v & 1u))
            continue;
        int run = session_per_process(p) ? api_variant_per_process(p->api, v) : v;
        if (done >> run & 1u)
            continue;
        done |= 1u << run;
        if (out) {
            out[n] = *p;
            out[n].variant = run;
        }
        n++;
    }
    return n;
}

/* The points of one process count: the pattern's, each in the variants
 * of its API, into out (when not NULL). Returns how many. */
static int session_count_points(const struct config *c, const struct pattern_desc *pd, int p,
                                const int grid[MODEL_MAX_DIMS], struct run_point *out)
{
    int n = pd->points(c, p, grid, NULL, 0), total = 0;
    struct run_point *mine = calloc((size_t)(n > 0 ? n : 1), sizeof *mine);
    if (!mine)
        return -1;
    pd->points(c, p, grid, mine, n);
    for (int i = 0; i < n; i++)
        total += session_variants(c, &mine[i], out ? out + total : NULL);
    free(mine);
    return total;
}

/* The points of every process count, in run order (counts from -P down). */
static int session_points(struct session *s, pattern_dims_fn dims, struct cli_msg *m)
{
    const struct config *c = s->cfg;
    int total = 0, ndims = s->pattern->grid_dims(c);
    struct run_point *pts = NULL;
    for (int pass = 0; pass < 2; pass++) {
        int n = 0;
        s->ncounts = 0;
        for (int p = sweep_procs_first(c); p != 0 && s->ncounts < CONFIG_MAX_SWEEP;
             p = sweep_procs_next(c, p)) {
            int grid[MODEL_MAX_DIMS] = {0, 0, 0};
            if (ndims > 0)
                dims(p, ndims, grid);
            struct session_count *k = &s->counts[s->ncounts++];
            k->nprocs = p;
            k->first = n;
            k->n = 0;
            /* --buffer-offset: every point of the count again with each value. */
            for (int o = 0; o < (c->nbuf_offset ? c->nbuf_offset : 1); o++) {
                int got = session_count_points(c, s->pattern, p, grid, pts ? pts + n : NULL);
                if (got < 0) {
                    free(pts);
                    return cli_fail(m, "h5perf: out of memory for the runs of the sweep");
                }
                for (int i = 0; pts && i < got; i++)
                    pts[n + i].buf_offset = c->nbuf_offset ? c->buf_offsets[o] : 0;
                n += got;
                k->n += got;
            }
        }
        if (pass == 0) {
            total = n;
            pts = calloc((size_t)(total > 0 ? total : 1), sizeof *pts);
            if (!pts)
                return cli_fail(m, "h5perf: out of memory for the %d runs of the sweep", total);
        }
    }
    s->points = calloc((size_t)(total > 0 ? total : 1), sizeof *s->points);
    if (!s->points) {
        free(pts);
        return cli_fail(m, "h5perf: out of memory for the %d runs of the sweep", total);
    }
    s->npoints = total;
    for (int i = 0; i < total; i++) {
        pts[i].input = s->input;
        s->points[i].p = pts[i];
    }
    int rc = s->pattern->validate(c, pts, total, m);
    free(pts);
    return rc;
}

/* ", buffer offset N" after a label, with --buffer-offset. */
static void session_label_offset(const struct config *c, const struct run_point *p, char *buf,
                                 size_t len)
{
    size_t at = strlen(buf);
    if (c->nbuf_offset && at < len)
        snprintf(buf + at, len - at, ", buffer offset %lld", (long long)p->buf_offset);
}

/* The pattern's words for point sp, each followed by its variant's
 * ("layout shared, subfiled"). */
static void session_labels(const struct config *c, const struct pattern_desc *pd,
                           struct session_point *sp)
{
    char text[320];
    enum api_id api = sp->p.api;
    int v = sp->p.variant;
    pd->label(c, &sp->p, false, text, sizeof text);
    api_variant_text(api, v, text, sp->label, sizeof sp->label);
    pd->label(c, &sp->p, true, text, sizeof text);
    api_variant_text(api, v, text, sp->label_exact, sizeof sp->label_exact);
    pd->lead(c, &sp->p, text, sizeof text);
    api_variant_text(api, v, text, sp->lead, sizeof sp->lead);
    if (pd->chunk_lead)
        pd->chunk_lead(c, &sp->p, text, sizeof text);
    api_variant_text(api, v, text, sp->chunk_lead, sizeof sp->chunk_lead);
}

/* A variant that moves every variable of a file in one call holds a
 * buffer per variable (api_variant_buffer()). */
static void session_joined(struct session_point *sp, int64_t *buffers, int nprocs)
{
    for (int r = 0; r < nprocs; r++)
        buffers[r] = api_variant_buffer(sp->p.api, sp->p.variant, buffers[r], sp->m.nvars);
    sp->m.max_buffer = api_variant_buffer(sp->p.api, sp->p.variant, sp->m.max_buffer, sp->m.nvars);
}

/* Labels and measures of every point; each count's buffers. */
static int session_measure(struct session *s, struct cli_msg *m)
{
    const struct config *c = s->cfg;
    const struct pattern_desc *pd = s->pattern;
    for (int k = 0; k < s->ncounts; k++) {
        struct session_count *sc = &s->counts[k];
        /* Every process's buffer at one point, while it is measured: the
         * patterns' measure() gives them all; the count keeps this
         * process's alone. */
        int64_t *mine = calloc((size_t)sc->nprocs, sizeof *mine);
        if (!mine)
            return cli_fail(m, "h5perf: out of memory for the buffers of %d processes", sc->nprocs);
        for (int i = sc->first; i < sc->first + sc->n; i++) {
            struct session_point *sp = &s->points[i];
            session_labels(c, pd, sp);
            session_label_offset(c, &sp->p, sp->label, sizeof sp->label);
            session_label_offset(c, &sp->p, sp->label_exact, sizeof sp->label_exact);
            session_label_offset(c, &sp->p, sp->lead, sizeof sp->lead);
            pd->measure(c, &sp->p, &sp->m, mine);
            session_joined(sp, mine, sc->nprocs);
            /* A buffer that starts past a page boundary reaches that far further. */
            sp->m.max_buffer += sp->p.buf_offset;
            for (int r = 0; r < sc->nprocs; r++)
                mine[r] += sp->p.buf_offset;
            sp->m.smaller_chunks = pd->smaller_chunks;
            if (s->own >= 0 && s->own < sc->nprocs && mine[s->own] > sc->own_buffer)
                sc->own_buffer = mine[s->own];
            if (sp->m.max_buffer > sc->max_buffer)
                sc->max_buffer = sp->m.max_buffer;
        }
        free(mine);
    }
    return 0;
}

int session_build_input(struct session *s, const struct config *c, const unsigned char *input,
                        size_t len, pattern_dims_fn dims, struct cli_msg *m)
{
    return session_build_part(s, c, input, len, -1, -1, dims, m);
}

int session_build_part(struct session *s, const struct config *c, const unsigned char *input,
                       size_t len, int part, int own, pattern_dims_fn dims, struct cli_msg *m)
{
    memset(s, 0, sizeof *s);
    s->cfg = c;
    s->own = own;
    s->pattern = pattern_of(c);
    if (input && s->pattern->adopt && s->pattern->adopt(c, part, input, len, &s->input, m) < 0) {
        s->input = NULL;
        return -1;
    }
    if (session_points(s, dims, m) < 0 || session_measure(s, m) < 0) {
        session_release(s);
        return -1;
    }
    return 0;
}

void session_release(struct session *s)
{
    free(s->points);
    s->points = NULL;
    if (s->input && s->pattern && s->pattern->input_release)
        s->pattern->input_release(s->input);
    s->input = NULL;
    s->npoints = s->ncounts = 0;
}

const struct session_point *session_largest_file(const struct session *s)
{
    const struct session_point *best = NULL;
    for (int i = 0; i < s->npoints; i++)
        if (!best || s->points[i].m.flat_bytes > best->m.flat_bytes)
            best = &s->points[i];
    return best;
}
