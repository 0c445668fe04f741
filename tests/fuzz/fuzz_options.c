/* libFuzzer target for the command line: opt_parse(), then config_finish()
 * and session_build_input() as the set-up does, and the plans of the first and
 * last process of every run point. The input is split on NUL or
 * newline into argv (at most 64 words, argv[0] first); the first byte also
 * gives the number of processes started ('1'..'9' give 1..9, '0' gives 64).
 * Broken invariants of the result abort. No MPI. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "pattern/pattern.h"
#include "plan/plan.h"
#include "session/session.h"
#include "options/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64
#define MAX_WORLD 64

/* The report header goes here; opened once because libFuzzer calls the
 * target millions of times (the only static state of this file). */
static FILE *sink;

/* A message line: "h5perf: " and more, one line, terminated. */
static void check_line(const char *line, size_t cap, const char *prefix)
{
    size_t len = strnlen(line, cap);

    if (len == cap || len <= strlen(prefix) || strncmp(line, prefix, strlen(prefix)) != 0)
        abort();
    if (strchr(line, '\n') != NULL)
        abort();
}

static void check_warnings(const struct cli_warnings *w)
{
    if (w->count < 0 || w->count > CLI_MAX_WARNINGS)
        abort();
    for (int i = 0; i < w->count; i++)
        check_line(w->line[i], sizeof w->line[i], "h5perf: warning: ");
}

/* MPI_Dims_create's promise without MPI: ndims whole numbers whose product
 * is nprocs, largest first (prime factors dealt out to the smallest). */
static void fuzz_dims(int nprocs, int ndims, int *dims)
{
    int left = nprocs;

    for (int d = 0; d < ndims; d++)
        dims[d] = 1;
    for (int f = 2; left > 1;) {
        if (left % f != 0) {
            f++;
            continue;
        }
        int smallest = 0;
        for (int d = 1; d < ndims; d++)
            if (dims[d] < dims[smallest])
                smallest = d;
        dims[smallest] *= f;
        left /= f;
    }
    for (int i = 0; i < ndims; i++)
        for (int j = i + 1; j < ndims; j++)
            if (dims[j] > dims[i]) {
                int t = dims[i];
                dims[i] = dims[j];
                dims[j] = t;
            }
}

/* A step stays inside its buffer, its slabs inside the variable, its
 * first and last flat runs inside the flat file (checked without
 * overflowing). */
static void check_step(const struct plan *p, const struct plan_var *var, const struct plan_step *s)
{
    if (s->kind != PLAN_STEP_IO)
        return;
    if (s->mem_off < 0 || s->bytes < 0 || s->mem_off > p->buffer_bytes ||
        s->bytes > p->buffer_bytes - s->mem_off)
        abort();
    const struct model_slab *slabs = plan_slabs(s);
    for (int i = 0; i < s->nslabs; i++) {
        if (slabs[i].ndims != var->ndims)
            abort();
        for (int d = 0; d < var->ndims; d++) {
            const int64_t *st = slabs[i].start, *cn = slabs[i].count, *bl = slabs[i].block;
            if (st[d] < 0 || cn[d] < 0 || bl[d] < 0 || st[d] > var->dims[d])
                abort();
            if (cn[d] == 0 || bl[d] == 0)
                continue;
            int64_t room = var->dims[d] - st[d] - bl[d];
            if (room < 0 || (cn[d] > 1 && slabs[i].stride[d] > room / (cn[d] - 1)))
                abort();
        }
    }
    int64_t nruns = plan_step_runs(s);
    if (nruns < 0)
        abort();
    for (int64_t i = 0; i<nruns; i += nruns> 1 ? nruns - 1 : 1) {
        int64_t off, len;
        plan_step_run(s, i, &off, &len);
        if (off < 0 || len < 0 || off > p->flat_bytes || len > p->flat_bytes - off)
            abort();
    }
}

/* The plan of process rank at point pt: every phase's first and last step
 * of the first two and the last variable (a file may hold millions of
 * datasets: -d, which would make one input take minutes). */
