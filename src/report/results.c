/* The results model: per iteration, each timer's min/max/sum over processes,
 * and the statistics over iterations of docs/original.md §6.2. Pure: no MPI,
 * no I/O, no formatting (the writers in this directory format what it
 * holds). */
#include "report/results.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES_PER_MB 1048576.0

int results_init(struct api_result *r, enum api_id api, int nprocs, int64_t xfer, int64_t bytes,
                 int max_iterations)
{
    memset(r, 0, sizeof(*r));
    if (max_iterations <= 0)
        return -1;
    /* Nothing per iteration yet: results_next_iteration() grows the record
     * as iterations come, so that --max-iterations bounds it without
     * reserving its room up front (docs/measuring.md). */
    r->api = api;
    r->nprocs = nprocs;
    r->xfer = xfer;
    r->bytes = bytes;
    r->max_iterations = max_iterations;
    r->layout = -1;
    r->nphases = 2;
    r->phase[0] = (struct result_phase){"write", true, 0};
    r->phase[1] = (struct result_phase){"read", false, 0};
    return 0;
}

void results_set_phases(struct api_result *r, const struct plan *p)
{
    r->nphases = 0;
    memset(r->phase, 0, sizeof r->phase);
    for (int i = 0; i < p->nphases; i++) {
        const struct plan_phase *ph = &p->phases[i];
        if (ph->slot < 0 || ph->slot >= RESULTS_MAX_PHASES)
            continue;
        struct result_phase *rp = &r->phase[ph->slot];
        snprintf(rp->name, sizeof rp->name, "%s", ph->name);
        rp->write = ph->write;
        rp->measures = p->measures[i];
        r->nphases = ph->slot + 1 > r->nphases ? ph->slot + 1 : r->nphases;
    }
}

bool results_timer_reads(const struct api_result *r, enum timer_id t)
{
    int slot = results_timer_slot(t);
    enum timer_kind k = results_timer_kind(t);
    if (k == TIMER_READS)
        return true;
    if (k == TIMER_WRITES)
        return false;
    return slot < r->nphases ? !r->phase[slot].write : slot > 0;
}

void results_release(struct api_result *r)
{
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < LATENCY_CALLS; c++)
            latency_summary_release(&r->latency[p][c]);
    free(r->it);
    free(r->scratch);
    free(r->errors);
    memset(r, 0, sizeof(*r));
}

/* Room for n iterations: the records and the summaries' scratch (three
 * values per iteration), doubled from 8 and at most max_iterations. */
static int results_room(struct api_result *r, int n)
{
    if (n <= r->capacity)
        return 0;
    int cap = r->capacity > 0 ? r->capacity : 8;
    while (cap < n)
        cap = cap > INT_MAX / 2 ? INT_MAX : 2 * cap;
    cap = cap < r->max_iterations ? cap : r->max_iterations;
    struct iter_result *it = realloc(r->it, (size_t)cap * sizeof *it);
    if (!it)
        return -1;
    r->it = it;
    double *scratch = realloc(r->scratch, 3 * (size_t)cap * sizeof *scratch);
    if (!scratch)
        return -1;
    r->scratch = scratch;
    r->capacity = cap;
    return 0;
}

struct iter_result *results_next_iteration(struct api_result *r)
{
    struct iter_result *it;

    if (r->iterations >= r->max_iterations || results_room(r, r->iterations + 1) < 0)
        return NULL;
    it = &r->it[r->iterations++];
    memset(it, 0, sizeof(*it));
    it->status = RUN_OK;
    return it;
}

/* MB/s of `bytes` moved in t seconds; 0 when t is too small to divide by,
 * as the original's MB_PER_SEC. */
