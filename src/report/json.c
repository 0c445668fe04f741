/* json_write(): the results document of json.h. One function per object of
 * the schema; statistics come from results.h, never computed here. */
#include "report/json.h"

#include "plan/point.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "report/reference.h"
#include "report/text.h"

/* The worst status over every run. */
static enum run_status json_overall(const struct results_log *log)
{
    enum run_status worst = RUN_OK;
    for (int i = 0; i < log->count; i++) {
        enum run_status st = results_status(&log->runs[i]);
        if (st == RUN_IO_ERROR || (st == RUN_VERIFY_FAILED && worst == RUN_OK))
            worst = st;
    }
    return worst;
}

/* A '\n'-separated list as an array of strings (empty lines dropped). */
static void json_lines(struct jsonw *w, const char *text)
{
    jsonw_array(w);
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[8192];
        if (n > 0) {
            snprintf(line, sizeof line, "%.*s", (int)n, p);
            jsonw_string(w, line);
        }
        p += n + (nl ? 1 : 0);
    }
    jsonw_end(w);
}

/* The batch job's keys; a count is written as a number, or null when its
 * variable is not a whole number. */
static const struct {
    const char *key;
    bool count;
} json_batch_keys[BATCH_FIELDS] = {
    [BATCH_JOB_ID] = {"job_id", false},       [BATCH_JOB_NAME] = {"job_name", false},
    [BATCH_PARTITION] = {"partition", false}, [BATCH_NODES] = {"nodes", true},
    [BATCH_NODE_LIST] = {"node_list", false}, [BATCH_STEP_ID] = {"step_id", false},
    [BATCH_TASKS] = {"tasks", true},          [BATCH_TASKS_PER_NODE] = {"tasks_per_node", false},
};

static void json_batch(struct jsonw *w, const struct batch_job *b)
{
    jsonw_key(w, "batch");
    if (!b->system) {
        jsonw_null(w);
        return;
    }
    jsonw_object(w);
    jsonw_key(w, "system");
    jsonw_string(w, b->system);
    for (int f = 0; f < BATCH_FIELDS; f++) {
        const char *v = b->field[f];
        jsonw_key(w, json_batch_keys[f].key);
        if (!json_batch_keys[f].count) {
            jsonw_string(w, v);
            continue;
        }
        char *end = NULL;
        errno = 0;
        long long n = v && *v >= '0' && *v <= '9' ? strtoll(v, &end, 10) : -1;
        if (n >= 0 && errno == 0 && *end == '\0')
            jsonw_int(w, n);
        else
            jsonw_null(w);
    }
    jsonw_end(w);
}

/* The file system's block and I/O sizes (null when unknown) and Lustre's
 * striping of the directory (null elsewhere). */
static void json_fs_layout(struct jsonw *w, const struct fs_layout *l)
{
    const char *keys[2] = {"block_size", "io_size"};
    int64_t sizes[2] = {l->block_size, l->io_size};
    for (int i = 0; i < 2; i++) {
        jsonw_key(w, keys[i]);
        if (sizes[i] > 0)
            jsonw_int(w, sizes[i]);
        else
            jsonw_null(w);
    }
    jsonw_key(w, "lustre");
    if (!l->lustre) {
        jsonw_null(w);
        return;
    }
    jsonw_object(w);
    jsonw_key_int(w, "stripe_size", l->stripe_size);
    jsonw_key_int(w, "stripe_count", l->stripe_count);
    jsonw_key_int(w, "stripe_offset", l->stripe_offset);
    jsonw_key_string(w, "pool", l->pool[0] ? l->pool : NULL);
    jsonw_key_int(w, "components", l->components);
    jsonw_end(w);
}