static void check_plan(const struct config *cfg, const struct pattern_desc *pat,
                       const struct run_point *pt, int rank)
{
    struct plan p;

    if (pat->plan(cfg, pt, rank, 0, &p) != 0)
        abort();
    if (p.nvars <= 0 || p.nphases <= 0 || p.nphases > PLAN_MAX_PHASES || p.buffer_bytes < 0 ||
        p.flat_bytes < 0)
        abort();
    for (int v = 0; v < p.nvars; v = v < 1 || v + 1 >= p.nvars - 1 ? v + 1 : p.nvars - 1) {
        struct plan_var var;
        plan_var(&p, v, &var);
        if (var.ndims < 1 || var.ndims > MODEL_MAX_DIMS || var.elem <= 0)
            abort();
        for (int ph = 0; ph < p.nphases; ph++) {
            struct plan_access acc;
            plan_access(&p, ph, v, &acc);
            if (acc.nsteps < 0)
                abort();
            for (int64_t k = 0; k<acc.nsteps; k += acc.nsteps> 1 ? acc.nsteps - 1 : 1) {
                struct plan_step s;
                plan_step(&p, ph, v, k, &s);
                check_step(&p, &var, &s);
            }
        }
    }
    if (pat->plan_release)
        pat->plan_release(&p);
}

/* Every run point of the session: its counts, and the plans of its first
 * and last processes. */
static void check_session(const struct config *cfg, const struct session *s, int world)
{
    if (s->npoints <= 0 || s->ncounts <= 0)
        abort();
    for (int i = 0; i < s->npoints; i++) {
        const struct run_point *pt = &s->points[i].p;
        if (pt->nprocs < cfg->min_procs || pt->nprocs > cfg->max_procs || pt->nprocs > world)
            abort();
        if (!(cfg->apis & API_BIT(pt->api)))
            abort();
        if (s->points[i].m.max_buffer < 0 || s->points[i].m.max_call < 0)
            abort();
        check_plan(cfg, s->pattern, pt, 0);
        check_plan(cfg, s->pattern, pt, pt->nprocs - 1);
    }
}

/* What a finished and validated configuration promises the engine. */
static void check_config(const struct config *cfg)
{
    if (cfg->align <= 0 || cfg->threshold <= 0 || cfg->iterations <= 0 || cfg->watchdog <= 0)
        abort();
    if (cfg->min_procs < 1 || cfg->min_procs > cfg->max_procs)
        abort();
    if (cfg->debug_level < 0 || cfg->debug_level > 4)
        abort();
    if (cfg->apis == 0 || cfg->apis >= (1u << API_COUNT))
        abort();
}

/* The words of the input, each in an allocation of its own so that ASan
 * sees a read past its NUL. A separator at the very end starts no word. */
static int split_words(const uint8_t *data, size_t size, char *argv[MAX_WORDS + 1])
{
    int argc = 0;
    size_t start = 0;

    for (size_t i = 0; i <= size && argc < MAX_WORDS; i++) {
        if (i < size && data[i] != '\0' && data[i] != '\n')
            continue;
        if (i == size && start == size && argc > 0)
            break;
        argv[argc] = malloc(i - start + 1);
        if (argv[argc] == NULL)
            abort();
        memcpy(argv[argc], data + start, i - start);
        argv[argc++][i - start] = '\0';
        start = i + 1;
    }
    argv[argc] = NULL;
    return argc;
}

/* The steps of setup_parse() after the environment; 0 when h5perf would
 * go on to run (or print its help or version). */
static int parse_all(int argc, char **argv, int world, struct config *cfg)
{
    struct cli_msg msg;
    struct cli_warnings w;

    config_init(cfg);
    if (opt_parse(argc, argv, cfg, &msg) != 0) {
        check_line(msg.line, sizeof msg.line, "h5perf: ");
        return -1;
    }
    if (msg.line[0] != '\0')
        abort();
    /* As setup_parse(): -h and --version end the run before config_finish(). */
    if (cfg->help || cfg->version)
        return 0;
    if (config_finish(cfg, world, &w, &msg) != 0) {
        check_line(msg.line, sizeof msg.line, "h5perf: ");
        return -1;
    }
    check_warnings(&w);
    check_config(cfg);
    struct session s;
    if (session_build_input(&s, cfg, NULL, 0, fuzz_dims, &msg) != 0) {
        check_line(msg.line, sizeof msg.line, "h5perf: ");
        return -1;
    }
    check_session(cfg, &s, world);
    s.pattern->report->header(sink, cfg, 0, "1.14.0", 256);
    session_release(&s);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_WORDS + 1];
    int world = size > 0 ? ((data[0] - '1') & (MAX_WORLD - 1)) + 1 : 1;
    int argc = split_words(data, size, argv);
    struct config cfg;

    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        abort();
    parse_all(argc, argv, world, &cfg);
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return 0;
}
