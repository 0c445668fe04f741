/* advise_check.h: every candidate of a set checked by h5perf's own
 * validation (setup_check) before anything is measured, so that a run
 * h5perf refuses is never raced, printed or recommended. Formats the
 * workload's refusal; prints nothing. */
#include "advisor/advise_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/option.h"
#include "advisor/advise_print.h"
#include "advisor/advise_race.h"
#include "engine/check.h"

/* The refusal's text after "h5perf: ". */
static const char *advise_why(const struct cli_msg *m)
{
    return strncmp(m->line, "h5perf: ", 8) == 0 ? m->line + 8 : m->line;
}

/* "3.6 hours", "16 minutes", "12 s" of seconds. */
static void advise_duration(double seconds, char *buf, size_t len)
{
    if (seconds >= 3600.0)
        snprintf(buf, len, "%.1f hours", seconds / 3600.0);
    else if (seconds >= 60.0)
        snprintf(buf, len, "%.0f minutes", seconds / 60.0);
    else
        snprintf(buf, len, "%.1f s", seconds);
}

/* A candidate's options from -A on (its choices), for the line that
 * says it was left out. */
static void advise_options(const struct workload_config *c, char *buf, size_t len)
{
    size_t at = 0;
    bool on = false;
    buf[0] = '\0';
    for (int i = 0; i < c->argc && at < len; i++) {
        if (advise_choice_word(c, i, &on))
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "", c->argv[i]);
    }
}

/* Collective: candidate i of c checked; *least its least seconds of one
 * sample (engine_least_seconds). Returns 0, or -1 with m. */
static int advise_check_cand(const struct workload_config *c, double *least, struct cli_msg *m)
{
    struct run r;
    const struct session_point *most;
    int rc = advise_check_one(c, &r, m);
    *least = rc == 0 ? engine_least_seconds(&r.session, &most) : 0;
    MPI_Bcast(least, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* every process decides alike */
    setup_release(&r);
    return rc;
}

int advise_check_set(const struct run *run, const struct workload *w, int set,
                     const struct workload_config *c, int n, double budget,
                     struct advise_checked *out, struct cli_msg *m)
{
    const struct workload_set *ws = &w->sets[set];
    const struct config *cfg = &run->cfg;
    char took[64], share[64];
    double least = 0;
    struct cli_msg one = {""};
    memset(out, 0, sizeof *out);
    if (advise_check_cand(&c[0], &least, &one) < 0)
        return cli_fail(m,
                        "h5perf: workload '%s', line %d, %s: h5perf refuses the baseline's run: %s",
                        w->path, ws->line, ws->key, advise_why(&one));
    /* The estimate is a floor (docs/performance.md): a baseline whose
     * one sample passes its share cannot be measured within it. */
    if (budget > 0 && least > budget) {
        advise_duration(least, took, sizeof took);
        advise_duration(budget, share, sizeof share);
        return cli_fail(m,
                        "h5perf: %s '%s': the baseline of %s '%s' takes more than %s a sample by "
                        "h5perf's estimate (1 us per contiguous run), beyond its %s of the "
                        "budget; give a larger budget or a baseline that moves fewer runs",
                        cfg->spelled[OPT_BUDGET], cli_raw(cfg, OPT_BUDGET), ws->key, ws->name, took,
                        share);
    }
    out->n = n;
    out->refused = calloc((size_t)n, sizeof *out->refused);
    if (!out->refused)
        return cli_fail(m, "h5perf: --advise: out of memory for the candidates of %s", ws->key);
    for (int i = 1; i < n; i++) {
        bool refused = advise_check_cand(&c[i], &least, &one) < 0;
        if (!refused && budget > 0 && least > budget) {
            advise_duration(least, took, sizeof took);
            snprintf(one.line, sizeof one.line,
                     "h5perf: takes more than %s a sample by h5perf's estimate, beyond the "
                     "budget",
                     took);
            refused = true;
        }
        if (!refused)
            continue;
        out->refused[i] = true;
        if (out->nrefused++ == 0 && run->world_rank == 0) {
            char text[WORKLOAD_TEXT_MAX];
            advise_options(&c[i], text, sizeof text);
            snprintf(out->first, sizeof out->first, "%s: %s", text, advise_why(&one));
        }
    }
    if (n > 1 && out->nrefused == n - 1) {
        cli_fail(m,
                 "h5perf: workload '%s', line %d, %s: h5perf refuses every candidate of its "
                 "search besides the baseline, e.g. %s",
                 w->path, ws->line, ws->key, out->first);
        advise_checked_release(out);
        return -1;
    }
    return 0;
}

int advise_checked_keep(const struct advise_checked *k, struct workload_config *c, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (i < k->n && k->refused[i])
            continue;
        if (kept != i) {
            c[kept] = c[i];
            for (int j = 0; j < c[kept].argc; j++)
                c[kept].argv[j] = c[kept].words + (c[i].argv[j] - c[i].words);
        }
        kept++;
    }
    return kept;
}

void advise_checked_release(struct advise_checked *k)
{
    free(k->refused);
    memset(k, 0, sizeof *k);
}
