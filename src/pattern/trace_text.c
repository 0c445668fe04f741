/* trace.h: the text format of a trace (docs/trace.md, "The text format"),
 * every rule of it, the first mistake refused with its line:
 *
 *   processes 4                    the processes, first, once
 *   level posix                    posix or mpiio, next, once
 *   file 0 /scratch/ior.dat        files from 0 in order, before any call
 *   0 0 write 0 262144 0.021304 0.000195     P K OP OFFSET LENGTH GAP DURATION
 *
 * with '#' starting a comment line and blank lines ignored. The calls are
 * kept in the trace's order (process after process) and written, with the
 * figures every process receives, as the bytes trace_adopt() takes
 * (trace_input.c). Pure: the bytes come in, nothing is read here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/trace.h"
#include "pattern/text_line.h"
#include "pattern/trace_wire.h"

struct trace_text {
    int64_t line;
    int run_procs;
    int nprocs; /* 0: before 'processes' */
    char level[8];
    int nfiles;
    struct trace_file files[TRACE_MAX_FILES];
    struct trace_proc *procs; /* [nprocs] */
    int64_t *file_calls;      /* [nfiles]: the current process's calls of each file */
    int64_t *file_reads;      /* [nfiles]: and reads */
    int last;                 /* the process of the last call; -1: none */
    struct trace_call *calls;
    int64_t ncalls, cap;
    char *why;
    size_t wlen;
};

static int trace_fail(struct trace_text *t, const char *fmt, struct text_span quoted,
                      const char *more)
{
    return text_fail(t->why, t->wlen, t->line, fmt, quoted, more);
}

/* Seconds: digits, a point and 1 to 9 digits. */
static bool trace_seconds(struct text_span w, double *out)
{
    size_t i = 0;
    while (i < w.n && w.p[i] >= '0' && w.p[i] <= '9')
        i++;
    if (i == 0 || i >= w.n || w.p[i] != '.' || w.n - i - 1 < 1 || w.n - i - 1 > 9 || i > 15)
        return false;
    for (size_t j = i + 1; j < w.n; j++)
        if (w.p[j] < '0' || w.p[j] > '9')
            return false;
    char text[32];
    memcpy(text, w.p, w.n);
    text[w.n] = '\0';
    *out = strtod(text, NULL);
    return true;
}

/* The fields of a line separated by one blank each: up to max into f;
 * returns how many, or -1 where two blanks meet or a line starts or ends
 * with one. */
static int trace_fields(struct text_span line, struct text_span *f, int max)
{
    int n = 0;
    size_t at = 0;
    while (at <= line.n) {
        size_t end = at;
        while (end < line.n && line.p[end] != ' ')
            end++;
        if (end == at)
            return -1;
        if (n < max)
            f[n] = (struct text_span){line.p + at, end - at};
        n++;
        at = end + 1;
    }
    return n;
}

/* "processes N" */
static int trace_processes(struct trace_text *t, struct text_span line)
{
    struct text_span f[3];
    int64_t n = 0;
    int nf = trace_fields(line, f, 3);
    char most[24];
    snprintf(most, sizeof most, "%d", TRACE_MAX_PROCS);
    if (nf != 2 || !text_is(f[0], "processes") || text_number(f[1], &n) != 0 || n < 1 ||
        n > TRACE_MAX_PROCS)
        return trace_fail(t, "'%s': expected 'processes N' first, N from 1 to %s", line, most);
    /* Against the run's processes here, before anything is kept per
     * process. */
    if (t->run_procs > 0 && n != t->run_procs) {
        char more[200];
        snprintf(more, sizeof more,
                 "is a trace for %lld process%s, and the run has %d; start %lld (mpiexec -n), "
                 "with -p and -P left out or %lld",
                 (long long)n, n == 1 ? "" : "es", t->run_procs, (long long)n, (long long)n);
        snprintf(t->why, t->wlen, "line %lld: %s", (long long)t->line, more);
        return -1;
    }
    t->procs = calloc((size_t)n, sizeof *t->procs);
    if (!t->procs) {
        snprintf(t->why, t->wlen, "out of memory for %lld processes", (long long)n);
        return -1;
    }
    t->nprocs = (int)n;
    return 0;
}

