/* map.h: h5perf's text format of a map (docs/map.md, "The text format"):
 *
 *   processes 4            the processes it is for, before anything else
 *   array 100x64           a decomposition: its array, 1 to 3 dimensions
 *   0: 0:640 1280:64       a process's runs OFFSET:LENGTH (elements, C order)
 *   1: 10:20,0:64          or boxes START:COUNT per dimension
 *
 * with '#' starting a comment, blank lines ignored and at most one line per
 * process and decomposition. The first mistake is refused with its line.
 * Pure: the bytes come in, nothing is read here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dims.h"
#include "pattern/map.h"
#include "pattern/text_line.h"

struct map_text {
    struct map_builder *b;
    int64_t line;
    int64_t *seen; /* [nprocs]: the line of each process in this decomposition, 0: none */
    char *why;
    size_t wlen;
};

static int map_fail(struct map_text *t, const char *fmt, struct text_span quoted, const char *more)
{
    return text_fail(t->why, t->wlen, t->line, fmt, quoted, more);
}

static bool map_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static struct text_span map_trim(struct text_span s)
{
    while (s.n > 0 && map_space(s.p[0]))
        s.p++, s.n--;
    while (s.n > 0 && map_space(s.p[s.n - 1]))
        s.n--;
    return s;
}

/* The next word of *s (up to white space), *s moved past it. */
static struct text_span map_word(struct text_span *s)
{
    *s = map_trim(*s);
    struct text_span w = {s->p, 0};
    while (w.n < s->n && !map_space(s->p[w.n]))
        w.n++;
    s->p += w.n;
    s->n -= w.n;
    return w;
}

/* "processes N" */
static int map_processes(struct map_text *t, struct text_span rest, struct text_span line)
{
    struct map_builder *b = t->b;
    struct text_span w = map_word(&rest);
    int64_t n = 0;
    int rc = text_number(w, &n);
    if (b->nprocs > 0)
        return map_fail(t, "'%s': the processes are given once, before the first array", line,
                        NULL);
    char most[24];
    snprintf(most, sizeof most, "%d", MAP_MAX_PROCS);
    if (rc != 0 || n < 1 || n > MAP_MAX_PROCS || map_trim(rest).n > 0)
        return map_fail(t, "'%s': expected 'processes N', N from 1 to %s", line, most);
    /* Against the run's processes here, before anything is kept per
     * process of the map. */
    char what[256];
    if (map_builder_procs(b, n, what, sizeof what) < 0) {
        snprintf(t->why, t->wlen, "line %lld: %s", (long long)t->line, what);
        return -1;
    }
    t->seen = calloc((size_t)n, sizeof *t->seen);
    if (!t->seen) {
        snprintf(t->why, t->wlen, "out of memory for %lld processes", (long long)n);
        return -1;
    }
    return 0;
}

/* "array DIMS" */
static int map_array(struct map_text *t, struct text_span rest, struct text_span line)
{
    struct text_span w = map_word(&rest);
    char text[80];
    int64_t dims[MODEL_MAX_DIMS] = {0, 0, 0};
    if (t->b->nprocs == 0)
        return map_fail(t, "'%s': an array before 'processes N'", line, NULL);
    int nd = -1;
    if (w.n < sizeof text && map_trim(rest).n == 0) {
        memcpy(text, w.p, w.n);
        text[w.n] = '\0';
        nd = dims_scan(text, INT64_MAX, dims);
    }
    if (nd < 1 || model_product(nd, dims) < 0)
        return map_fail(t,
                        "'%s': expected 'array DIMS', DIMS 1 to 3 whole numbers from 1 joined "
                        "by 'x' (slowest first), whose product fits in 64 bits",
                        line, NULL);
    memset(t->seen, 0, (size_t)t->b->nprocs * sizeof *t->seen);
    return map_builder_decomp(t->b, nd, dims, t->why, t->wlen) < 0
               ? map_fail(t, "'%s': %s", line, t->why)
               : 0;
}

