/* advise_race.h: one data set's candidates raced (workload/race.h) by
 * quiet in-process runs of h5perf (setup_run and engine_run on the
 * candidate's words, no report, the results kept by process 0 and sent to
 * every process so that all race alike), the finalists verified with
 * -D v, and the table and the recommendation printed by process 0
 * (docs/advisor.md, "The race" and "The answer"). */
#include "advisor/advise_race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/option.h"
#include "engine/engine.h"
#include "engine/files.h"
#include "engine/setup_files.h"
#include "options/options.h"
#include "report/results.h"
#include "workload/race.h"

#define ADVISE_MIB 1048576.0
/* Finalists verified with -D v. */
#define ADVISE_FINALISTS 3

struct advise_set {
    const struct run *run;
    const struct backend_ops *const *ops;
    struct workload_config *c; /* [n]: c[0] the baseline */
    int n;
    bool reads;                     /* the set is read back */
    bool replay;                    /* a trace's: its last phase, writes and reads */
    double (*wr)[RACE_MAX_SAMPLES]; /* [n]: write MiB/s of each sample */
    double (*rd)[RACE_MAX_SAMPLES];
    int *nw;
    const char *info; /* the user's HDF5_MPI_INFO, restored after each run */
};

/* Candidate c's words with k iterations, no text report (and -D v) into
 * argv (room for WORKLOAD_MAX_WORDS + 8 and iters[16]); its hints into
 * HDF5_MPI_INFO. Returns argc. */
static int advise_words(const struct workload_config *c, int k, bool verify, char **argv,
                        char *iters)
{
    int argc = 0;
    for (int j = 0; j < c->argc; j++)
        argv[argc++] = c->argv[j];
    snprintf(iters, 16, "%d", k);
    argv[argc++] = (char *)opt_word(opt_row_of(OPT_ITERATIONS));
    argv[argc++] = iters;
    /* No text report; nothing else is written. */
    argv[argc++] = (char *)opt_word(opt_row_of(OPT_FORMAT));
    argv[argc++] = "json";
    if (verify) {
        argv[argc++] = (char *)opt_word(opt_row_of(OPT_DEBUG));
        argv[argc++] = "v";
    }
    argv[argc] = NULL;
    if (c->mpi_info[0])
        setenv("HDF5_MPI_INFO", c->mpi_info, 1);
    else
        unsetenv("HDF5_MPI_INFO");
    return argc;
}

/* The user's HDF5_MPI_INFO (info, NULL: unset) back after a run. */
static void advise_env_restore(const char *info)
{
    if (info)
        setenv("HDF5_MPI_INFO", info, 1);
    else
        unsetenv("HDF5_MPI_INFO");
}

int advise_check_one(const struct workload_config *c, struct run *r, struct cli_msg *m)
{
    char *argv[WORKLOAD_MAX_WORDS + 8], iters[16];
    const char *info = getenv("HDF5_MPI_INFO");
    char *saved = info ? strdup(info) : NULL;
    int argc = advise_words(c, 1, false, argv, iters);
    int rc = setup_check(r, argc, argv, m);
    advise_env_restore(saved);
    free(saved);
    return rc;
}

/* Collective: candidate i run quietly with k iterations (and -D v), its
 * results into log on process 0. Returns 0 if the run completed. */
static int advise_quiet(const struct advise_set *a, int i, int k, bool verify,
                        struct results_log *log)
{
    char *argv[WORKLOAD_MAX_WORDS + 8], iters[16];
    int argc = advise_words(&a->c[i], k, verify, argv, iters);
    struct run r;
    int st = setup_run(&r, argc, argv), rc = -1;
    if (st == -1) {
        r.clock = a->run->clock;
        rc = setup_declare_files(&r) ? engine_run(&r, a->ops, r.world_rank == 0 ? log : NULL) : 1;
        files_release();
    }
    setup_release(&r);
    advise_env_restore(a->info);
    return st == -1 && rc == 0 ? 0 : -1;
}

/* Process 0: the run of candidate i's variant in log (an option that adds
 * a variant runs the API's default beside it: workload_config.variant),
 * or NULL unless there is exactly one. */
static const struct api_result *advise_run_of(const struct advise_set *a, int i,
                                              const struct results_log *log)
{
    const struct api_result *found = NULL;
    for (int j = 0; j < log->count; j++) {
        if (log->runs[j].variant != a->c[i].variant)
            continue;
        if (found)
            return NULL;
        found = &log->runs[j];
    }
    return found;
}

/* Process 0: the samples of candidate i's k iterations in log into v (the
 * set's throughput: bytes of both phases over their seconds), wr and rd. */
static int advise_samples(const struct advise_set *a, int i, const struct results_log *log, int k,
                          double *v, double *wr, double *rd)
{
    const struct api_result *r = advise_run_of(a, i, log);
    if (!r || r->iterations < k)
        return -1;
    for (int j = 0; j < k; j++) {
        const struct iter_result *it = &r->it[j];
        double tw = it->t[TIMER_WRITE_GROSS].max, tr = a->reads ? it->t[TIMER_READ_GROSS].max : 0;
        /* A trace's replay (after the prepare phase when it reads): its
         * writes and reads over its open to close (docs/advisor.md,
         * "Traces"). */
        if (a->replay)
            tw = it->t[results_timer(r->nphases - 1, TIMER_GROSS)].max;
        if (it->status != RUN_OK || !(tw > 0) || (a->reads && !(tr > 0)))
            return -1;
        wr[j] = (double)r->bytes / tw / ADVISE_MIB;
        rd[j] = a->reads ? (double)r->bytes / tr / ADVISE_MIB : 0;
        v[j] = (double)r->bytes * (a->reads ? 2 : 1) / (tw + tr) / ADVISE_MIB;
    }
    return 0;
}

