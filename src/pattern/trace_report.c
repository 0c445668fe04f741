/* The trace pattern's report sections and results (docs/trace.md,
 * "Report"): the trace named with its processes, files, calls and bytes;
 * per process count, the application's own throughput from the trace
 * (a direction's bytes over the sum of its calls' durations, docs/trace.md)
 * beside each API's replay, the same quotient of the replay's call
 * timers, both over the application's bytes: a transformation the
 * section names (--trace-gather, --trace-align) changes the calls, and
 * an aligned call's extra bytes are not the application's. Formats only:
 * the figures are the trace's and the results model's. */
#include <stdio.h>

#include "pattern/trace.h"
#include "report/table.h"

#define TRACE_MB 1e6

/* "4 processes, 1 file, 16 writes (4194304 bytes), 16 reads (4194304
 * bytes), level posix" */
static void trace_counts(const struct trace_totals *t, char *buf, size_t len)
{
    snprintf(buf, len,
             "%d process%s, %d file%s, %lld write%s (%lld bytes), %lld read%s (%lld bytes), "
             "level %s",
             t->nprocs, t->nprocs == 1 ? "" : "es", t->nfiles, t->nfiles == 1 ? "" : "s",
             (long long)t->calls[1], t->calls[1] == 1 ? "" : "s", (long long)t->bytes[1],
             (long long)t->calls[0], t->calls[0] == 1 ? "" : "s", (long long)t->bytes[0], t->level);
}

/* "calls gathered into calls of at most 1048576 bytes, aligned to 4096
 * bytes: 4 writes (4194304 bytes), 4 reads (4194304 bytes)"; "" when the
 * calls are replayed as recorded. */
static void trace_reshaped(const struct config *c, const struct trace_totals *t, char *buf,
                           size_t len)
{
    const struct trace_settings *s = trace_of(c);
    char g[64] = "", a[64] = "";
    buf[0] = '\0';
    if (!s->gather && !s->align)
        return;
    if (s->gather)
        snprintf(g, sizeof g, "gathered into calls of at most %lld bytes", (long long)s->gather);
    if (s->align)
        snprintf(a, sizeof a, "aligned to %lld bytes", (long long)s->align);
    snprintf(buf, len, "calls %s%s%s: %lld write%s (%lld bytes), %lld read%s (%lld bytes)", g,
             g[0] && a[0] ? ", " : "", a, (long long)t->moved_calls[1],
             t->moved_calls[1] == 1 ? "" : "s", (long long)t->moved_bytes[1],
             (long long)t->moved_calls[0], t->moved_calls[0] == 1 ? "" : "s",
             (long long)t->moved_bytes[0]);
}

static void trace_header(FILE *out, const struct config *c, int rank, const char *hdf5_version,
                         int max_info_val)
{
    char line[1600], opt[1100], counts[256] = "";
    (void)rank, (void)max_info_val;
    trace_option_text(c, opt, sizeof opt);
    const struct trace_totals *t = trace_summary();
    if (t)
        trace_counts(t, counts, sizeof counts);
    snprintf(line, sizeof line, "Trace pattern: %s%s%s, gaps %s\n", opt, t ? ": " : "", counts,
             trace_of(c)->gaps == TRACE_GAPS_DROP ? "dropped" : "kept as pauses");
    struct report_settings rs;
    config_report_settings(c, &rs);
    table_header(out, &rs, hdf5_version, line);
}

/* The replay's sum over the processes of timer kind k's seconds, the
 * mean over the iterations that stand; < 0 when none does. */
static double trace_sum(const struct api_result *r, enum timer_kind k)
{
    enum timer_id t = results_timer(r->nphases - 1, k);
    double sum = 0;
    int n = 0;
    for (int i = 0; i < r->iterations; i++) {
        if (results_sample_status(r, i, t) != RUN_OK)
            continue;
        sum += r->it[i].t[t].sum;
        n++;
    }
    return n ? sum / n : -1;
}

static void trace_rate(FILE *out, int64_t bytes, double seconds)
{
    if (bytes == 0)
        fprintf(out, " %12s", "-");
    else if (seconds <= 0)
        fprintf(out, " %12s", seconds < 0 ? "FAILED" : "-");
    else
        fprintf(out, " %12.2f", bytes / seconds / TRACE_MB);
}