static void json_context(struct jsonw *w, const struct run_context *c)
{
    jsonw_key(w, "context");
    jsonw_object(w);
    jsonw_key(w, "h5perf_version");
    jsonw_string(w, c->version);
    jsonw_key(w, "h5perf_commit");
    jsonw_string(w, c->commit);
    jsonw_key(w, "build");
    jsonw_object(w);
    jsonw_key(w, "type");
    jsonw_string(w, c->build_type);
    jsonw_key(w, "c_flags");
    jsonw_string(w, c->c_flags);
    jsonw_key(w, "compiler");
    jsonw_string(w, c->compiler);
    jsonw_key(w, "optimized");
    jsonw_bool(w, c->optimized);
    jsonw_end(w);
    jsonw_key(w, "clock");
    jsonw_object(w);
    jsonw_key_string(w, "source", c->clock);
    jsonw_key(w, "ticks_per_second");
    if (c->clock_hz > 0)
        jsonw_number(w, c->clock_hz);
    else
        jsonw_null(w);
    jsonw_end(w);
    jsonw_key(w, "hdf5_version");
    jsonw_string(w, c->hdf5_version);
    jsonw_key(w, "mpi_library");
    jsonw_string(w, c->mpi_library);
    jsonw_key(w, "mpi_version");
    jsonw_string(w, c->mpi_version);
    jsonw_key(w, "api_versions");
    jsonw_object(w);
    for (int a = 0; a < API_COUNT; a++)
        if (c->api_versions[a][0]) {
            jsonw_key(w, api_descs[a].key);
            jsonw_string(w, c->api_versions[a]);
        }
    jsonw_end(w);
    jsonw_key(w, "processes");
    jsonw_int(w, c->processes);
    jsonw_key(w, "hosts");
    jsonw_int(w, c->hosts);
    jsonw_key(w, "host_names");
    json_lines(w, c->host_names);
    jsonw_key(w, "directory");
    jsonw_string(w, c->directory);
    jsonw_key(w, "file_system");
    jsonw_object(w);
    jsonw_key(w, "type");
    jsonw_string(w, c->fs_type);
    char magic[32];
    snprintf(magic, sizeof magic, "0x%lx", c->fs_magic);
    jsonw_key(w, "magic");
    jsonw_string(w, magic);
    json_fs_layout(w, &c->fs_layout);
    jsonw_end(w);
    jsonw_key(w, "start_time");
    jsonw_string(w, c->start_time);
    jsonw_key(w, "end_time");
    jsonw_string(w, c->end_time);
    jsonw_key(w, "command_line");
    jsonw_array(w);
    for (int i = 0; i < c->argc; i++)
        jsonw_string(w, c->argv[i]);
    jsonw_end(w);
    json_batch(w, &c->batch);
    jsonw_end(w);
}

static void json_size(struct jsonw *w, const char *key, int64_t v)
{
    jsonw_key_int(w, key, v);
}

static void json_flag(struct jsonw *w, const char *key, bool v)
{
    jsonw_key_bool(w, key, v);
}

static void json_environment(struct jsonw *w, const struct report_settings *cfg,
                             const struct run_context *c)
{
    jsonw_key(w, "environment");
    jsonw_object(w);
    jsonw_key(w, "HDF5_PARAPREFIX");
    jsonw_string(w, c->env_paraprefix);
    jsonw_key(w, "HDF5_NOCLEANUP");
    jsonw_string(w, c->env_nocleanup);
    jsonw_key(w, "HDF5_MPI_INFO");
    jsonw_string(w, c->env_mpi_info);
    jsonw_end(w);
    jsonw_key(w, "mpi_info");
    jsonw_object(w);
    for (int i = 0; i < cfg->info_count; i++) {
        jsonw_key(w, cfg->info[i].key);
        jsonw_string(w, cfg->info[i].value);
    }
    jsonw_end(w);
    jsonw_key(w, "warnings");
    jsonw_array(w);
    for (int i = 0; i < c->warnings.count; i++)
        jsonw_string(w, c->warnings.line[i]);
    jsonw_end(w);
}

/* The configuration as its owners echo it (parts->config), then the
 * environment. */
static void json_config(struct jsonw *w, const struct json_parts *parts,
                        const struct report_settings *cfg, const struct run_context *c)
{
    jsonw_key(w, "config");
    jsonw_object(w);
    parts->config(w, parts->arg);
    json_environment(w, cfg, c);
    jsonw_end(w);
}

static void json_low_high(struct jsonw *w, const char *key, double low, double high)
{
    jsonw_key(w, key);
    jsonw_object(w);
    jsonw_key(w, "low");
    jsonw_number(w, low);
    jsonw_key(w, "high");
    jsonw_number(w, high);
    jsonw_end(w);
}

/* The 95% interval of the median (docs/results.md, "intervals"); null
 * below the 6 iterations it needs. */
