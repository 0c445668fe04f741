/* advise.h: --advise's set-up. Only process 0 opens the workload file
 * (advise_read, the one function that reads it); every process parses the
 * same bytes, so that all agree on the workload without sending it parsed.
 * Nothing is written but standard output, the one error line and, with
 * --results, the JSON answer (advise_json.h). */
#include "advisor/advise.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/api.h"
#include "cli/option.h"
#include "advisor/advise_check.h"
#include "advisor/advise_hints.h"
#include "advisor/advise_json.h"
#include "advisor/advise_print.h"
#include "advisor/advise_race.h"
#include "engine/agree.h"
#include "engine/input.h"
#include "exit_status.h"
#include "workload/workload.h"

/* Rank 0: the whole file at path into *text (malloc'd). Returns 0, or -1
 * with m. */
static int advise_read(const char *path, char **text, size_t *len, struct cli_msg *m)
{
    struct stat st;
    char why[256];
    FILE *f = input_fopen(path, &st, why, sizeof why);
    if (!f)
        return cli_fail(m, "h5perf: --advise '%s': %s%s", path,
                        strncmp(why, "is ", 3) == 0 ? "" : "cannot be read: ", why);
    if (st.st_size > WORKLOAD_MAX_BYTES) {
        fclose(f);
        return cli_fail(m,
                        "h5perf: --advise '%s': larger than %d bytes (a workload file is a "
                        "short YAML text)",
                        path, WORKLOAD_MAX_BYTES);
    }
    *text = malloc((size_t)st.st_size + 1);
    *len = *text ? fread(*text, 1, (size_t)st.st_size, f) : 0;
    int bad = !*text || ferror(f);
    fclose(f);
    if (bad) {
        free(*text);
        *text = NULL;
        return cli_fail(m, "h5perf: --advise '%s': cannot be read", path);
    }
    return 0;
}

/* Collective: process 0's text of the workload file on every process
 * (*text malloc'd). Returns true on every process if all have it. */
static bool advise_share(const struct run *run, char **text, size_t *len, struct cli_msg *m)
{
    long long n = -1;
    *text = NULL;
    *len = 0;
    if (run->world_rank == 0 && advise_read(run->cfg.advise, text, len, m) == 0)
        n = (long long)*len;
    MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (n < 0)
        return false;
    if (run->world_rank != 0)
        *text = malloc((size_t)n + 1);
    if (!agree_all(MPI_COMM_WORLD, *text != NULL)) {
        cli_fail(m, "h5perf: --advise '%s': out of memory", run->cfg.advise);
        return false;
    }
    MPI_Bcast(*text, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD); /* n <= WORKLOAD_MAX_BYTES */
    *len = (size_t)n;
    return true;
}

/* --advise takes no other option but --budget, --progress and --results
 * (the workload file declares the whole run); --results names the JSON
 * answer, so it needs --budget and a .json name. */
static int advise_alone(const struct config *c, struct cli_msg *m)
{
    for (int id = 0; id < OPT_COUNT; id++)
        if (id != OPT_ADVISE && id != OPT_BUDGET && id != OPT_PROGRESS && id != OPT_RESULTS &&
            c->spelled[id])
            return cli_fail(m,
                            "h5perf: %s: cannot be combined with %s (the workload file "
                            "declares the run)",
                            c->spelled[id], c->spelled[OPT_ADVISE]);
    if (c->results && c->results_format != FORMAT_JSON)
        return cli_fail(m,
                        "h5perf: %s '%s': the advisor's answer is JSON: give a name ending in "
                        ".json",
                        c->spelled[OPT_RESULTS], c->results);
    if (c->results && !c->spelled[OPT_BUDGET])
        return cli_fail(m,
                        "h5perf: %s '%s': applies to %s with --budget (nothing is measured "
                        "without it)",
                        c->spelled[OPT_RESULTS], c->results, c->spelled[OPT_ADVISE]);
    return 0;
}

