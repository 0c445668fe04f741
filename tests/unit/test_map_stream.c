/* E3SM-IO maps streamed process by process (map_stream.c) against the same
 * maps read whole (map_e3sm.c and map_builder_finish()), through a fake of
 * the reading setup lends (an E3SM-IO map held in memory): random maps of
 * 1 to 6 processes and 1 to 3 arrays of 1 to 3 dimensions, with fill runs,
 * runs out of order, and at most one overlap. The streamed bytes (the
 * common part, then each process's part in turn) are the whole bytes; an
 * overlap is refused by both, with the same line for 1D arrays (for more
 * dimensions the whole way orders the two runs by the rows they are cut
 * into: the same element and runs, possibly the other way round). The
 * range reads never ask for a whole variable of more than one process.
 * Pure: no MPI. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "rnd.h"
#include "pattern/map.h"
#include "pattern/map_e3sm.h"

#define MAXD 3
#define MAXP 6
#define MAXR 256

/* An E3SM-IO map in memory. */
struct fake {
    int nd, np;
    int ndims[MAXD];
    int64_t dims[MAXD][MODEL_MAX_DIMS];
    int64_t nreqs[MAXD][MAXP], fill[MAXD][MAXP];
    bool has_fill;
    int64_t off[MAXD][MAXR], len[MAXD][MAXR], total[MAXD];
    /* What the stream sent, one after another. */
    unsigned char *sent;
    size_t nsent;
    int parts;
    int64_t most_read; /* the most values one range read asked for */
};

static int fake_dim(void *ctx, const char *name, int64_t *len, char *why, size_t wlen)
{
    struct fake *f = ctx;
    (void)why, (void)wlen;
    if (strcmp(name, "num_decomp") == 0)
        *len = f->nd;
    else if (strcmp(name, "decomp_nprocs") == 0)
        *len = f->np;
    else
        return 1;
    return 0;
}

static int fake_att(void *ctx, const char *name, int64_t *vals, int max, int *n, char *why,
                    size_t wlen)
{
    struct fake *f = ctx;
    int k = 0;
    (void)why, (void)wlen;
    if (sscanf(name, "D%d.dims", &k) != 1 || k < 1 || k > f->nd)
        return 1;
    *n = f->ndims[k - 1];
    for (int i = 0; i < *n && i < max; i++)
        vals[i] = f->dims[k - 1][i];
    return 0;
}

/* The values of variable name, and how many. */
static const int64_t *fake_values(struct fake *f, const char *name, int64_t *n)
{
    int k = 0;
    char what[32] = "";
    if (sscanf(name, "D%d.%31s", &k, what) != 2 || k < 1 || k > f->nd)
        return NULL;
    k--;
    *n = f->np;
    if (strcmp(what, "nreqs") == 0)
        return f->nreqs[k];
    if (strcmp(what, "fill_starts") == 0)
        return f->has_fill ? f->fill[k] : NULL;
    *n = f->total[k];
    if (strcmp(what, "offsets") == 0)
        return f->off[k];
    if (strcmp(what, "lengths") == 0)
        return f->len[k];
    return NULL;
}

static int fake_var(void *ctx, const char *name, int64_t *len, char *why, size_t wlen)
{
    (void)why, (void)wlen;
    return fake_values(ctx, name, len) ? 0 : 1;
}

static int fake_range(void *ctx, const char *name, int64_t start, int64_t n, int64_t *vals,
                      char *why, size_t wlen)
{
    struct fake *f = ctx;
    int64_t len = 0;
    const int64_t *v = fake_values(f, name, &len);
    if (!v || start < 0 || n < 0 || start + n > len) {
        snprintf(why, wlen, "bad range");
        return -1;
    }
    memcpy(vals, v + start, (size_t)n * sizeof *vals);
    f->most_read = n > f->most_read ? n : f->most_read;
    return 0;
}

static int fake_read(void *ctx, const char *name, int64_t *vals, int64_t n, char *why, size_t wlen)
{
    return fake_range(ctx, name, 0, n, vals, why, wlen);
}

static int fake_send(struct fake *f, const unsigned char *bytes, size_t len)
{
    unsigned char *grown = realloc(f->sent, f->nsent + len + 1);
    CHECK(grown != NULL);
    if (!grown)
        return -1;
    memcpy(grown + f->nsent, bytes, len);
    f->sent = grown;
    f->nsent += len;
    return 0;
}

