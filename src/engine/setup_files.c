/* The data files' names and their checks (setup_files.h): every name a run
 * may use checked on rank 0 before any data file exists (absent, not an
 * output, not someone else's, the source of a read-only run), and the
 * registry of created files declared with them. */
#include "engine/setup_files.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "cli/cli.h"
#include "cli/option.h"
#include "engine/agree.h"
#include "engine/files.h"
#include "engine/fsize.h"
#include "engine/names.h"
#include "options/options.h"
#include "pattern/pattern.h"

/* Rank 0, --read-only: the data file of an API (of process rank, -1:
 * shared) exists, is a regular file and can serve every run point that
 * reads it: each process count, each point of the API, before anything is
 * read. */
static int setup_check_source(const struct run *run, int api, int rank, const char *name,
                              struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    const struct backend_ops *b = backend_get((enum api_id)api);
    const char *ro = c->spelled[OPT_READ_ONLY];
    struct stat st;
    if (lstat(name, &st) < 0)
        return cli_fail(m,
                        "h5perf: %s: data file '%s' does not exist (first run the same "
                        "options with -w and HDF5_NOCLEANUP set)",
                        ro, name);
    if (!S_ISREG(st.st_mode))
        return cli_fail(m, "h5perf: %s: data file '%s' is not a regular file", ro, name);
    for (int i = 0; i < run->session.npoints; i++) {
        const struct session_point *sp = &run->session.points[i];
        const struct layout_desc *l = layout_desc(sp->p.layout);
        bool own = l && l->per_process;
        if ((int)sp->p.api != api || own != (rank >= 0) || rank >= sp->p.nprocs)
            continue;
        struct plan plan;
        char why[512] = "", with[64] = "";
        bool made = run->session.pattern->plan(c, &sp->p, own ? rank : 0, 0, &plan) == 0;
        bool fits = made && b->check_source(name, &plan, why, sizeof why) == 0;
        if (made && run->session.pattern->plan_release)
            run->session.pattern->plan_release(&plan);
        if (fits)
            continue;
        if (run->session.ncounts > 1)
            snprintf(with, sizeof with, " with %d process%s", sp->p.nprocs,
                     sp->p.nprocs == 1 ? "" : "es");
        return cli_fail(m, "h5perf: %s: data file '%s' %s%s (written with other options?)", ro,
                        name, why, with);
    }
    return 0;
}

/* Rank 0, --overwrite: the existing data file at name (lstat st) is one
 * h5perf may replace, not a name for someone else's data. */
static int setup_check_replaceable(const struct run *run, const char *name, const struct stat *st,
                                   struct cli_msg *m)
{
    char why[160];
    const char *fix = "remove it";
    if (backend_replaceable(st, true, why, sizeof why) == 0) {
        if (!names_mount_point(name))
            return 0;
        snprintf(why, sizeof why, "is a mount point (a file is mounted on the name)");
        fix = "unmount it";
    }
    return cli_fail(m,
                    "h5perf: data file '%s' %s; h5perf never writes through it, even with %s: %s",
                    name, why, run->cfg.spelled[OPT_OVERWRITE], fix);
}

/* Rank 0: the report (-o) and the results (--results) are files of their
 * own, never a data file of this run, whatever path names them. */
static int setup_check_outputs(const struct run *run, int api, const char *name, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    const enum opt_id ids[2] = {OPT_OUTPUT, OPT_RESULTS};
    const char *paths[2] = {c->output, c->results};
    for (int i = 0; i < 2; i++)
        if (paths[i] && names_same_file(paths[i], name))
            return cli_fail(m, "h5perf: %s '%s': is the %s data file '%s' of this run; %s",
                            c->spelled[ids[i]], paths[i], api_desc((enum api_id)api)->err_name,
                            name,
                            i == 0 ? "give the report a file of its own"
                                   : "give the results a file of their own");
    return 0;
}

/* Rank 0: one data file name of API a this run may use: never an output,
 * the source of a --read-only run, else absent unless --overwrite lets
 * h5perf replace it. */
static int setup_check_name(const struct run *run, int a, int rank, const char *name,
                            struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    struct stat st;
    if (setup_check_outputs(run, a, name, m) < 0)
        return -1;
    if (c->read_only)
        return setup_check_source(run, a, rank, name, m) < 0 ||
                       (c->direct && (opt_row_of(OPT_DIRECT)->apis & API_BIT(a)) &&
                        names_direct(run->dir, c->spelled[OPT_DIRECT], name, m) < 0)
                   ? -1
                   : 0;
    if (lstat(name, &st) < 0)
        return 0;
    if (!c->overwrite)
        return cli_fail(m,
                        "h5perf: data file '%s' already exists and was not created by this run "
                        "(an earlier run with HDF5_NOCLEANUP may have left it); remove it or "
                        "give --overwrite",
                        name);
    return setup_check_replaceable(run, name, &st, m);
}

/* Which names a run uses: the shared ones, and each process's own (a
 * file per process), as its run points' layouts say. */
static void setup_layouts(const struct run *run, bool *shared, bool *fpp)
{
    *shared = *fpp = false;
    for (int i = 0; i < run->session.npoints; i++) {
        const struct layout_desc *l = layout_desc(run->session.points[i].p.layout);
        bool own = l && l->per_process;
        *fpp |= own;
        *shared |= !own;
    }
}

/* Rank 0: the directory exists (creating the $USER level), accepts a new
 * file, and holds none of the run's shared data file names unless
 * --overwrite. Each process's own names (a file per process) are its own
 * to check: setup_check_own_files(). */