/* "level posix|mpiio" */
static int trace_level(struct trace_text *t, struct text_span line)
{
    struct text_span f[3];
    int nf = trace_fields(line, f, 3);
    if (nf != 2 || !text_is(f[0], "level") || !(text_is(f[1], "posix") || text_is(f[1], "mpiio")))
        return trace_fail(t, "'%s': expected 'level posix' or 'level mpiio' after 'processes N'",
                          line, NULL);
    memcpy(t->level, f[1].p, f[1].n);
    t->level[f[1].n] = '\0';
    return 0;
}

/* "file K PATH": PATH the rest of the line after one blank. */
static int trace_file_line(struct trace_text *t, struct text_span line)
{
    char more[64];
    snprintf(more, sizeof more, "%d", t->nfiles);
    if (t->ncalls > 0)
        return trace_fail(t, "'%s': a file line after a call (the files come before the calls)",
                          line, NULL);
    size_t k = 5;
    while (k < line.n && line.p[k] != ' ')
        k++;
    int64_t id = -1;
    if (text_number((struct text_span){line.p + 5, k - 5}, &id) != 0 || id != t->nfiles ||
        k + 1 >= line.n)
        return trace_fail(t, "'%s': expected 'file %s PATH' (files from 0, in order)", line, more);
    if (t->nfiles == TRACE_MAX_FILES) {
        snprintf(more, sizeof more, "%d", TRACE_MAX_FILES);
        return trace_fail(t, "'%s': more files than h5perf replays (%s)", line, more);
    }
    t->nfiles++;
    return 0;
}

/* The figures of process p's calls, once its last call is read. */
static void trace_proc_end(struct trace_text *t, int p)
{
    for (int k = 0; k < t->nfiles; k++) {
        struct trace_file *f = &t->files[k];
        f->most_calls = t->file_calls[k] > f->most_calls ? t->file_calls[k] : f->most_calls;
        f->most_reads = t->file_reads[k] > f->most_reads ? t->file_reads[k] : f->most_reads;
        t->file_calls[k] = t->file_reads[k] = 0;
    }
    (void)p;
}

static int trace_keep(struct trace_text *t, const struct trace_call *c)
{
    if (t->ncalls == t->cap) {
        int64_t cap = t->cap ? 2 * t->cap : 1024;
        struct trace_call *more = realloc(t->calls, (size_t)cap * sizeof *more);
        if (!more) {
            snprintf(t->why, t->wlen, "out of memory for %lld calls", (long long)cap);
            return -1;
        }
        t->calls = more;
        t->cap = cap;
    }
    t->calls[t->ncalls++] = *c;
    return 0;
}