/* Rank 0: the search's candidates of every choice, one line. */
static void advise_print_search(const struct workload *w)
{
    const struct workload_search *s = &w->search;
    char text[64];
    printf("search:");
    for (int d = 0; d < workload_dim_count(); d++) {
        printf(" %s", workload_search_key((enum workload_dim)d));
        for (int i = 0; i < s->dim[d].n; i++) {
            workload_value_text((enum workload_dim)d, s->dim[d].v[i], text, sizeof text);
            printf("%s%s", i ? "," : " ", text);
        }
        printf(";");
    }
    printf(" mpiio_components");
    for (int i = 0; i < s->ncomponents; i++)
        printf("%s%s", i ? "," : " ", s->components[i]);
    printf("%s;", s->ncomponents ? "" : " every one the MPI library has");
    printf(" hints%s", s->nhints ? "" : " none");
    for (int h = 0; h < s->nhints; h++) {
        printf(" %s=", s->hints[h].key);
        for (int i = 0; i < s->hints[h].n; i++)
            printf("%s%s", i ? "," : "", s->hints[h].values[i]);
        printf(",unset");
    }
    printf("\n");
}

/* Rank 0: what the application of trace set i did, from its trace file
 * (a regular file, read whole, every rule of its format checked) into
 * *rec. Returns 0, or -1 with m naming the set's trace key. */
static int advise_trace_recorded(const struct workload *w, int i, struct workload_recorded *rec,
                                 struct cli_msg *m)
{
    const struct workload_set *set = &w->sets[i];
    char path[WORKLOAD_TEXT_MAX], why[512];
    struct stat st;
    workload_trace_path(w, set, path, sizeof path);
    FILE *f = input_fopen(path, &st, why, sizeof why);
    char *text = f ? malloc((size_t)st.st_size + 1) : NULL;
    size_t n = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    int rc = -1;
    if (!f)
        cli_fail(m, "h5perf: workload '%s', line %d, %s.trace: '%s' %s%s", w->path, set->line_trace,
                 set->key, path, strncmp(why, "is ", 3) == 0 ? "" : "cannot be read: ", why);
    else if (!text || n != (size_t)st.st_size)
        cli_fail(m, "h5perf: workload '%s', line %d, %s.trace: '%s' cannot be read: %s", w->path,
                 set->line_trace, set->key, path, text ? "short read" : "out of memory");
    else if (workload_trace_recorded(text, n, rec, why, sizeof why) < 0)
        cli_fail(m, "h5perf: workload '%s', line %d, %s.trace: '%s': %s", w->path, set->line_trace,
                 set->key, path, why);
    else
        rc = 0;
    free(text);
    if (f)
        fclose(f);
    return rc;
}

/* Rank 0: every map and trace file the workload names is a regular file
 * that can be opened, checked without waiting on it (a FIFO), before any
 * candidate reads it; a trace is read and its format checked. Returns 0,
 * or -1 with m. */
static int advise_check_maps(const struct workload *w, struct cli_msg *m)
{
    for (int i = 0; i < w->nsets; i++) {
        const struct workload_set *set = &w->sets[i];
        char path[WORKLOAD_TEXT_MAX], why[256];
        struct stat st;
        struct workload_recorded rec;
        if (set->kind == WORKLOAD_TRACE && advise_trace_recorded(w, i, &rec, m) < 0)
            return -1;
        if (set->kind != WORKLOAD_MAP)
            continue;
        workload_map_path(w, set, path, sizeof path);
        int fd = input_open_regular(path, &st, why, sizeof why);
        if (fd >= 0) {
            close(fd);
            continue;
        }
        return cli_fail(m, "h5perf: workload '%s', line %d, %s.decomposition.map: '%s' %s%s",
                        w->path, set->line_map, set->key, path,
                        strncmp(why, "is ", 3) == 0 ? "" : "cannot be read: ", why);
    }
    return 0;
}

/* The candidates of every set, counted into counts[] (every process finds
 * the same). Returns 0, or -1 with m. */
static int advise_count(const struct workload *w, int world_size, int *counts, struct cli_msg *m)
{
    for (int i = 0; i < w->nsets; i++)
        if (workload_candidates(w, i, world_size, WORKLOAD_MAX_CANDIDATES, NULL, &counts[i], m) < 0)
            return -1;
    return 0;
}