/* race_measure_fn: collective; process 0's samples sent to every process. */
static int advise_measure(void *arg, int i, int k, double *v, double *cost)
{
    struct advise_set *a = arg;
    struct results_log log;
    double t0 = a->run->clock();
    results_log_init(&log);
    int rc = advise_quiet(a, i, k, false, &log);
    double buf[3 * RACE_MAX_SAMPLES + 2] = {0};
    if (a->run->world_rank == 0) {
        int at = a->nw[i];
        if (rc == 0 && at + k <= RACE_MAX_SAMPLES)
            rc = advise_samples(a, i, &log, k, buf, buf + RACE_MAX_SAMPLES,
                                buf + 2 * RACE_MAX_SAMPLES);
        buf[3 * RACE_MAX_SAMPLES] = rc;
        buf[3 * RACE_MAX_SAMPLES + 1] = a->run->clock() - t0;
    }
    results_log_release(&log);
    MPI_Bcast(buf, 3 * RACE_MAX_SAMPLES + 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    rc = (int)buf[3 * RACE_MAX_SAMPLES];
    *cost = buf[3 * RACE_MAX_SAMPLES + 1];
    if (rc != 0)
        return -1;
    memcpy(v, buf, (size_t)k * sizeof *v);
    memcpy(a->wr[i] + a->nw[i], buf + RACE_MAX_SAMPLES, (size_t)k * sizeof(double));
    memcpy(a->rd[i] + a->nw[i], buf + 2 * RACE_MAX_SAMPLES, (size_t)k * sizeof(double));
    a->nw[i] += k;
    return 0;
}

/* race_round_fn: a --progress line per round (process 0). */
static void advise_round(void *arg, const struct race *r)
{
    const struct advise_set *a = arg;
    int live = 0;
    for (int i = 0; i < r->n; i++)
        live += r->e[i].state == RACE_ALIVE;
    if (a->run->world_rank == 0 && a->run->cfg.progress)
        fprintf(stderr, "h5perf: advise: round %d done: %d of %d candidates left, %.1f s of %.1f\n",
                r->rounds, live, r->n, r->spent, r->budget);
}

/* Collective: the finalists (those significantly better than the
 * baseline, at most ADVISE_FINALISTS, in rank order) run with -D v; the
 * first that verifies, or -1 (none did, or none was better: the baseline
 * stays). *spent grows by the time taken. */
static int advise_verify(struct advise_set *a, const struct race *r, double *spent, int *count)
{
    int tried = 0;
    for (int k = 0; k < r->n && tried < ADVISE_FINALISTS; k++) {
        int i = r->rank[k];
        if (i == r->baseline || r->e[i].state == RACE_FAILED)
            continue;
        if (r->e[i].n == 0 || !race_better(r, i, r->baseline))
            break;
        struct results_log log;
        double t0 = a->run->clock();
        results_log_init(&log);
        int rc = advise_quiet(a, i, 1, true, &log);
        results_log_release(&log);
        *spent += a->run->clock() - t0;
        *count = ++tried;
        if (rc == 0)
            return i;
        r->e[i].state = RACE_FAILED;
    }
    return -1;
}

int advise_race(const struct run *run, const struct backend_ops *const ops[API_COUNT],
                const struct workload *w, int set, struct workload_config *c, int n, double budget,
                struct advise_answer *out)
{
    struct advise_set a = {.run = run, .ops = ops, .c = c, .n = n};
    a.reads = w->sets[set].read_back != WORKLOAD_READ_NONE;
    a.replay = w->sets[set].kind == WORKLOAD_TRACE;
    a.info = getenv("HDF5_MPI_INFO");
    a.wr = calloc((size_t)n, sizeof *a.wr);
    a.rd = calloc((size_t)n, sizeof *a.rd);
    a.nw = calloc((size_t)n, sizeof *a.nw);
    struct race_entry *e = calloc((size_t)n, sizeof *e);
    int *rank = calloc((size_t)n, sizeof *rank);
    if (!a.wr || !a.rd || !a.nw || !e || !rank) {
        free(a.wr), free(a.rd), free(a.nw), free(e), free(rank);
        return -1;
    }
    struct race r = {.n = n, .baseline = 0, .budget = budget * (1 - ADVISE_VERIFY_SHARE)};
    r.e = e;
    r.rank = rank;
    race_run(&r, advise_measure, advise_round, &a);
    double spent = r.spent;
    int tried = 0, chosen = advise_verify(&a, &r, &spent, &tried);
    *out = (struct advise_answer){.race = r,
                                  .chosen = chosen,
                                  .tried = tried,
                                  .spent = spent,
                                  .wr = a.wr,
                                  .rd = a.rd,
                                  .nw = a.nw,
                                  .reads = a.reads};
    return 0;
}

void advise_answer_release(struct advise_answer *a)
{
    free(a->race.e);
    free(a->race.rank);
    free(a->wr);
    free(a->rd);
    free(a->nw);
    memset(a, 0, sizeof *a);
}