/* One entry "A:B" or "A:B,C:D[,E:F]" of process p. */
static int map_entry(struct map_text *t, int p, struct text_span w)
{
    const struct map_decomp_build *d = &t->b->d[t->b->ndecomps - 1];
    struct map_entry e = {.proc = p, .origin = t->line};
    int parts = 0;
    struct text_span rest = w;
    while (rest.n > 0 || parts == 0) {
        size_t comma = 0, colon = (size_t)-1;
        while (comma < rest.n && rest.p[comma] != ',')
            comma++;
        for (size_t i = 0; i < comma; i++)
            if (rest.p[i] == ':' && colon == (size_t)-1)
                colon = i;
        if (parts == MODEL_MAX_DIMS || colon == (size_t)-1)
            parts = -1;
        int r1 = 1, r2 = 1;
        if (parts >= 0) {
            r1 = text_number((struct text_span){rest.p, colon}, &e.start[parts]);
            r2 = text_number((struct text_span){rest.p + colon + 1, comma - colon - 1},
                             &e.count[parts]);
        }
        if (r1 == 2 || r2 == 2)
            return map_fail(t, "'%s': a number does not fit in 64 bits", w, NULL);
        if (parts < 0 || r1 || r2 || (comma < rest.n && comma + 1 == rest.n))
            return map_fail(t,
                            "'%s' is not a run OFFSET:LENGTH or a box START:COUNT,... (one pair "
                            "per dimension, whole numbers)",
                            w, NULL);
        parts++;
        rest.p += comma < rest.n ? comma + 1 : comma;
        rest.n -= comma < rest.n ? comma + 1 : comma;
    }
    if (parts != 1 && parts != d->ndims) {
        char more[64];
        snprintf(more, sizeof more, "%d", d->ndims);
        return map_fail(t, "'%s': a box gives one START:COUNT per dimension, and the array has %s",
                        w, more);
    }
    e.run = parts == 1;
    return map_builder_add(t->b, &e, t->why, t->wlen);
}

/* "P: ENTRIES" */
static int map_process(struct map_text *t, struct text_span head, struct text_span rest,
                       struct text_span line)
{
    struct map_builder *b = t->b;
    int64_t p = -1;
    int rc = text_number((struct text_span){head.p, head.n - 1}, &p);
    if (rc != 0)
        return map_fail(t,
                        "'%s' is not a map line: expected 'processes N', 'array DIMS', or 'P: "
                        "RUNS' (P a process from 0)",
                        line, NULL);
    if (b->nprocs == 0)
        return map_fail(t, "'%s': expected 'processes N' first", line, NULL);
    if (b->ndecomps == 0)
        return map_fail(t, "'%s': a process's line before the first 'array DIMS'", line, NULL);
    if (p >= b->nprocs) {
        char more[64];
        snprintf(more, sizeof more, "%d (0 to %d)", b->nprocs, b->nprocs - 1);
        return map_fail(t, "'%s': the map is for processes %s", head, more);
    }
    if (t->seen[p]) {
        char more[64];
        snprintf(more, sizeof more, "%lld", (long long)t->seen[p]);
        return map_fail(t, "'%s': the process has its line in this array already (line %s)", head,
                        more);
    }
    t->seen[p] = t->line;
    for (struct text_span w = map_word(&rest); w.n > 0; w = map_word(&rest))
        if (map_entry(t, (int)p, w) < 0)
            return -1;
    return 0;
}

static int map_line(struct map_text *t, struct text_span line)
{
    for (size_t i = 0; i < line.n; i++)
        if (line.p[i] == '#') {
            line.n = i;
            break;
        }
    line = map_trim(line);
    if (line.n == 0)
        return 0;
    struct text_span rest = line, w = map_word(&rest);
    if (text_is(w, "processes"))
        return map_processes(t, rest, line);
    if (text_is(w, "array"))
        return map_array(t, rest, line);
    /* "3:" or "3: ..." (a word ending in ':') */
    if (w.n > 1 && w.p[w.n - 1] == ':')
        return map_process(t, w, rest, line);
    struct text_span head = w;
    int64_t p = 0;
    for (head.n = 0; head.n < w.n && w.p[head.n] != ':'; head.n++)
        ;
    if (head.n < w.n && text_number(head, &p) == 0) /* "3:0:10": no space after "3:" */
        return map_fail(t, "'%s': a process's number ends with ': ' (a colon, then a space)", line,
                        NULL);
    if (t->b->nprocs == 0)
        return map_fail(t, "'%s': expected 'processes N' first", line, NULL);
    return map_fail(t,
                    "'%s' is not a map line: expected 'processes N', 'array DIMS', or 'P: RUNS' "
                    "(P a process from 0)",
                    line, NULL);
}

int map_text_parse(const char *data, size_t len, struct map_builder *b, char *why, size_t wlen)
{
    struct map_text t = {.b = b, .line = 0, .seen = NULL, .why = why, .wlen = wlen};
    int rc = 0;
    for (size_t at = 0; at < len && rc == 0;) {
        size_t end = at;
        while (end < len && data[end] != '\n')
            end++;
        t.line++;
        rc = map_line(&t, (struct text_span){data + at, end - at});
        at = end + 1;
    }
    free(t.seen);
    if (rc == 0 && b->nprocs == 0) {
        snprintf(why, wlen, "has no 'processes N' line");
        rc = -1;
    }
    if (rc == 0 && b->ndecomps == 0) {
        snprintf(why, wlen, "has no 'array DIMS' line");
        rc = -1;
    }
    return rc;
}
