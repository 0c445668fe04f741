/* The trace pattern's input (docs/design.md, "A pattern's input"): the
 * trace read by process 0 (load), divided so that every process receives
 * the figures of every file and process and its own calls alone
 * (input_parts), and kept by each process with its calls grouped by file
 * (adopt). Pure. */
#include <stdlib.h>
#include <string.h>

#include "pattern/trace.h"
#include "pattern/trace_wire.h"

/* The figures of the trace this process adopted, for the report. */
static struct trace_totals trace_kept;

const struct trace_totals *trace_summary(void)
{
    return trace_kept.nprocs > 0 ? &trace_kept : NULL;
}

static void trace_keep_totals(const struct trace_input *in)
{
    memset(&trace_kept, 0, sizeof trace_kept);
    trace_kept.nprocs = in->nprocs;
    trace_kept.nfiles = in->nfiles;
    memcpy(trace_kept.level, in->level, sizeof trace_kept.level);
    for (int k = 0; k < in->nfiles; k++)
        for (int w = 0; w < 2; w++) {
            trace_kept.calls[w] += in->files[k].calls[w];
            trace_kept.bytes[w] += in->files[k].bytes[w];
            trace_kept.seconds[w] += in->files[k].seconds[w];
            trace_kept.moved_calls[w] += in->files[k].moved_calls[w];
            trace_kept.moved_bytes[w] += in->files[k].moved_bytes[w];
        }
}

int trace_load(const struct config *c, const struct pattern_files *files, unsigned char **bytes,
               size_t *len, struct cli_msg *m)
{
    char opt[1100], why[1024], lib[512];
    trace_option_text(c, opt, sizeof opt);
    const char *path = trace_of(c)->file;
    int64_t size = 0;
    unsigned char *data = NULL;
    size_t n = 0;
    *bytes = NULL;
    *len = 0;
    if (files->size(files->ctx, path, &size, lib, sizeof lib) < 0 ||
        files->read(files->ctx, path, &data, &n, lib, sizeof lib) < 0)
        return cli_fail(m, "h5perf: %s: %s%s", opt,
                        strncmp(lib, "is ", 3) == 0 ? "" : "cannot be read: ", lib);
    /* The text and, about as large, its calls (docs/trace.md, "Memory"). */
    if (files->memory >= 0 && size > files->memory / 3) {
        free(data);
        char need[32];
        cli_bytes(need, sizeof need, 3 * size);
        return cli_fail(m,
                        "h5perf: %s: reading it on process 0 needs about %s, and %s; give "
                        "--no-memory-check to try",
                        opt, need, files->memory_where);
    }
    const struct trace_reshape how = {trace_of(c)->gather, trace_of(c)->align};
    int rc =
        trace_text_parse((const char *)data, n, c->min_procs, &how, bytes, len, why, sizeof why);
    free(data);
    if (rc < 0)
        return cli_fail(m, "h5perf: %s: %s", opt, why);
    return 0;
}

/* The end of the common part of bytes[0, len), or 0 when it does not
 * hold one. */
static size_t trace_common(const unsigned char *bytes, size_t len, struct trace_wire *h)
{
    if (len < sizeof *h)
        return 0;
    memcpy(h, bytes, sizeof *h);
    if (memcmp(h->magic, TRACE_MAGIC, sizeof h->magic) != 0 || h->nprocs < 1 ||
        h->nprocs > TRACE_MAX_PROCS || h->nfiles < 1 || h->nfiles > TRACE_MAX_FILES)
        return 0;
    size_t c = sizeof *h + (size_t)h->nfiles * sizeof(struct trace_file) +
               (size_t)h->nprocs * sizeof(struct trace_proc);
    return c <= len ? c : 0;
}

int trace_input_parts(const unsigned char *bytes, size_t len, int nprocs, size_t *common,
                      size_t *ends)
{
    struct trace_wire h;
    size_t c = trace_common(bytes, len, &h);
    if (c == 0 || nprocs < h.nprocs)
        return -1;
    const unsigned char *pp = bytes + sizeof h + (size_t)h.nfiles * sizeof(struct trace_file);
    size_t at = c;
    /* Processes past the trace's (a run of fewer processes than started,
     * -P) receive the common part only. */
    for (int p = 0; p < nprocs; p++) {
        struct trace_proc tp = {0, 0};
        if (p < h.nprocs)
            memcpy(&tp, pp + (size_t)p * sizeof tp, sizeof tp);
        at += (size_t)tp.calls * sizeof(struct trace_call);
        ends[p] = at;
    }
    if (at != len)
        return -1;
    *common = c;
    return 0;
}

