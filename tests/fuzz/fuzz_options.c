/* libFuzzer target for the command line: opt_parse(), then config_finish()
 * and config_validate() as the set-up does. The input is split on NUL or
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
#include "cli/sweep.h"
#include "pattern/pattern.h"
#include "report/text.h"

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

/* The plan of data_rank's data: its first and last transfers stay inside
 * the dataset (checked without overflowing). */
static void check_plan(const struct pattern_params *pp, int exec_rank, int data_rank)
{
    struct pattern pt;
    struct pattern_vec first, last;
    int64_t room;

    if (pattern_init(&pt, pp, exec_rank, data_rank, NULL) != 0 || pt.ntransfers <= 0)
        abort();
    first = pattern_file_vec(&pt, 0);
    last = pattern_file_vec(&pt, pt.ntransfers - 1);
    if (first.disp < 0 || first.count <= 0 || first.len <= 0 || last.disp < 0 || last.count <= 0 ||
        last.len <= 0)
        abort();
    if (last.disp > pt.dset_bytes || last.len > pt.dset_bytes - last.disp)
        abort();
    room = pt.dset_bytes - last.disp - last.len;
    if (last.count > 1 && (last.stride < 0 || last.stride > room / (last.count - 1)))
        abort();
}

/* Every run of the sweep: block | transfer, (1D) transfer | bytes, and a
 * plan for the first and the last process's data. */
static void check_run(const struct config *cfg, int nprocs, int64_t xfer)
{
    struct pattern_params pp = sweep_pattern_params(cfg, nprocs, xfer);

    if (xfer % cfg->block != 0 || pattern_check(&pp) != PATTERN_OK)
        abort();
    if (!cfg->geometry_2d && (xfer > cfg->bytes || cfg->bytes % xfer != 0))
        abort();
    check_plan(&pp, nprocs - 1, 0);
    check_plan(&pp, 0, nprocs - 1);
}

/* What a finished and validated configuration promises the engine. */
static void check_config(const struct config *cfg, int world)
{
    int nprocs_runs = 0;

    if (cfg->align <= 0 || cfg->threshold <= 0 || cfg->block <= 0 || cfg->bytes <= 0 ||
        cfg->xfer_min <= 0 || cfg->xfer_max <= 0)
        abort();
    if (cfg->num_dsets <= 0 || cfg->num_files <= 0 || cfg->iterations <= 0 || cfg->watchdog <= 0)
        abort();
    if (cfg->xfer_min > cfg->xfer_max || cfg->block > cfg->bytes)
        abort();
    if (cfg->min_procs < 1 || cfg->min_procs > cfg->max_procs || cfg->max_procs > world)
        abort();
    if (cfg->debug_level < 0 || cfg->debug_level > 4)
        abort();
    if (cfg->apis == 0 || cfg->apis >= (1u << API_COUNT))
        abort();
    for (int np = sweep_procs_first(cfg); np != 0; np = sweep_procs_next(cfg, np)) {
        int xfer_runs = 0;
        if (np < cfg->min_procs || np > cfg->max_procs || ++nprocs_runs > 31)
            abort();
        for (int64_t x = sweep_xfer_first(cfg); x != 0; x = sweep_xfer_next(cfg, x)) {
            if (x < cfg->xfer_min || x > cfg->xfer_max || ++xfer_runs > 63)
                abort();
            check_run(cfg, np, x);
        }
        if (xfer_runs == 0)
            abort();
    }
    if (nprocs_runs == 0)
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
 * go on to run (or print its help). */
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
    if (cfg->help)
        return 0;
    if (config_finish(cfg, world, &w, &msg) != 0) {
        check_line(msg.line, sizeof msg.line, "h5perf: ");
        return -1;
    }
    check_warnings(&w);
    if (config_validate(cfg, &msg) != 0) {
        check_line(msg.line, sizeof msg.line, "h5perf: ");
        return -1;
    }
    check_config(cfg, world);
    text_header(sink, cfg, 0, "1.14.0", 256);
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