/* Is candidate c measurable in this launch: its MPI-IO component the one
 * MPI_Init chose (OMPI_MCA_io, or the default when it names none)? */
static bool advise_this_launch(const struct workload_config *c)
{
    const char *now = getenv("OMPI_MCA_io");
    return !c->mpiio_component[0] || (now && strcmp(now, c->mpiio_component) == 0);
}

/* *dst = *src, its words' pointers into its own words. */
static void advise_copy(struct workload_config *dst, const struct workload_config *src)
{
    if (dst == src)
        return;
    *dst = *src;
    for (int j = 0; j < dst->argc; j++)
        dst->argv[j] = dst->words + (src->argv[j] - src->words);
}

/* Set number i's candidates after its baseline into c (room for count +
 * 1): those equal to the baseline and those of another MPI-IO component
 * left out (their count into *other, said on rank 0 when say), and those
 * checked found refused (NULL: none checked yet); their number, the
 * baseline's included: what the race races. Or -1. */
static int advise_collect(const struct run *run, const struct workload *w, int i, int count,
                          const struct workload_config *base, struct workload_config *c, int *other,
                          bool say, const struct advise_checked *checked)
{
    struct cli_msg m = {""};
    int n = 0;
    char a[WORKLOAD_TEXT_MAX], b[WORKLOAD_TEXT_MAX];
    advise_copy(&c[0], base);
    if (workload_candidates(w, i, run->world_size, count, c + 1, &n, &m) < 0)
        return -1;
    workload_config_text(base, a, sizeof a);
    int kept = 1;
    *other = 0;
    for (int k = 1; k <= n; k++) {
        workload_config_text(&c[k], b, sizeof b);
        if (!advise_this_launch(&c[k]))
            (*other)++;
        else if (strcmp(a, b) != 0)
            advise_copy(&c[kept++], &c[k]);
    }
    if (say && *other && run->world_rank == 0)
        printf("%s: %d candidate%s of another MPI-IO component left out: each needs its own "
               "launch with OMPI_MCA_io set (docs/advisor.md)\n",
               w->sets[i].key, *other, *other == 1 ? "" : "s");
    return checked ? advise_checked_keep(checked, c, kept) : kept;
}

/* Rank 0: the number of candidates set number i's race will have
 * (advise_collect()), or -1 (out of memory). */
static int advise_raced(const struct run *run, const struct workload *w, int i, int count,
                        const struct workload_config *base, const struct advise_checked *k)
{
    struct workload_config *c = calloc((size_t)count + 1, sizeof *c);
    int other = 0, n = c ? advise_collect(run, w, i, count, base, c, &other, false, k) : -1;
    free(c);
    return n;
}

/* Rank 0: what the advisor would race. */
static int advise_print(const struct run *run, const struct workload *w,
                        const struct workload_config *cfgs, const int *counts,
                        const struct advise_checked *checked, const struct advise_hints_left *left)
{
    char line[2 * WORKLOAD_TEXT_MAX];
    printf("workload '%s'%s%s%s: %d process%s, %d data set%s\n", w->path, w->name ? " (" : "",
           w->name ? w->name : "", w->name ? ")" : "", cfgs[0].nprocs,
           cfgs[0].nprocs == 1 ? "" : "es", w->nsets, w->nsets == 1 ? "" : "s");
    for (int i = 0; i < w->nsets; i++) {
        workload_config_text(&cfgs[i], line, sizeof line);
        printf("baseline of %s '%s': %s\n", w->sets[i].key, w->sets[i].name, line);
        int n = advise_raced(run, w, i, counts[i], &cfgs[i], &checked[i]);
        if (n < 0) {
            fprintf(stderr, "h5perf: --advise: out of memory for the candidates of %s\n",
                    w->sets[i].key);
            return EXIT_RUN_FAILED;
        }
        printf("candidates of %s '%s': %d, the baseline among them\n", w->sets[i].key,
               w->sets[i].name, n);
        if (checked[i].nrefused)
            printf("%s: %d candidate%s h5perf refuses left out, e.g. %s\n", w->sets[i].key,
                   checked[i].nrefused, checked[i].nrefused == 1 ? "" : "s", checked[i].first);
    }
    advise_print_search(w);
    for (int i = 0; i < left->n; i++)
        printf("hints left out: %s: %s\n", left->keys[i], left->why[i]);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "h5perf: cannot write to standard output: %s\n",
                strerror(errno ? errno : EIO));
        return EXIT_RUN_FAILED;
    }
    return EXIT_OK;
}