int setup_check_files(struct run *run, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    /* A read-only run writes nothing, not even the probe or the $USER level. */
    if (names_dir(c->paraprefix, getenv("USER") ? getenv("USER") : getenv("LOGIN"), !c->read_only,
                  run->dir, sizeof run->dir, &run->dir_created, m) < 0)
        return -1;
    if (!c->read_only &&
        (names_probe(c->paraprefix, run->dir, m) < 0 || fsize_check_dir(run, m) < 0))
        return -1;
    char name[SETUP_PATH_MAX];
    if (c->direct && !c->read_only && names_direct(run->dir, c->spelled[OPT_DIRECT], NULL, m) < 0)
        return -1;
    bool shared, fpp;
    setup_layouts(run, &shared, &fpp);
    int nfiles = pattern_files(c);
    for (int f = 0; shared && f < nfiles; f++)
        for (int a = 0; a < API_COUNT; a++)
            if ((c->apis & API_BIT(a)) && (setup_name(run, f, a, -1, name, m) < 0 ||
                                           setup_check_name(run, a, -1, name, m) < 0))
                return -1;
    return 0;
}

/* Every process, in rank 0's directory: its own data file names (a file
 * per process), as setup_check_files() checks the shared ones, so that no
 * process checks the names of all (docs/scale.md). */
int setup_check_own_files(struct run *run, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    bool shared, fpp;
    setup_layouts(run, &shared, &fpp);
    if (!fpp || run->world_rank >= c->max_procs)
        return 0;
    char name[SETUP_PATH_MAX];
    int nfiles = pattern_files(c);
    for (int f = 0; f < nfiles; f++)
        for (int a = 0; a < API_COUNT; a++)
            if ((c->apis & API_BIT(a)) && (setup_name(run, f, a, run->world_rank, name, m) < 0 ||
                                           setup_check_name(run, a, run->world_rank, name, m) < 0))
                return -1;
    return 0;
}

/* World rank 0, once the registry exists: the outputs written whole at the
 * end (the --results file, a JSON or CSV report), in the two slots after
 * the data files', so that a run that dies leaves none of them empty. */
static void setup_declare_outputs(const struct run *run, int first)
{
    const struct config *c = &run->cfg;
    const char *paths[2] = {c->format != FORMAT_TEXT ? c->output : NULL, c->results};
    FILE *streams[2] = {run->out, run->results};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (paths[i] && streams[i] && streams[i] != stdout && fstat(fileno(streams[i]), &st) == 0 &&
            S_ISREG(st.st_mode))
            files_add_output(first + i, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
    }
}

/* Local, once the registry exists: the side files of every data file that
 * a chosen variant's library makes beside it (HDF5's subfiles), by the
 * file's own name, before any create (files_side_pattern()). */
static void setup_declare_sides(const struct run *run)
{
    const struct config *c = &run->cfg;
    for (int a = 0; a < API_COUNT; a++) {
        unsigned chosen = c->apis & API_BIT(a) ? api_variants(c->api, (enum api_id)a) : 0;
        const char *prefix = NULL;
        for (int v = 0; v < 32 && !prefix; v++)
            if (chosen >> v & 1u && api_variant((enum api_id)a, v))
                prefix = api_variant((enum api_id)a, v)->side_prefix;
        for (int f = 0; prefix && f < pattern_files(c); f++) {
            files_side_pattern(names_slot(f, a, false), prefix);
            files_side_pattern(names_slot(f, a, true), prefix);
        }
    }
}

bool setup_declare_files(const struct run *run)
{
    const struct config *c = &run->cfg;
    int nfiles = pattern_files(c);
    int ndata = names_slot(nfiles, 0, false), nslots = ndata + 2;
    char **paths = calloc((size_t)nslots, sizeof *paths);
    char name[SETUP_PATH_MAX];
    struct cli_msg m;
    bool ok = paths != NULL, shared, fpp;
    setup_layouts(run, &shared, &fpp);
    for (int f = 0; ok && f < nfiles; f++)
        for (int a = 0; ok && a < API_COUNT; a++) {
            if (!(c->apis & API_BIT(a)))
                continue;
            if (shared)
                ok = setup_name(run, f, a, -1, name, &m) == 0 &&
                     (paths[names_slot(f, a, false)] = strdup(name)) != NULL;
            if (ok && fpp)
                ok = setup_name(run, f, a, run->world_rank, name, &m) == 0 &&
                     (paths[names_slot(f, a, true)] = strdup(name)) != NULL;
        }
    const char *outputs[2] = {c->format != FORMAT_TEXT ? c->output : NULL, c->results};
    for (int i = 0; ok && run->world_rank == 0 && i < 2; i++)
        ok = !outputs[i] || (paths[ndata + i] = strdup(outputs[i])) != NULL;
    ok = ok && files_init(nslots, paths, c->nocleanup, run->world_rank == 0) == 0;
    if (ok)
        setup_declare_sides(run);
    if (ok && run->world_rank == 0)
        setup_declare_outputs(run, ndata);
    for (int i = 0; paths && i < nslots; i++)
        free(paths[i]);
    free(paths);
    if (!agree_all(MPI_COMM_WORLD, ok)) {
        if (run->world_rank == 0)
            fprintf(stderr, "h5perf: out of memory for the names of %d data files\n", nslots);
        return false;
    }
    return true;
}

int setup_name(const struct run *run, int f, int api, int rank, char *out, struct cli_msg *m)
{
    const struct api_desc *d = api_desc((enum api_id)api);
    return d ? names_file(run->dir, f + 1, rank, d->suffix, out, SETUP_PATH_MAX, m) : -1;
}