/* "P K OP OFFSET LENGTH GAP DURATION" */
static int trace_call_line(struct trace_text *t, struct text_span line)
{
    struct text_span f[8];
    int nf = trace_fields(line, f, 8);
    int64_t p = 0, k = 0, off = 0, len = 0;
    struct trace_call c = {0};
    if (nf > 0 && nf < 7) {
        char more[16];
        snprintf(more, sizeof more, "%d", nf);
        return trace_fail(t, "'%s': a call of %s fields, not 7 (a trace cut short?)", line, more);
    }
    if (nf != 7 || text_number(f[0], &p) == 1 || text_number(f[1], &k) == 1 ||
        !(text_is(f[2], "write") || text_is(f[2], "read")) || text_number(f[3], &off) == 1 ||
        text_number(f[4], &len) == 1 || !trace_seconds(f[5], &c.gap) ||
        !trace_seconds(f[6], &c.duration))
        return trace_fail(t,
                          "'%s': expected a call 'P K write|read OFFSET LENGTH GAP DURATION' "
                          "(one blank between fields; GAP and DURATION seconds as 0.000123)",
                          line, NULL);
    if (t->nfiles == 0)
        return trace_fail(t, "'%s': a call before any 'file K PATH' line", line, NULL);
    char more[160];
    if (text_number(f[0], &p) == 2 || p >= t->nprocs) {
        snprintf(more, sizeof more, "%d (0 to %d)", t->nprocs, t->nprocs - 1);
        return trace_fail(t, "'%s': the trace is for processes %s", f[0], more);
    }
    if (text_number(f[1], &k) == 2 || k >= t->nfiles) {
        snprintf(more, sizeof more, "%.*s is not declared (the files are 0 to %d)",
                 (int)(f[1].n < 24 ? f[1].n : 24), f[1].p, t->nfiles - 1);
        return trace_fail(t, "'%s': file %s", line, more);
    }
    if (text_number(f[3], &off) == 2 || text_number(f[4], &len) == 2 || len < 1 ||
        off > INT64_MAX - len) {
        if (len < 1 && text_number(f[4], &len) == 0)
            return trace_fail(t, "'%s': LENGTH 0 (a call moves 1 byte or more)", line, NULL);
        return trace_fail(t, "'%s': OFFSET + LENGTH passes 2^63 - 1 (the largest file size)", line,
                          NULL);
    }
    if (p < t->last) {
        snprintf(more, sizeof more,
                 "process %d's (a process's calls are on consecutive lines, processes in "
                 "increasing order)",
                 t->last);
        char head[32];
        snprintf(head, sizeof head, "%lld", (long long)p);
        return trace_fail(t, "process %s's call comes after %s",
                          (struct text_span){head, strlen(head)}, more);
    }
    if (p > t->last && t->last >= 0)
        trace_proc_end(t, t->last);
    t->last = (int)p;
    c.offset = off;
    c.length = len;
    c.file = (int32_t)k;
    c.write = text_is(f[2], "write");
    struct trace_file *tf = &t->files[k];
    tf->size = off + len > tf->size ? off + len : tf->size;
    tf->calls[c.write]++;
    tf->bytes[c.write] += len;
    tf->seconds[c.write] += c.duration;
    t->file_calls[k]++;
    t->file_reads[k] += !c.write;
    struct trace_proc *tp = &t->procs[p];
    tp->calls++;
    tp->largest = len > tp->largest ? len : tp->largest;
    return trace_keep(t, &c);
}

static int trace_line(struct trace_text *t, struct text_span line)
{
    bool blank = true;
    for (size_t i = 0; i < line.n && blank; i++)
        blank = line.p[i] == ' ' || line.p[i] == '\t' || line.p[i] == '\r';
    if (blank || line.p[0] == '#')
        return 0;
    if (t->nprocs == 0)
        return trace_processes(t, line);
    if (t->level[0] == '\0') {
        if (line.n > 10 && memcmp(line.p, "processes ", 10) == 0)
            return trace_fail(t, "'%s': a second 'processes' line", line, NULL);
        return trace_level(t, line);
    }
    if (line.n > 10 && memcmp(line.p, "processes ", 10) == 0)
        return trace_fail(t, "'%s': a second 'processes' line", line, NULL);
    if (line.n > 6 && memcmp(line.p, "level ", 6) == 0)
        return trace_fail(t, "'%s': a second 'level' line", line, NULL);
    if (line.n > 5 && memcmp(line.p, "file ", 5) == 0)
        return trace_file_line(t, line);
    if (t->file_calls == NULL) {
        t->file_calls = calloc((size_t)(t->nfiles > 0 ? t->nfiles : 1), sizeof(int64_t));
        t->file_reads = calloc((size_t)(t->nfiles > 0 ? t->nfiles : 1), sizeof(int64_t));
        if (!t->file_calls || !t->file_reads) {
            snprintf(t->why, t->wlen, "out of memory");
            return -1;
        }
    }
    return trace_call_line(t, line);
}

/* The bytes adopt() takes: the header, the files' and processes'
 * figures, then every call in the trace's order (process after
 * process). */