static void json_interval(struct jsonw *w, enum timer_id t, const struct timer_summary *s)
{
    jsonw_key(w, "median_interval");
    if (!s->t_ci.known) {
        jsonw_null(w);
        return;
    }
    jsonw_object(w);
    jsonw_key(w, "level");
    jsonw_number(w, CONFIDENCE_LEVEL);
    jsonw_key(w, "coverage");
    jsonw_number(w, s->t_ci.coverage);
    json_low_high(w, "seconds", s->t_ci.low, s->t_ci.high);
    if (results_timer_moves_data(t)) {
        json_low_high(w, "mib_per_s", s->mbs_ci.low, s->mbs_ci.high);
    } else {
        jsonw_key(w, "mib_per_s");
        jsonw_null(w);
    }
    jsonw_end(w);
}

static void json_summary(struct jsonw *w, const struct api_result *r, enum timer_id t)
{
    struct timer_summary s;
    jsonw_key(w, "summary");
    if (results_measure_summary(r, t, &s) == 0) {
        jsonw_null(w);
        return;
    }
    jsonw_object(w);
    json_size(w, "iterations", s.n);
    jsonw_key(w, "seconds");
    jsonw_object(w);
    const char *tk[4] = {"min", "mean", "median", "max"};
    double tv[4] = {s.t_min, s.t_avg, s.t_med, s.t_max};
    for (int i = 0; i < 4; i++) {
        jsonw_key(w, tk[i]);
        jsonw_number(w, tv[i]);
    }
    jsonw_end(w);
    jsonw_key(w, "mib_per_s");
    if (!results_timer_moves_data(t)) {
        jsonw_null(w);
    } else {
        jsonw_object(w);
        const char *mk[4] = {"max", "avg", "min", "median"};
        double mv[4] = {s.mbs_max, s.mbs_avg, s.mbs_min, s.mbs_med};
        for (int i = 0; i < 4; i++) {
            jsonw_key(w, mk[i]);
            jsonw_number(w, mv[i]);
        }
        jsonw_end(w);
    }
    json_interval(w, t, &s);
    jsonw_end(w);
}

static void json_sample(struct jsonw *w, const struct api_result *r, int i, enum timer_id t)
{
    enum run_status st = results_sample_status(r, i, t);
    const struct timer_stat *ts = &r->it[i].t[t];
    jsonw_object(w);
    json_size(w, "iteration", i + 1);
    jsonw_key(w, "status");
    jsonw_string(w, results_status_name(st));
    json_size(w, "bytes", results_timer_moves_data(t) ? results_sample_bytes(r, i, t) : 0);
    jsonw_key(w, "seconds");
    if (st != RUN_OK) {
        jsonw_null(w);
    } else {
        jsonw_object(w);
        jsonw_key(w, "slowest");
        jsonw_number(w, ts->max);
        jsonw_key(w, "fastest");
        jsonw_number(w, ts->min);
        jsonw_key(w, "mean");
        jsonw_number(w, ts->sum / r->nprocs);
        jsonw_end(w);
    }
    jsonw_end(w);
}

/* One phase of actual_io_mode: null when no collective transfer of it
 * completed (an I/O error came first). */
static void json_io_mode_phase(struct jsonw *w, const struct io_mode_phase *p)
{
    if (p->calls == 0) {
        jsonw_null(w);
        return;
    }
    jsonw_object(w);
    jsonw_key(w, "mode");
    jsonw_string(w, io_mode_phase_mode(p));
    jsonw_key(w, "modes");
    jsonw_array(w);
    for (int m = 0; m < IO_MODE_COUNT; m++)
        if (p->modes & 1u << m)
            jsonw_string(w, io_mode_name((enum io_mode)m));
    jsonw_end(w);
    json_flag(w, "collective", !io_mode_fell_back(p));
    jsonw_key(w, "cause");
    if (p->cause) {
        char words[256];
        io_mode_cause_words(p->cause, words, sizeof words);
        jsonw_string(w, words);
    } else {
        jsonw_null(w);
    }
    json_size(w, "cause_processes", p->cause_processes);
    json_flag(w, "processes_agree", p->agree);
    jsonw_end(w);
}

/* What HDF5 did with the collective transfers of each phase run
 * (docs/results.md, "actual_io_mode"). */
static void json_io_mode(struct jsonw *w, const struct report_settings *cfg,
                         const struct api_result *r)
{
    jsonw_key(w, "actual_io_mode");
    jsonw_object(w);
    if (!cfg->read_only) {
        jsonw_key(w, "write");
        json_io_mode_phase(w, &r->io_mode[0]);
    }
    if (!cfg->write_only) {
        jsonw_key(w, "read");
        json_io_mode_phase(w, &r->io_mode[1]);
    }
    jsonw_end(w);
}