/* Collective: process 0's status after it wrote to the JSON answer (ok
 * false: a write failed, said in one line); EXIT_OK or EXIT_RUN_FAILED
 * on every process. */
static int advise_json_status(const struct run *run, bool ok)
{
    int status = ok ? EXIT_OK : EXIT_RUN_FAILED;
    if (!ok && run->world_rank == 0)
        fprintf(stderr, "h5perf: cannot write the advisor's answer to '%s': %s\n", run->cfg.results,
                strerror(errno ? errno : EIO));
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

/* Collective: every set raced within its share of the budget, each
 * answer printed by process 0 (and written into the JSON answer with
 * --results). Returns the exit status. */
static int advise_search(const struct run *run, const struct backend_ops *const ops[API_COUNT],
                         const struct workload *w, const struct workload_config *cfgs,
                         const int *counts, const struct advise_checked *checked)
{
    const char *io = getenv("OMPI_MCA_io");
    bool json = run->cfg.results != NULL, writer = json && run->world_rank == 0;
    struct advise_json doc = {0};
    double share = run->cfg.budget / w->nsets;
    if (run->world_rank == 0)
        printf("MPI-IO component: %s (chosen when MPI started: another is raced by its own "
               "launch with OMPI_MCA_io set, docs/advisor.md)\n",
               io ? io : "the MPI library's default");
    errno = 0;
    int status = advise_json_status(run, !writer || advise_json_begin(&doc, run->cfg.results, w,
                                                                      cfgs[0].nprocs,
                                                                      run->cfg.budget, io) == 0);
    for (int i = 0; i < w->nsets && status == EXIT_OK; i++) {
        struct workload_config *c = calloc((size_t)counts[i] + 1, sizeof *c);
        int other = 0,
            n = c ? advise_collect(run, w, i, counts[i], &cfgs[i], c, &other, true, &checked[i])
                  : -1;
        struct advise_answer a;
        if (n < 0 || advise_race(run, ops, w, i, c, n, share, &a) < 0) {
            free(c);
            if (run->world_rank == 0)
                fprintf(stderr, "h5perf: --advise: out of memory for the candidates of %s\n",
                        w->sets[i].key);
            status = EXIT_RUN_FAILED;
            break;
        }
        if (run->world_rank == 0) {
            /* A trace's recorded figures, beside the recommendation; the
             * file was read and checked before the race. */
            struct workload_recorded rec;
            struct cli_msg rm;
            bool recorded =
                w->sets[i].kind == WORKLOAD_TRACE && advise_trace_recorded(w, i, &rec, &rm) == 0;
            advise_print_answer(w, i, c, &a, share, recorded ? &rec : NULL);
            fflush(stdout);
            if (writer)
                advise_json_set(&doc, w, i, c, &a, share, other, &checked[i],
                                recorded ? &rec : NULL);
        }
        advise_answer_release(&a);
        free(c);
    }
    if (status == EXIT_OK && json) {
        errno = 0;
        status = advise_json_status(run, !writer || advise_json_end(&doc) == 0);
    }
    if (writer)
        advise_json_abandon(&doc);
    return status;
}

/* Collective: every set's candidates checked (advise_check.h) into
 * checked[] before anything is printed or measured. Returns 0, or -1 with
 * the workload's refusal in m on process 0. */
static int advise_check_all(const struct run *run, const struct workload *w,
                            const struct workload_config *cfgs, const int *counts,
                            struct advise_checked *checked, struct cli_msg *m)
{
    double share = run->cfg.budget > 0 ? run->cfg.budget / w->nsets : 0;
    for (int i = 0; i < w->nsets; i++) {
        struct workload_config *c = calloc((size_t)counts[i] + 1, sizeof *c);
        int other = 0,
            n = c ? advise_collect(run, w, i, counts[i], &cfgs[i], c, &other, false, NULL) : -1;
        if (!agree_all(MPI_COMM_WORLD, n >= 0)) {
            free(c);
            return cli_fail(m, "h5perf: --advise: out of memory for the candidates of %s",
                            w->sets[i].key);
        }
        int rc =
            advise_check_set(run, w, i, c, n, share * (1 - ADVISE_VERIFY_SHARE), &checked[i], m);
        free(c);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int advise_run(const struct run *run, const struct backend_ops *const ops[API_COUNT])
{
    struct cli_msg m = {""};
    char *text = NULL;
    size_t len = 0;
    struct workload w;
    struct workload_config *cfgs = NULL;
    int *counts = NULL;
    bool parsed = false;
    bool ok = advise_alone(&run->cfg, &m) == 0 && advise_share(run, &text, &len, &m);
    if (ok)
        ok = parsed = workload_parse(run->cfg.advise, text, len, &w, &m) == 0;
    if (ok) {
        cfgs = calloc((size_t)w.nsets, sizeof *cfgs);
        counts = calloc((size_t)w.nsets, sizeof *counts);
        ok = cfgs && counts
                 ? workload_baseline_configs(&w, run->world_size, cfgs, &m) == 0 &&
                       advise_count(&w, run->world_size, counts, &m) == 0
                 : cli_fail(&m, "h5perf: --advise '%s': out of memory", run->cfg.advise) == 0;
    }
    /* The maps the workload names, and the JSON answer's file, refused
     * before anything is listed or measured. */
    if (ok && run->world_rank == 0)
        ok = advise_check_maps(&w, &m) == 0;
    if (ok && run->world_rank == 0 && run->cfg.results)
        ok = advise_json_check(run->cfg.spelled[OPT_RESULTS], run->cfg.results, run->cfg.advise,
                               &m) == 0;
    /* Every process parsed the same bytes: process 0's line is theirs. */
    ok = agree_all(MPI_COMM_WORLD, ok);
    int status = EXIT_USAGE;
    if (!ok && run->world_rank == 0)
        fprintf(stderr, "%s\n", m.line[0] ? m.line : "h5perf: --advise: failed on a process");
    /* The file's candidates were counted (and refused beyond the limit) as
     * written, the same on every machine; those of this launch follow. */
    struct advise_hints_left left = {0};
    struct advise_checked *checked = ok ? calloc((size_t)w.nsets, sizeof *checked) : NULL;
    if (ok) {
        advise_hints_filter(run, &w, &left);
        ok = agree_all(MPI_COMM_WORLD,
                       advise_count(&w, run->world_size, counts, &m) == 0 && checked != NULL);
        status = EXIT_RUN_FAILED;
        if (!ok && run->world_rank == 0)
            fprintf(stderr, "%s\n", m.line[0] ? m.line : "h5perf: --advise: failed on a process");
    }
    /* A run h5perf refuses is refused here, once, before anything is
     * printed or measured (docs/advisor.md, "Running it"). */
    if (ok && advise_check_all(run, &w, cfgs, counts, checked, &m) < 0) {
        ok = false;
        status = EXIT_USAGE;
        if (run->world_rank == 0)
            fprintf(stderr, "%s\n", m.line);
    }
    if (ok)
        status =
            run->world_rank == 0 ? advise_print(run, &w, cfgs, counts, checked, &left) : EXIT_OK;
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (status == EXIT_OK && run->cfg.budget > 0)
        status = advise_search(run, ops, &w, cfgs, counts, checked);
    else if (status == EXIT_OK && run->world_rank == 0)
        fprintf(stderr, "h5perf: --advise: nothing was measured: give --budget SECONDS to race "
                        "the candidates\n");
    for (int i = 0; checked && i < w.nsets; i++)
        advise_checked_release(&checked[i]);
    free(checked);
    if (parsed)
        workload_release(&w);
    free(cfgs);
    free(counts);
    free(text);
    return status;
}