static int trace_broken(const struct config *c, struct trace_input *in, void *store,
                        struct cli_msg *m)
{
    char opt[1100];
    trace_option_text(c, opt, sizeof opt);
    free(in);
    free(store);
    return cli_fail(m, "h5perf: %s: internal error: the trace's bytes do not read back", opt);
}

int trace_adopt(const struct config *c, int rank, const unsigned char *bytes, size_t len,
                void **out, struct cli_msg *m)
{
    struct trace_wire h;
    *out = NULL;
    size_t common = trace_common(bytes, len, &h);
    if (common == 0)
        return trace_broken(c, NULL, NULL, m);
    size_t files = (size_t)h.nfiles * sizeof(struct trace_file);
    size_t procs = (size_t)h.nprocs * sizeof(struct trace_proc);
    const struct trace_proc *wp = (const void *)(bytes + sizeof h + files);
    /* Whole bytes (rank -1): process 0's calls are the first. */
    int own = rank < 0 ? 0 : rank;
    int64_t ncalls = own < h.nprocs ? wp[own].calls : 0;
    size_t at = common;
    if (rank < 0)
        for (int p = 0; p < own; p++)
            at += (size_t)wp[p].calls * sizeof(struct trace_call);
    size_t calls = (size_t)ncalls * sizeof(struct trace_call);
    if (at + calls > len || (rank >= 0 && at + calls != len))
        return trace_broken(c, NULL, NULL, m);
    struct trace_input *in = calloc(1, sizeof *in);
    size_t firsts = ((size_t)h.nfiles + 1) * sizeof(int64_t);
    size_t reads = (size_t)ncalls * sizeof(int64_t);
    unsigned char *store = malloc(files + procs + calls + 2 * firsts + 3 * reads + 1);
    if (!in || !store) {
        char opt[1100];
        trace_option_text(c, opt, sizeof opt);
        free(in);
        free(store);
        return cli_fail(m, "h5perf: %s: out of memory for the trace", opt);
    }
    memcpy(store, bytes + sizeof h, files + procs);
    struct trace_call *mine = (struct trace_call *)(void *)(store + files + procs);
    int64_t *first = (int64_t *)(void *)(store + files + procs + calls);
    const struct trace_call *given = (const void *)(bytes + at);
    /* Grouped by file, each file's in recorded order (a counting sort). */
    memset(first, 0, firsts);
    for (int64_t i = 0; i < ncalls; i++) {
        if (given[i].file < 0 || given[i].file >= h.nfiles)
            return trace_broken(c, in, store, m);
        first[given[i].file + 1]++;
    }
    for (int k = 0; k < h.nfiles; k++)
        first[k + 1] += first[k];
    int64_t *next = calloc((size_t)h.nfiles, sizeof *next);
    if (!next)
        return trace_broken(c, in, store, m);
    int64_t *order = (int64_t *)(void *)(store + files + procs + calls + 2 * firsts + reads);
    int64_t *order_reads = order + ncalls, nreads = 0;
    for (int64_t i = 0; i < ncalls; i++) {
        int k = given[i].file;
        order[i] = first[k] + next[k]++;
        mine[order[i]] = given[i];
        if (!given[i].write)
            order_reads[nreads++] = order[i];
    }
    free(next);
    /* The reads of each file, in recorded order. */
    int64_t *rfirst = first + h.nfiles + 1, *rd = rfirst + h.nfiles + 1, nr = 0;
    for (int k = 0; k < h.nfiles; k++) {
        rfirst[k] = nr;
        for (int64_t i = first[k]; i < first[k + 1]; i++)
            if (!mine[i].write)
                rd[nr++] = i;
    }
    rfirst[h.nfiles] = nr;
    in->nprocs = h.nprocs;
    in->nfiles = h.nfiles;
    memcpy(in->level, h.level, sizeof in->level);
    in->level[sizeof in->level - 1] = '\0';
    in->files = (const struct trace_file *)(void *)store;
    in->procs = (const struct trace_proc *)(void *)(store + files);
    in->rank = own < h.nprocs ? own : -1;
    in->calls = mine;
    in->first = first;
    in->reads = rd;
    in->rfirst = rfirst;
    in->order = order;
    in->order_reads = order_reads;
    in->nreads = nreads;
    in->storage = store;
    trace_keep_totals(in);
    *out = in;
    return 0;
}

void trace_input_release(void *input)
{
    struct trace_input *in = input;
    if (!in)
        return;
    free(in->storage);
    free(in);
}

int64_t trace_held_bytes(const struct trace_input *in)
{
    int64_t own = in->rank >= 0 ? in->procs[in->rank].calls : 0;
    return (int64_t)sizeof *in + in->nfiles * (int64_t)(sizeof(struct trace_file) + 16) +
           in->nprocs * (int64_t)sizeof(struct trace_proc) +
           own * (int64_t)(sizeof(struct trace_call) + 24);
}