/* The latency of one kind of call in one phase (docs/results.md,
 * "latency"). */
static void json_latency_call(struct jsonw *w, const struct latency_summary *l)
{
    static const char *const q[LATENCY_QUANTILES] = {"p50", "p90", "p99", "p99.9"};
    jsonw_object(w);
    json_size(w, "calls", (int64_t)l->calls);
    jsonw_key(w, "seconds");
    if (l->calls == 0) {
        jsonw_null(w);
    } else {
        jsonw_object(w);
        jsonw_key(w, "min");
        jsonw_number(w, l->min);
        for (int i = 0; i < LATENCY_QUANTILES; i++) {
            jsonw_key(w, q[i]);
            jsonw_number(w, l->q[i]);
        }
        jsonw_key(w, "max");
        jsonw_number(w, l->max);
        jsonw_end(w);
    }
    jsonw_key(w, "histogram");
    jsonw_array(w);
    for (int b = 0; b < l->nbuckets; b++) {
        jsonw_array(w);
        jsonw_number(w, l->upper[b]);
        jsonw_int(w, (int64_t)l->count[b]);
        jsonw_end(w);
    }
    jsonw_end(w);
    jsonw_end(w);
}

/* Has direction p (0: write, 1: read) of r any call (a madbench phase
 * that writes also reads)? */
static bool json_latency_calls(const struct api_result *r, int p)
{
    for (int c = 0; c < LATENCY_CALLS; c++)
        if (r->latency[p][c].calls)
            return true;
    return false;
}

static void json_latency(struct jsonw *w, const struct report_settings *cfg,
                         const struct api_result *r)
{
    jsonw_key(w, "latency");
    jsonw_object(w);
    for (int p = 0; p < 2; p++) {
        if ((p == 0 ? cfg->read_only : cfg->write_only) && !json_latency_calls(r, p))
            continue;
        jsonw_key(w, p == 0 ? "write" : "read");
        jsonw_object(w);
        for (int c = 0; c < LATENCY_CALLS; c++) {
            jsonw_key(w, latency_call_name((enum latency_call)c));
            json_latency_call(w, &r->latency[p][c]);
        }
        jsonw_end(w);
    }
    jsonw_end(w);
}

/* --stonewall's and --duration's account of each iteration. */
static void json_bounded(struct jsonw *w, const struct report_settings *cfg,
                         const struct api_result *r)
{
    jsonw_key(w, "bounded");
    jsonw_array(w);
    for (int i = 0; i < r->iterations; i++) {
        const struct iter_result *it = &r->it[i];
        jsonw_object(w);
        json_size(w, "iteration", i + 1);
        json_size(w, "write_bytes", it->bytes[0]);
        json_size(w, "read_bytes", cfg->write_only ? 0 : it->bytes[1]);
        if (it->stonewalled) {
            jsonw_key(w, "stonewall");
            jsonw_object(w);
            json_size(w, "calls_min", it->sw.calls_min);
            json_size(w, "calls_max", it->sw.calls_max);
            json_size(w, "calls", it->sw.calls);
            json_size(w, "bytes", it->sw.bytes);
            jsonw_key(w, "seconds");
            jsonw_number(w, it->sw.seconds);
            jsonw_key(w, "mib_per_s");
            jsonw_number(w, it->sw.seconds > 0 ? it->sw.bytes / 1048576.0 / it->sw.seconds : 0);
            jsonw_end(w);
        }
        if (it->rep.count > 0) {
            jsonw_key(w, "repetitions");
            jsonw_object(w);
            json_size(w, "count", it->rep.count);
            const char *k[4] = {"min", "max", "mean", "sd"};
            double v[4] = {it->rep.mbs_min, it->rep.mbs_max, it->rep.mbs_mean, it->rep.mbs_sd};
            jsonw_key(w, "mib_per_s");
            jsonw_object(w);
            for (int j = 0; j < 4; j++) {
                jsonw_key(w, k[j]);
                jsonw_number(w, v[j]);
            }
            jsonw_end(w);
            jsonw_end(w);
        }
        jsonw_end(w);
    }
    jsonw_end(w);
}

/* A library's run of the application patterns: its ratio over the
 * reference API's run with the same method (report/reference.h), as the
 * text report's "Library overhead" table has it (docs/results.md). */