static int fake_common(void *ctx, const unsigned char *bytes, size_t len, char *why, size_t wlen)
{
    struct fake *f = ctx;
    (void)why, (void)wlen;
    CHECK(f->nsent == 0 && f->parts == 0);
    return fake_send(f, bytes, len);
}

static int fake_part(void *ctx, int p, const unsigned char *bytes, size_t len, char *why,
                     size_t wlen)
{
    struct fake *f = ctx;
    (void)why, (void)wlen;
    CHECK_I64(p, f->parts);
    f->parts++;
    return fake_send(f, bytes, len);
}

static struct pattern_files fake_files(struct fake *f, bool stream)
{
    struct pattern_files files = {.ctx = f,
                                  .memory = -1,
                                  .memory_where = "",
                                  .dim = fake_dim,
                                  .att = fake_att,
                                  .var = fake_var,
                                  .var_read = fake_read,
                                  .var_range = fake_range};
    if (stream) {
        files.send_common = fake_common;
        files.send_part = fake_part;
    }
    return files;
}

/* A random map: each array's elements owned by a process or none, each
 * process's spans cut into runs, sometimes out of order; fill runs
 * anywhere after a process's written runs; and, if overlap, one run of one
 * element inside another process's (or its own) run. Returns whether it
 * has that overlap. */
static bool random_fake(struct fake *f, bool overlap)
{
    bool injected = false;
    memset(f, 0, sizeof *f);
    f->np = 1 + (int)rnd(MAXP);
    f->nd = 1 + (int)rnd(MAXD);
    f->has_fill = rnd(2);
    int victim = overlap ? (int)rnd(f->nd) : -1;
    for (int k = 0; k < f->nd; k++) {
        static const int64_t sides[3][3] = {{40, 1, 1}, {8, 7, 1}, {4, 3, 5}};
        f->ndims[k] = 1 + (int)rnd(3);
        for (int i = 0; i < f->ndims[k]; i++)
            f->dims[k][i] = 1 + rnd(sides[f->ndims[k] - 1][i]);
        int64_t n = model_product(f->ndims[k], f->dims[k]), owner[40 * 7];
        for (int64_t i = 0; i < n; i++)
            owner[i] = rnd(4) == 0 ? -1 : rnd(f->np);
        /* The overlap: element x, which its owner's run holds, in a run
         * of process q too (before or after its owner, or its owner). */
        int64_t x = -1, at = 0;
        int q = (int)rnd(f->np);
        for (int64_t tries = 0; k == victim && x < 0 && tries < 4 * n; tries++)
            x = owner[tries % n] >= 0 && rnd(n) == 0 ? tries % n : -1;
        for (int p = 0; p < f->np; p++) {
            int64_t first = at, next = 0;
            for (int64_t i = 0; i < n; i++) {
                if (i < next || owner[i] != p)
                    continue;
                next = i + 1;
                while (next < n && owner[next] == p && rnd(4))
                    next++;
                f->off[k][at] = i;
                f->len[k][at++] = next - i;
            }
            /* Written runs in any order, now and then. */
            for (int64_t i = first; rnd(3) == 0 && i + 1 < at; i++) {
                int64_t j = i + rnd(at - i), o = f->off[k][i], l = f->len[k][i];
                f->off[k][i] = f->off[k][j], f->len[k][i] = f->len[k][j];
                f->off[k][j] = o, f->len[k][j] = l;
            }
            if (x >= 0 && p == q) {
                int64_t where = first + rnd(at - first + 1);
                memmove(&f->off[k][where + 1], &f->off[k][where],
                        (size_t)(at - where) * sizeof f->off[k][0]);
                memmove(&f->len[k][where + 1], &f->len[k][where],
                        (size_t)(at - where) * sizeof f->len[k][0]);
                f->off[k][where] = x;
                f->len[k][where] = 1;
                at++;
                injected = true;
            }
            f->fill[k][p] = at - first;
            for (int64_t extra = f->has_fill ? rnd(3) : 0; extra > 0; extra--) {
                int64_t o = rnd(n);
                f->off[k][at] = o;
                f->len[k][at++] = 1 + rnd(n - o);
            }
            f->nreqs[k][p] = at - first;
        }
        f->total[k] = at;
    }
    return injected;
}