static int trace_wire_write(struct trace_text *t, unsigned char **bytes, size_t *blen)
{
    struct trace_wire h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, TRACE_MAGIC, sizeof h.magic);
    h.nprocs = t->nprocs;
    h.nfiles = t->nfiles;
    memcpy(h.level, t->level, sizeof h.level);
    int64_t base = 0;
    for (int k = 0; k < t->nfiles; k++) {
        t->files[k].base = base;
        base += t->files[k].size > 0 ? t->files[k].size : 1;
    }
    size_t files = (size_t)t->nfiles * sizeof(struct trace_file);
    size_t procs = (size_t)t->nprocs * sizeof(struct trace_proc);
    size_t calls = (size_t)t->ncalls * sizeof(struct trace_call);
    size_t n = sizeof h + files + procs + calls;
    unsigned char *out = malloc(n);
    if (!out) {
        snprintf(t->why, t->wlen, "out of memory for %zu bytes", n);
        return -1;
    }
    memcpy(out, &h, sizeof h);
    memcpy(out + sizeof h, t->files, files);
    memcpy(out + sizeof h + files, t->procs, procs);
    if (calls)
        memcpy(out + sizeof h + files + procs, t->calls, calls);
    *bytes = out;
    *blen = n;
    return 0;
}

int trace_text_parse(const char *data, size_t len, int run_procs, const struct trace_reshape *how,
                     unsigned char **bytes, size_t *blen, char *why, size_t wlen)
{
    struct trace_text *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(why, wlen, "out of memory");
        return -1;
    }
    t->run_procs = run_procs;
    t->last = -1;
    t->why = why;
    t->wlen = wlen;
    int rc = 0;
    for (size_t at = 0; at < len && rc == 0;) {
        size_t end = at;
        while (end < len && data[end] != '\n')
            end++;
        t->line++;
        rc = trace_line(t, (struct text_span){data + at, end - at});
        at = end + 1;
    }
    const char *missing = t->nprocs == 0        ? "'processes N'"
                          : t->level[0] == '\0' ? "'level posix' or 'level mpiio'"
                          : t->nfiles == 0      ? "'file 0 PATH'"
                          : t->ncalls == 0      ? "a call"
                                                : NULL;
    if (rc == 0 && missing) {
        snprintf(why, wlen, "ends at line %lld before %s (docs/trace.md)", (long long)t->line,
                 missing);
        rc = -1;
    }
    if (rc == 0) {
        trace_proc_end(t, t->last);
        rc = trace_reshape_calls(how, t->calls, &t->ncalls, t->files, t->nfiles, t->procs,
                                 t->nprocs, why, wlen);
    }
    if (rc == 0)
        rc = trace_wire_write(t, bytes, blen);
    free(t->procs);
    free(t->file_calls);
    free(t->file_reads);
    free(t->calls);
    free(t);
    return rc;
}

int trace_text_totals(const char *data, size_t len, struct trace_totals *out, char *why,
                      size_t wlen)
{
    unsigned char *bytes = NULL;
    size_t blen = 0;
    memset(out, 0, sizeof *out);
    if (trace_text_parse(data, len, 0, NULL, &bytes, &blen, why, wlen) < 0)
        return -1;
    struct trace_wire h;
    memcpy(&h, bytes, sizeof h);
    out->nprocs = h.nprocs;
    out->nfiles = h.nfiles;
    memcpy(out->level, h.level, sizeof out->level);
    out->level[sizeof out->level - 1] = '\0';
    for (int k = 0; k < h.nfiles; k++) {
        struct trace_file f;
        memcpy(&f, bytes + sizeof h + (size_t)k * sizeof f, sizeof f);
        for (int w = 0; w < 2; w++) {
            out->calls[w] += f.calls[w];
            out->bytes[w] += f.bytes[w];
            out->seconds[w] += f.seconds[w];
            out->moved_calls[w] += f.moved_calls[w];
            out->moved_bytes[w] += f.moved_bytes[w];
        }
    }
    free(bytes);
    return 0;
}