static double mb_per_sec(int64_t bytes, double t)
{
    if (fabs(t) < DBL_EPSILON)
        return 0.0;
    return ((double)bytes / BYTES_PER_MB) / t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n > 0 values, sorted in place. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

int64_t results_sample_bytes(const struct api_result *r, int i, enum timer_id t)
{
    int64_t b = r->it[i].bytes[results_timer_reads(r, t) ? 1 : 0];
    return b > 0 ? b : r->bytes;
}

/* The per-iteration MB/s where iterations moved different bytes. */
static void summarize_rates(const struct api_result *r, enum timer_id t, struct timer_summary *s,
                            double *rate)
{
    double bytes = 0, secs = 0;
    int n = 0;
    for (int i = 0; i < r->iterations; i++) {
        if (results_sample_status(r, i, t) != RUN_OK)
            continue;
        int64_t b = results_sample_bytes(r, i, t);
        bytes += (double)b;
        secs += r->it[i].t[t].max;
        rate[n++] = mb_per_sec(b, r->it[i].t[t].max);
    }
    s->mbs_avg = secs > DBL_EPSILON ? bytes / BYTES_PER_MB / secs : 0.0;
    s->mbs_med = median(rate, n);
    s->mbs_min = rate[0];
    s->mbs_max = rate[n - 1];
    confidence_median(rate, n, CONFIDENCE_LEVEL, &s->mbs_ci);
}

/* Do the counted iterations of t all move the run's bytes? */
static bool summarize_same_bytes(const struct api_result *r, enum timer_id t)
{
    for (int i = 0; i < r->iterations; i++)
        if (results_sample_status(r, i, t) == RUN_OK && results_sample_bytes(r, i, t) != r->bytes)
            return false;
    return true;
}

void results_summarize(const struct api_result *r, enum timer_id t, struct timer_summary *s)
{
    double sum = 0.0;

    memset(s, 0, sizeof(*s));
    if (r->iterations <= 0 || (int)t < 0 || t >= TIMER_COUNT)
        return;
    /* The record's own room: a summary never allocates, so that it cannot
     * drop a measure that was recorded. */
    double *v = r->scratch;
    /* Only the slowest process of each iteration counts (docs/original.md §6.2). */
    for (int i = 0; i < r->iterations; i++)
        if (results_sample_status(r, i, t) == RUN_OK)
            v[s->n++] = r->it[i].t[t].max;
    if (s->n > 0) {
        s->t_min = s->t_max = v[0];
        for (int i = 0; i < s->n; i++) {
            s->t_min = v[i] < s->t_min ? v[i] : s->t_min;
            s->t_max = v[i] > s->t_max ? v[i] : s->t_max;
            sum += v[i];
        }
        /* The average throughput is that of the mean time, not the mean of
         * the throughputs. */
        s->t_avg = sum / s->n;
        s->t_med = median(v, s->n);
        confidence_median(v, s->n, CONFIDENCE_LEVEL, &s->t_ci);
        if (summarize_same_bytes(r, t)) {
            s->mbs_max = mb_per_sec(r->bytes, s->t_min);
            s->mbs_avg = mb_per_sec(r->bytes, s->t_avg);
            s->mbs_med = mb_per_sec(r->bytes, s->t_med);
            s->mbs_min = mb_per_sec(r->bytes, s->t_max);
            s->mbs_ci = s->t_ci;
            s->mbs_ci.low = mb_per_sec(r->bytes, s->t_ci.high);
            s->mbs_ci.high = mb_per_sec(r->bytes, s->t_ci.low);
        } else {
            summarize_rates(r, t, s, v + r->iterations);
        }
    }
}

bool results_intervals_within(const struct api_result *r, const struct report_settings *cfg,
                              double fraction)
{
    enum timer_id m[TIMER_COUNT];
    int nm = results_measures(r, cfg, m);
    for (int k = 0; k < nm; k++) {
        struct timer_summary s;
        if (!results_timer_moves_data(m[k]))
            continue;
        results_summarize(r, m[k], &s);
        if (s.n == 0 || !confidence_within(&s.mbs_ci, s.mbs_med, fraction))
            return false;
    }
    return true;
}

const char *results_stop_name(enum iter_stop stop)
{
    static const char *const names[] = {"iterations", "interval", "max_iterations", "max_time",
                                        "error"};
    return (int)stop >= 0 && stop <= STOP_ERROR ? names[stop] : "unknown";
}

/* An I/O error outranks a verification failure: after it nothing stands. */
static int status_severity(enum run_status st)
{
    switch (st) {
    case RUN_OK:
        return 0;
    case RUN_VERIFY_FAILED:
        return 1;
    case RUN_IO_ERROR:
        return 2;
    }
    return 2;
}

enum run_status results_status(const struct api_result *r)
{
    enum run_status worst = RUN_OK;

    for (int i = 0; i < r->iterations; i++)
        if (status_severity(r->it[i].status) > status_severity(worst))
            worst = r->it[i].status;
    return worst;
}

enum run_status results_sample_status(const struct api_result *r, int i, enum timer_id t)
{
    enum run_status st = r->it[i].status;
    if (st == RUN_VERIFY_FAILED && !results_timer_reads(r, t))
        return RUN_OK;
    return st;
}

enum run_status results_measure_status(const struct api_result *r, enum timer_id t)
{
    enum run_status worst = results_status(r);
    if (worst == RUN_IO_ERROR)
        return worst;
    return results_timer_reads(r, t) ? worst : RUN_OK;
}

int results_measure_summary(const struct api_result *r, enum timer_id t, struct timer_summary *s)
{
    results_summarize(r, t, s);
    if (results_measure_status(r, t) != RUN_OK)
        s->n = 0;
    return s->n;
}

void results_log_init(struct results_log *l)
{
    memset(l, 0, sizeof *l);
}

int results_log_add(struct results_log *l, struct api_result *r)
{
    if (l->count == l->capacity) {
        int cap = l->capacity ? 2 * l->capacity : 16;
        struct api_result *runs = realloc(l->runs, (size_t)cap * sizeof *runs);
        if (!runs) {
            results_release(r);
            return -1;
        }
        l->runs = runs;
        l->capacity = cap;
    }
    l->runs[l->count++] = *r;
    memset(r, 0, sizeof *r);
    return 0;
}

void results_log_release(struct results_log *l)
{
    for (int i = 0; i < l->count; i++)
        results_release(&l->runs[i]);
    free(l->runs);
    memset(l, 0, sizeof *l);
}

/* The guide's measures of the phase of slot, in the text report's order. */
static int results_guide_measures(const struct report_settings *cfg, int slot, enum timer_id *out)
{
    int n = 0;
    if (cfg->debug_raw)
        out[n++] = results_timer(slot, TIMER_RAW);
    out[n++] = results_timer(slot, TIMER_FINE);
    out[n++] = results_timer(slot, TIMER_GROSS);
    if (cfg->debug_times) {
        out[n++] = results_timer(slot, TIMER_OPEN);
        out[n++] = results_timer(slot, TIMER_CLOSE);
    }
    return n;
}

int results_measures(const struct api_result *r, const struct report_settings *cfg,
                     enum timer_id out[TIMER_COUNT])
{
    /* A phase's own measures in this order: MADbench2's (busy work, reads,
     * writes), then the guide's. */
    static const enum timer_kind order[TIMER_KINDS] = {TIMER_BUSY, TIMER_READS, TIMER_WRITES,
                                                       TIMER_RAW,  TIMER_FINE,  TIMER_GROSS,
                                                       TIMER_OPEN, TIMER_CLOSE};
    int n = 0;
    for (int slot = 0; slot < r->nphases; slot++) {
        const struct result_phase *ph = &r->phase[slot];
        if (!ph->name[0] || (ph->write ? cfg->read_only : cfg->write_only))
            continue;
        if (!ph->measures) {
            n += results_guide_measures(cfg, slot, out + n);
            continue;
        }
        for (int k = 0; k < TIMER_KINDS; k++)
            if (ph->measures & 1u << order[k])
                out[n++] = results_timer(slot, order[k]);
    }
    return n;
}

const char *results_measure_name(const struct api_result *r, enum timer_id t, char *buf, size_t len)
{
    static const char *const kinds[TIMER_KINDS] = {"_open_close", "",      "_raw",  "_open",
                                                   "_close",      "_busy", "_read", "_write"};
    int slot = results_timer_slot(t);
    if ((int)t < 0 || t >= TIMER_COUNT || slot >= r->nphases)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%s%s", r->phase[slot].name, kinds[results_timer_kind(t)]);
    return buf;
}

int results_timer_moves_data(enum timer_id t)
{
    enum timer_kind k = results_timer_kind(t);
    return k != TIMER_OPEN && k != TIMER_CLOSE && k != TIMER_BUSY;
}

const char *results_status_name(enum run_status st)
{
    switch (st) {
    case RUN_OK:
        return "ok";
    case RUN_VERIFY_FAILED:
        return "verify_failed";
    case RUN_IO_ERROR:
        break;
    }
    return "io_error";
}