/* The map read whole, or streamed: its bytes into *bytes, or "" and why. */
static int read_map(struct fake *f, bool stream, unsigned char **bytes, size_t *len, char *why,
                    size_t wlen)
{
    struct pattern_files files = fake_files(f, stream);
    struct map_builder b;
    *bytes = NULL;
    *len = 0;
    why[0] = '\0';
    map_builder_init(&b, "E3SM-IO netCDF", false);
    int rc = stream ? map_e3sm_stream(&files, PATTERN_FILE_NETCDF, &b, why, wlen)
                    : map_e3sm_read(&files, PATTERN_FILE_NETCDF, &b, why, wlen);
    CHECK(rc != 1); /* a small array's bitmap is always streamed */
    if (rc == 0 && !stream)
        rc = map_builder_finish(&b, bytes, len, why, wlen);
    map_builder_release(&b);
    if (rc == 0 && stream) {
        *bytes = f->sent;
        *len = f->nsent;
        f->sent = NULL;
        CHECK_I64(f->parts, f->np);
    }
    return rc;
}

/* " at element N" of an overlap's line, and the two runs it names. */
static void overlap_parts(const char *why, char *runs, size_t rlen, const char **at)
{
    const char *o = strstr(why, " overlaps "), *a = strstr(why, " at element ");
    CHECK(o != NULL && a != NULL);
    *at = a ? a : "";
    if (!o || !a)
        return;
    char first[256], second[256];
    const char *colon = strstr(why, ": ");
    snprintf(first, sizeof first, "%.*s", (int)(o - colon - 2), colon + 2);
    snprintf(second, sizeof second, "%.*s", (int)(a - o - 10), o + 10);
    snprintf(runs, rlen, "%s|%s", strcmp(first, second) < 0 ? first : second,
             strcmp(first, second) < 0 ? second : first);
}

/* The same common part, and the same boxes after it (field by field: a
 * box's padding, and its dimensions past its own, are whatever its copy
 * held). */
static void check_same(const struct fake *f, const unsigned char *whole, size_t wlen,
                       const unsigned char *streamed, size_t slen)
{
    size_t common = 0, ends[MAXP];
    CHECK_I64((int64_t)slen, (int64_t)wlen);
    CHECK(map_input_parts(whole, wlen, f->np, &common, ends) == 0);
    if (slen != wlen || common == 0)
        return;
    CHECK(memcmp(whole, streamed, common) == 0);
    for (size_t at = common; at + sizeof(struct model_box) <= wlen;
         at += sizeof(struct model_box)) {
        struct model_box a, b;
        memcpy(&a, whole + at, sizeof a);
        memcpy(&b, streamed + at, sizeof b);
        CHECK_I64(b.ndims, a.ndims);
        for (int i = 0; i < a.ndims && i < MODEL_MAX_DIMS; i++) {
            CHECK_I64(b.start[i], a.start[i]);
            CHECK_I64(b.count[i], a.count[i]);
        }
    }
}

static void check_random(void)
{
    struct fake f;
    bool overlap = random_fake(&f, rnd(3) == 0);
    unsigned char *whole = NULL, *streamed = NULL;
    size_t wlen = 0, slen = 0;
    char wwhy[1024], swhy[1024];
    int wrc = read_map(&f, false, &whole, &wlen, wwhy, sizeof wwhy);
    f.most_read = 0;
    int src = read_map(&f, true, &streamed, &slen, swhy, sizeof swhy);
    free(f.sent);
    CHECK_I64(src, wrc);
    CHECK_I64(wrc, overlap ? -1 : 0);
    /* One process's runs at a time (the counts, P values, aside). */
    int64_t most = f.np;
    for (int k = 0; k < f.nd; k++)
        for (int p = 0; p < f.np; p++)
            most = f.nreqs[k][p] > most ? f.nreqs[k][p] : most;
    CHECK(f.most_read <= most);
    if (wrc == 0 && src == 0)
        check_same(&f, whole, wlen, streamed, slen);
    else if (wrc < 0 && src < 0) {
        bool flat = true;
        for (int k = 0; k < f.nd; k++)
            flat &= f.ndims[k] == 1;
        if (flat) {
            CHECK_STR(swhy, wwhy);
        } else {
            char wr[600] = "", sr[600] = "";
            const char *wat = "", *sat = "";
            overlap_parts(wwhy, wr, sizeof wr, &wat);
            overlap_parts(swhy, sr, sizeof sr, &sat);
            CHECK_STR(sr, wr);
            CHECK_STR(sat, wat);
            CHECK(strncmp(swhy, wwhy, 4) == 0); /* "Dk: " */
        }
    }
    free(whole);
    free(streamed);
}

int main(void)
{
    for (int i = 0; i < 3000; i++)
        check_random();
    return check_done("test_map_stream");
}
