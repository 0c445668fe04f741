/* libFuzzer target for the workload file's parser (src/workload,
 * docs/advisor.md "The workload file"): the input is a workload file.
 * workload_parse(); a refusal must be one line naming the file ("h5perf:
 * workload 'fuzz.yaml'..."), and an accepted workload must keep its
 * promises: 1 to WORKLOAD_MAX_SETS sets with unique names, every choice's
 * search with a candidate, and for the baseline and each search's first
 * and last candidates, every set's run either refused in one line or
 * words that h5perf's option parser took (checked inside
 * workload_config), NULL-terminated and printable as a command line; the
 * candidates of each set counted (up to 8) or refused in one line. No
 * MPI. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_line(const struct cli_msg *m)
{
    static const char prefix[] = "h5perf: workload 'fuzz.yaml'";
    size_t len = strnlen(m->line, sizeof m->line);
    if (len == 0 || len == sizeof m->line || strchr(m->line, '\n') ||
        strncmp(m->line, prefix, sizeof prefix - 1) != 0)
        abort();
}

/* The run of set s with choice c on world processes. */
static void check_config(const struct workload *w, int s, const struct workload_choice *c,
                         int world)
{
    struct workload_config *cfg = malloc(sizeof *cfg);
    struct cli_msg m = {""};
    char text[2 * WORKLOAD_TEXT_MAX];
    if (!cfg)
        return;
    int rc = workload_config(w, s, c, world, cfg, &m);
    if (rc < -1 || rc > 1)
        abort();
    if (rc != 0) {
        check_line(&m);
    } else {
        if (cfg->argc < 3 || cfg->argc > WORKLOAD_MAX_WORDS || cfg->argv[cfg->argc] ||
            strcmp(cfg->argv[0], "h5perf") != 0 || cfg->nprocs < 1 || cfg->nprocs > world ||
            cfg->set != s)
            abort();
        for (int i = 0; i < cfg->argc; i++)
            if (!cfg->argv[i] || !cfg->argv[i][0])
                abort();
        workload_config_text(cfg, text, sizeof text);
        if (strlen(text) >= sizeof text || !strstr(text, "mpiexec -n "))
            abort();
    }
    free(cfg);
}

/* The baseline, and every choice's first and last candidates. */
static void check_runs(const struct workload *w)
{
    int world = workload_processes(w, 4);
    if (world < 1)
        abort();
    if (world > 1 << 16)
        return; /* h5perf's own checks of so many processes only cost time */
    for (int s = 0; s < w->nsets; s++) {
        check_config(w, s, &w->baseline, world);
        int n = -1;
        struct cli_msg m = {""};
        if (workload_candidates(w, s, world, 8, NULL, &n, &m) != 0)
            check_line(&m);
        else if (n < 0 || n > 8)
            abort();
    }
    for (int d = 0; d < workload_dim_count(); d++) {
        const struct workload_values *l = &w->search.dim[d];
        if (l->n < 1 || l->n > WORKLOAD_MAX_VALUES)
            abort();
        for (int k = 0; k < 2; k++) {
            struct workload_choice c = w->baseline;
            c.v[d] = l->v[k ? l->n - 1 : 0];
            for (int s = 0; s < w->nsets; s++)
                check_config(w, s, &c, world);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct workload w;
    struct cli_msg m = {""};
    if (workload_parse("fuzz.yaml", (const char *)data, size, &w, &m) != 0) {
        check_line(&m);
        return 0;
    }
    if (w.nsets < 1 || w.nsets > WORKLOAD_MAX_SETS)
        abort();
    for (int i = 0; i < w.nsets; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(w.sets[i].name, w.sets[j].name) == 0)
                abort();
    check_runs(&w);
    workload_release(&w);
    return 0;
}
