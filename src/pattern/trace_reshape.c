/* trace.h: the transformations of a trace's calls (docs/trace.md,
 * "Transformations"): each process's consecutive contiguous calls of one
 * file and direction gathered into calls of at most S bytes, then each
 * call aligned to multiples of A bytes; and the replay's figures of the
 * files and processes, computed from the calls as replayed. Pure: made on
 * process 0 before the trace is sent; the recorded figures are left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/trace.h"

/* Whether c continues m: the same file and direction, from m's end, and
 * both within gather bytes. */
static bool trace_joins(const struct trace_call *m, const struct trace_call *c, int64_t gather)
{
    return c->file == m->file && c->write == m->write && c->offset == m->offset + m->length &&
           m->length <= gather - c->length;
}

/* A process's calls c[0, n) gathered in place; returns how many remain.
 * A gathered call waits the sum of its calls' gaps before it. */
static int64_t trace_gather(struct trace_call *c, int64_t n, int64_t gather)
{
    int64_t out = 0;
    for (int64_t i = 0; i < n; i++) {
        if (out > 0 && trace_joins(&c[out - 1], &c[i], gather)) {
            c[out - 1].length += c[i].length;
            c[out - 1].gap += c[i].gap;
            c[out - 1].duration += c[i].duration;
        } else {
            c[out++] = c[i];
        }
    }
    return out;
}

/* Call c of process p from a multiple of align to a multiple of align. */
static int trace_align(struct trace_call *c, int64_t align, int p, char *why, size_t wlen)
{
    int64_t start = c->offset - c->offset % align, end = c->offset + c->length;
    int64_t over = end % align;
    if (over > 0 && end > INT64_MAX - (align - over)) {
        snprintf(why, wlen,
                 "process %d's call of file %d at %lld for %lld bytes, aligned to %lld bytes, "
                 "ends past 2^63 - 1 (the largest file size)",
                 p, (int)c->file, (long long)c->offset, (long long)c->length, (long long)align);
        return -1;
    }
    c->offset = start;
    c->length = end + (over > 0 ? align - over : 0) - start;
    return 0;
}

/* The replay's figures from the calls: each file's size, its most calls
 * and reads of one process, its calls and bytes; each process's calls
 * and largest call. */
static int trace_figures(const struct trace_call *calls, struct trace_file *files, int nfiles,
                         struct trace_proc *procs, int nprocs, char *why, size_t wlen)
{
    int64_t *mine = calloc(2 * (size_t)nfiles, sizeof *mine); /* calls, reads of one process */
    if (!mine) {
        snprintf(why, wlen, "out of memory");
        return -1;
    }
    for (int k = 0; k < nfiles; k++) {
        struct trace_file *f = &files[k];
        f->size = f->most_calls = f->most_reads = f->read_end = 0;
        memset(f->moved_calls, 0, sizeof f->moved_calls);
        memset(f->moved_bytes, 0, sizeof f->moved_bytes);
    }
    int64_t at = 0;
    for (int p = 0; p < nprocs; p++) {
        const struct trace_call *c = calls + at;
        int64_t n = procs[p].calls;
        procs[p].largest = 0;
        for (int64_t i = 0; i < n; i++) {
            struct trace_file *f = &files[c[i].file];
            int w = c[i].write != 0;
            int64_t end = c[i].offset + c[i].length;
            f->size = end > f->size ? end : f->size;
            f->read_end = !w && end > f->read_end ? end : f->read_end;
            f->moved_calls[w]++;
            f->moved_bytes[w] += c[i].length;
            mine[2 * c[i].file]++;
            mine[2 * c[i].file + 1] += !w;
            procs[p].largest = c[i].length > procs[p].largest ? c[i].length : procs[p].largest;
        }
        /* Only the files this process called: a pass over its calls. */
        for (int64_t i = 0; i < n; i++) {
            struct trace_file *f = &files[c[i].file];
            int64_t *m = &mine[2 * c[i].file];
            f->most_calls = m[0] > f->most_calls ? m[0] : f->most_calls;
            f->most_reads = m[1] > f->most_reads ? m[1] : f->most_reads;
            m[0] = m[1] = 0;
        }
        at += n;
    }
    free(mine);
    return 0;
}

int trace_reshape_calls(const struct trace_reshape *how, struct trace_call *calls, int64_t *ncalls,
                        struct trace_file *files, int nfiles, struct trace_proc *procs, int nprocs,
                        char *why, size_t wlen)
{
    int64_t at = 0, out = 0;
    int64_t gather = how ? how->gather : 0, align = how ? how->align : 0;
    for (int p = 0; p < nprocs; p++) {
        int64_t n = procs[p].calls;
        if (n > 0 && out != at)
            memmove(calls + out, calls + at, (size_t)n * sizeof *calls);
        at += n;
        if (gather > 0)
            n = trace_gather(calls + out, n, gather);
        for (int64_t i = 0; align > 1 && i < n; i++)
            if (trace_align(&calls[out + i], align, p, why, wlen) < 0)
                return -1;
        procs[p].calls = n;
        out += n;
    }
    *ncalls = out;
    return trace_figures(calls, files, nfiles, procs, nprocs, why, wlen);
}