static void json_overhead(struct jsonw *w, const struct results_log *log,
                          const struct api_result *r)
{
    const struct api_result *ref = reference_run(log, r);
    if (!ref)
        return;
    jsonw_key(w, "overhead");
    jsonw_object(w);
    jsonw_key(w, "over");
    jsonw_object(w);
    jsonw_key(w, "api");
    jsonw_string(w, api_desc(ref->api)->key);
    const struct api_variant *v = api_variant(ref->api, ref->variant);
    jsonw_key_string(w, "variant", v ? v->label : NULL);
    jsonw_end(w);
    static const struct {
        const char *key;
        enum timer_id t;
    } figures[2] = {{"write", TIMER_WRITE_GROSS}, {"read", TIMER_READ_GROSS}};
    for (int i = 0; i < 2; i++) {
        double num = reference_figure(r, figures[i].t), den = reference_figure(ref, figures[i].t);
        jsonw_key(w, figures[i].key);
        if (isnan(num) || isnan(den) || den <= 0)
            jsonw_null(w);
        else
            jsonw_number(w, num / den);
    }
    jsonw_end(w);
}

static void json_run(struct jsonw *w, const struct json_parts *parts,
                     const struct report_settings *cfg, const struct results_log *log,
                     const struct api_result *r)
{
    enum timer_id m[TIMER_COUNT];
    int nm = results_measures(r, cfg, m);
    char name[48];
    jsonw_object(w);
    json_size(w, "processes", r->nprocs);
    json_size(w, "transfer_size", r->xfer);
    jsonw_key(w, "api");
    jsonw_string(w, api_desc(r->api)->key);
    const struct api_opts *o = api_desc(r->api)->opts;
    if (o) {
        const struct api_variant *v = api_variant(r->api, r->variant);
        jsonw_key_string(w, "variant", v ? v->label : NULL);
        jsonw_key(w, o->prefix);
        o->json_run(w, r->variant);
    }
    if (r->layout >= 0) {
        jsonw_key(w, "layout");
        jsonw_string(w, layout_name(r->layout));
        if (parts->run)
            parts->run(w, parts->arg, r);
        json_size(w, "align_data", r->align);
        json_size(w, "shift", r->shift);
    }
    json_size(w, "buffer_offset", r->buf_offset);
    json_overhead(w, log, r);
    json_size(w, "bytes", r->bytes);
    jsonw_key(w, "status");
    jsonw_string(w, results_status_name(results_status(r)));
    jsonw_key(w, "errors");
    json_lines(w, r->errors);
    if (r->io_mode_known)
        json_io_mode(w, cfg, r);
    jsonw_key(w, "measures");
    jsonw_array(w);
    for (int k = 0; k < nm; k++) {
        jsonw_object(w);
        jsonw_key(w, "measure");
        jsonw_string(w, results_measure_name(r, m[k], name, sizeof name));
        jsonw_key(w, "status");
        jsonw_string(w, results_status_name(results_measure_status(r, m[k])));
        jsonw_key(w, "samples");
        jsonw_array(w);
        for (int i = 0; i < r->iterations; i++)
            json_sample(w, r, i, m[k]);
        jsonw_end(w);
        json_summary(w, r, m[k]);
        jsonw_end(w);
    }
    jsonw_end(w);
    json_latency(w, cfg, r);
    if (cfg->stonewall > 0 || cfg->duration > 0)
        json_bounded(w, cfg, r);
    if (cfg->confidence > 0) {
        jsonw_key(w, "stop");
        jsonw_string(w, results_stop_name(r->stop));
    }
    jsonw_end(w);
}

int json_write(FILE *out, const struct report_settings *cfg, const struct json_parts *parts,
               const struct run_context *ctx, const struct results_log *log)
{
    struct jsonw w;
    jsonw_init(&w, out);
    jsonw_object(&w);
    jsonw_key(&w, "schema");
    jsonw_string(&w, "h5perf-results");
    json_size(&w, "schema_version", JSON_SCHEMA_VERSION);
    jsonw_key(&w, "status");
    jsonw_string(&w, results_status_name(json_overall(log)));
    json_size(&w, "exit_status", ctx->exit_status);
    if (ctx->page_cache[0]) {
        jsonw_key(&w, "page_cache_warnings");
        json_lines(&w, ctx->page_cache);
    }
    json_context(&w, ctx);
    json_config(&w, parts, cfg, ctx);
    jsonw_key(&w, "runs");
    jsonw_array(&w);
    for (int i = 0; i < log->count; i++)
        json_run(&w, parts, cfg, log, &log->runs[i]);
    jsonw_end(&w);
    jsonw_end(&w);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