static void trace_nprocs_end(FILE *out, const struct config *c, const struct results_log *log,
                             int nprocs)
{
    const struct trace_totals *t = trace_summary();
    char opt[1100], counts[256];
    trace_option_text(c, opt, sizeof opt);
    if (!t)
        return;
    trace_counts(t, counts, sizeof counts);
    fprintf(out, "Trace %s: %s\n", opt, counts);
    char reshaped[256];
    trace_reshaped(c, t, reshaped, sizeof reshaped);
    if (reshaped[0])
        fprintf(out, "Replayed (docs/trace.md, Transformations): %s\n", reshaped);
    fprintf(out, "Throughput of a process, MB/s: a direction's bytes over the sum of its calls' "
                 "seconds over the processes (docs/trace.md)\n");
    fprintf(out, "    %-26s %12s %12s %12s %12s\n", "", "Write MB/s", "Read MB/s", "Write s",
            "Read s");
    fprintf(out, "    %-26s", "recorded (the application)");
    trace_rate(out, t->bytes[1], t->seconds[1]);
    trace_rate(out, t->bytes[0], t->seconds[0]);
    fprintf(out, " %12.6f %12.6f\n", t->seconds[1], t->seconds[0]);
    for (int i = 0; i < log->count; i++) {
        const struct api_result *r = &log->runs[i];
        if (r->nprocs != nprocs)
            continue;
        char name[40];
        if (c->nlayouts > 1 && r->layout >= 0)
            snprintf(name, sizeof name, "replay, %s, %s", api_desc(r->api)->err_name,
                     layout_name(r->layout));
        else
            snprintf(name, sizeof name, "replay, %s", api_desc(r->api)->err_name);
        double w = trace_sum(r, TIMER_WRITES), rd = trace_sum(r, TIMER_READS);
        fprintf(out, "    %-26s", name);
        trace_rate(out, t->bytes[1], w);
        trace_rate(out, t->bytes[0], rd);
        fprintf(out, " %12.6f %12.6f\n", w, rd);
    }
    fputc('\n', out);
}

const struct pattern_report trace_report = {
    .header = trace_header,
    .nprocs_end = trace_nprocs_end,
};

void trace_json_config(struct jsonw *w, const struct config *c)
{
    jsonw_key(w, "trace");
    jsonw_object(w);
    pattern_json_rows(w, c, &pattern_trace);
    jsonw_end(w);
}

static void trace_json_rate(struct jsonw *w, const char *key, int64_t bytes, double seconds)
{
    jsonw_key(w, key);
    if (bytes > 0 && seconds > 0)
        jsonw_number(w, bytes / seconds / TRACE_MB);
    else
        jsonw_null(w);
}

/* The trace's figures, and both throughputs of a process (recorded and
 * replayed), write and read. */
void trace_json_run(struct jsonw *w, const struct config *c, const struct api_result *r)
{
    const struct trace_totals *t = trace_summary();
    (void)c;
    if (!t)
        return;
    jsonw_key(w, "trace");
    jsonw_object(w);
    jsonw_key_int(w, "processes", t->nprocs);
    jsonw_key_int(w, "files", t->nfiles);
    jsonw_key_string(w, "level", t->level);
    jsonw_key_int(w, "writes", t->calls[1]);
    jsonw_key_int(w, "reads", t->calls[0]);
    jsonw_key_int(w, "bytes_written", t->bytes[1]);
    jsonw_key_int(w, "bytes_read", t->bytes[0]);
    jsonw_key_int(w, "replay_writes", t->moved_calls[1]);
    jsonw_key_int(w, "replay_reads", t->moved_calls[0]);
    jsonw_key_int(w, "replay_bytes_written", t->moved_bytes[1]);
    jsonw_key_int(w, "replay_bytes_read", t->moved_bytes[0]);
    jsonw_key(w, "recorded_seconds");
    jsonw_object(w);
    jsonw_key(w, "write");
    jsonw_number(w, t->seconds[1]);
    jsonw_key(w, "read");
    jsonw_number(w, t->seconds[0]);
    jsonw_end(w);
    jsonw_key(w, "recorded_mbs");
    jsonw_object(w);
    trace_json_rate(w, "write", t->bytes[1], t->seconds[1]);
    trace_json_rate(w, "read", t->bytes[0], t->seconds[0]);
    jsonw_end(w);
    jsonw_key(w, "replay_mbs");
    jsonw_object(w);
    trace_json_rate(w, "write", t->bytes[1], trace_sum(r, TIMER_WRITES));
    trace_json_rate(w, "read", t->bytes[0], trace_sum(r, TIMER_READS));
    jsonw_end(w);
    jsonw_end(w);
}
