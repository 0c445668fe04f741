/* A data set with a choice as an h5perf run (workload.h, struct
 * workload_config): whether the choice applies to the set, the words of
 * existing options, the environment (HDF5_MPI_INFO, OMPI_MCA_io), the check
 * of the words by h5perf's own option parser and defaults, and the shell
 * command line. Pure. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "base/option.h"
#include "cli/dims.h"
#include "plan/point.h"
#include "workload/wl_internal.h"
#include "options/options.h"
#include "pattern/block_options.h"
#include "pattern/map_options.h"
#include "pattern/particles_options.h"
#include "pattern/trace_options.h"

/* The spelling of a core option's row in the words (opt_word()). */
static const char *wl_opt_word(enum opt_id id)
{
    return opt_word(opt_row_of(id));
}

/* The words being written. */
struct wl_words {
    struct workload_config *out;
    size_t used;
    bool full;
};

static void wl_add(struct wl_words *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wl_add(struct wl_words *b, const char *fmt, ...)
{
    struct workload_config *o = b->out;
    size_t room = sizeof o->words - b->used;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->words + b->used, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room || o->argc == WORKLOAD_MAX_WORDS) {
        b->full = true;
        return;
    }
    o->argv[o->argc++] = o->words + b->used;
    o->argv[o->argc] = NULL;
    b->used += (size_t)n + 1;
}

/* An option with a size value ("1M"). */
static void wl_add_size(struct wl_words *b, const char *opt, enum workload_dim d, int64_t v)
{
    char text[32];
    workload_value_text(d, v, text, sizeof text);
    wl_add(b, "%s", opt);
    wl_add(b, "%s", text);
}

static void wl_add_dims(struct wl_words *b, const char *opt, int n, const int64_t *dims)
{
    char text[96];
    dims_text(text, sizeof text, n, dims);
    wl_add(b, "%s", opt);
    wl_add(b, "%s", text);
}

static void wl_add_grid(struct wl_words *b, const char *opt, int n, const int *grid)
{
    int64_t g[MODEL_MAX_DIMS];
    for (int d = 0; d < n; d++)
        g[d] = grid[d];
    wl_add_dims(b, opt, n, g);
}

/* "phdf5 and pnetcdf" of an API mask. */
static void wl_api_names(unsigned apis, char *buf, size_t len)
{
    int total = 0, n = 0;
    size_t at = 0;
    for (int a = 0; a < API_COUNT; a++)
        total += (apis & API_BIT(a)) != 0;
    buf[0] = '\0';
    for (int a = 0; a < API_COUNT && at < len; a++) {
        if (!(apis & API_BIT(a)))
            continue;
        const char *sep = n == 0 ? "" : n == total - 1 ? " and " : ", ";
        n++;
        at += (size_t)snprintf(buf + at, len - at, "%s%s", sep, api_desc((enum api_id)a)->key);
    }
}

/* Which part of choice c does not apply to set s: a choice (enum
 * workload_dim), WORKLOAD_DIM_MAX for the component, + 1 for the hints,
 * with the reason in why; -1 when all of it applies. */
/* Hints that cannot act on the set's run: collective buffering without
 * collective transfers, a read hint without a read (docs/advisor.md,
 * "Hints"). WORKLOAD_DIM_MAX + 1 (the hints), or -1. */
static int wl_hints_apply(const struct workload_set *s, const struct workload_choice *c, char *why,
                          size_t len)
{
    for (int h = 0; h < c->nhints; h++) {
        const char *k = c->hints[h].key;
        size_t n = strlen(k);
        bool cb = strncmp(k, "romio_cb_", 9) == 0 || strncmp(k, "cb_", 3) == 0;
        if (cb && !c->v[WORKLOAD_COLLECTIVE]) {
            snprintf(why, len,
                     "hint %s is collective buffering's, and the transfers are independent", k);
            return WORKLOAD_DIM_MAX + 1;
        }
        if (n > 5 && strcmp(k + n - 5, "_read") == 0 && s->read_back == WORKLOAD_READ_NONE) {
            snprintf(why, len, "hint %s acts on reads, and %s is not read back", k, s->key);
            return WORKLOAD_DIM_MAX + 1;
        }
    }
    return -1;
}

/* A chunk shape (not block) shapes the chunked layout's chunks of a grid
 * array it fits. */
static bool wl_chunk_applies(const struct workload_set *s, const struct workload_choice *c,
                             char *why, size_t len)
{
    int64_t shape[MODEL_MAX_DIMS];
    int nd = workload_chunk_decode(c->v[WORKLOAD_CHUNK], shape);
    if (nd == 0)
        return true;
    if (c->v[WORKLOAD_LAYOUT] != LAYOUT_CHUNKED) {
        char text[96];
        dims_text(text, sizeof text, nd, shape);
        snprintf(why, len, "chunk shape %s is the chunked layout's chunk, and the layout is %s",
                 text, layout_name((int)c->v[WORKLOAD_LAYOUT]));
        return false;
    }
    return workload_chunk_fits(s, nd, shape, why, len);
}

/* Does set s have one variable, as far as the file tells? A map's count
 * without use applies to each of its decompositions, which its map file
 * numbers: not one. */
static bool wl_one_variable(const struct workload_set *s)
{
    if (s->kind != WORKLOAD_MAP)
        return s->nvars <= 1;
    if (!s->nvar_counts)
        return s->map_use && s->nvars <= 1;
    int64_t n = 0;
    for (int i = 0; i < s->nvar_counts; i++)
        n += s->var_counts[i];
    return n <= 1;
}

/* The choices of a trace (docs/advisor.md, "Traces"): the API, the
 * layout shared or fpp, transfer_size as --trace-gather and align_data as
 * --trace-align (every API's); the others, -C among them (the trace
 * pattern's calls are independent), are the arrays' and particles'. */
static int wl_trace_applies(const struct workload_set *s, const struct workload_choice *c,
                            char *why, size_t len)
{
    if (c->v[WORKLOAD_LAYOUT] == LAYOUT_CHUNKED) {
        snprintf(why, len, "the chunked layout stores arrays, and %s is a trace (shared or fpp)",
                 s->key);
        return WORKLOAD_LAYOUT;
    }
    if (c->v[WORKLOAD_COLLECTIVE]) {
        snprintf(why, len, "a trace's calls are replayed independently, and %s is a trace", s->key);
        return WORKLOAD_COLLECTIVE;
    }
    for (int d = 0; d < workload_dim_count(); d++) {
        if (d == WORKLOAD_API || d == WORKLOAD_LAYOUT || d == WORKLOAD_TRANSFER_SIZE ||
            d == WORKLOAD_ALIGN_DATA || c->v[d] == wl_dim_default((enum workload_dim)d))
            continue;
        snprintf(why, len, "%s is a choice of arrays and particle sets, and %s is a trace",
                 workload_baseline_key((enum workload_dim)d), s->key);
        return d;
    }
    if ((c->mpiio_component || c->nhints) && c->v[WORKLOAD_API] == API_POSIX) {
        snprintf(why, len, "applies to the APIs over MPI-IO, not posix");
        return c->mpiio_component ? WORKLOAD_DIM_MAX : WORKLOAD_DIM_MAX + 1;
    }
    return wl_hints_apply(s, c, why, len);
}

static int wl_applies(const struct workload_set *s, const struct workload_choice *c, char *why,
                      size_t len)
{
    if (s->kind == WORKLOAD_TRACE)
        return wl_trace_applies(s, c, why, len);
    enum api_id api = (enum api_id)c->v[WORKLOAD_API];
    const char *key = api_desc(api)->key;
    int64_t layout = c->v[WORKLOAD_LAYOUT];
    if (layout == LAYOUT_CHUNKED && s->kind != WORKLOAD_GRID) {
        snprintf(why, len, "the chunked layout stores arrays decomposed over a grid, and %s is %s",
                 s->key, s->kind == WORKLOAD_MAP ? "decomposed by a map" : "a particle set");
        return WORKLOAD_LAYOUT;
    }
    if (layout != LAYOUT_SHARED && s->read_back == WORKLOAD_READ_GRID) {
        snprintf(why, len, "%s is read back with another grid, which reads the shared layout",
                 s->key);
        return WORKLOAD_LAYOUT;
    }
    for (int d = 0; d < workload_dim_count(); d++) {
        unsigned apis = wl_dim_apis((enum workload_dim)d);
        if (c->v[d] == wl_dim_default((enum workload_dim)d) || !apis || (apis & API_BIT(api)))
            continue;
        char names[96];
        wl_api_names(apis, names, sizeof names);
        snprintf(why, len, "applies to %s, not %s", names, key);
        return d;
    }
    if (!wl_chunk_applies(s, c, why, len))
        return WORKLOAD_CHUNK;
    /* An API row's choice where it has no effect (its opt_advice.needs): a
     * file per process is opened by its process alone (MPI_COMM_SELF); a
     * choice that joins variables has nothing to join in one. */
    for (int d = WORKLOAD_DIM_OPTIONS; d < workload_dim_count(); d++) {
        const struct opt_advice *a = wl_dim_advice((enum workload_dim)d);
        if (c->v[d] == a->dflt)
            continue;
        if ((a->needs & OPT_ADVICE_NEEDS_SHARED) && layout == LAYOUT_FPP) {
            snprintf(why, len, "%s, and the layout fpp gives each file one", a->why);
            return d;
        }
        if ((a->needs & OPT_ADVICE_NEEDS_VARS) && wl_one_variable(s)) {
            snprintf(why, len, "%s, and %s has one variable", a->why, s->key);
            return d;
        }
    }
    if (c->v[WORKLOAD_ALIGN_DATA] && s->kind == WORKLOAD_MAP) {
        snprintf(why, len, "places the arrays of --pattern block and particles, and %s is a map's",
                 s->key);
        return WORKLOAD_ALIGN_DATA;
    }
    if (c->v[WORKLOAD_ALIGN_DATA] && layout == LAYOUT_FPP) {
        snprintf(why, len, "places data in a shared file, and the layout fpp has none");
        return WORKLOAD_ALIGN_DATA;
    }
    if ((c->mpiio_component || c->nhints) && api == API_POSIX) {
        snprintf(why, len, "applies to the APIs over MPI-IO, not posix");
        return c->mpiio_component ? WORKLOAD_DIM_MAX : WORKLOAD_DIM_MAX + 1;
    }
    return wl_hints_apply(s, c, why, len);
}

/* A file the workload names, relative to its directory. */
static void wl_relative(const struct workload *w, const char *name, char *buf, size_t len)
{
    const char *slash = strrchr(w->path, '/');
    if (name[0] == '/' || !slash)
        snprintf(buf, len, "%s", name);
    else
        snprintf(buf, len, "%.*s/%s", (int)(slash - w->path), w->path, name);
}

const struct opt_row *workload_trace_row(enum workload_dim d)
{
    return d == WORKLOAD_TRANSFER_SIZE ? &trace_gather_row
           : d == WORKLOAD_ALIGN_DATA  ? &trace_align_row
                                       : NULL;
}

void workload_map_path(const struct workload *w, const struct workload_set *s, char *buf,
                       size_t len)
{
    wl_relative(w, s->map, buf, len);
}

void workload_trace_path(const struct workload *w, const struct workload_set *s, char *buf,
                         size_t len)
{
    wl_relative(w, s->trace, buf, len);
}

/* The map file, relative to the workload file's directory. */
static void wl_add_map(struct wl_words *b, const struct workload *w, const struct workload_set *s)
{
    char path[WORKLOAD_TEXT_MAX];
    workload_map_path(w, s, path, sizeof path);
    wl_add(b, "%s", opt_word(&map_file_row));
    wl_add(b, "%s", path);
}

/* --vars of a map array: one count, or one per decomposition. */
static void wl_add_map_vars(struct wl_words *b, const struct workload_set *s)
{
    char text[WORKLOAD_MAX_VAR_COUNTS * 12] = "";
    size_t at = 0;
    int n = s->nvar_counts ? s->nvar_counts : s->map_use;
    for (int i = 0; i < n && at < sizeof text; i++) {
        int v = s->nvar_counts ? s->var_counts[i] : i + 1 == s->map_use ? s->nvars : 0;
        at += (size_t)snprintf(text + at, sizeof text - at, "%s%d", i ? "," : "", v);
    }
    wl_add(b, "%s", wl_opt_word(OPT_VARS));
    if (n)
        wl_add(b, "%s", text);
    else
        wl_add(b, "%d", s->nvars);
}

/* The words of the set's data. */
static void wl_add_set(struct wl_words *b, const struct workload *w, const struct workload_set *s,
                       int nprocs)
{
    bool procs = true;
    wl_add(b, "h5perf");
    wl_add(b, "%s", wl_opt_word(OPT_PATTERN));
    if (s->kind == WORKLOAD_GRID) {
        wl_add(b, "block");
        wl_add_dims(b, opt_word(&block_global_row), s->ndims, s->global);
        if (s->grid[0]) {
            wl_add_grid(b, opt_word(&block_grid_row), s->ndims, s->grid);
            procs = false; /* the grid fixes the count */
        }
        wl_add(b, "%s", wl_opt_word(OPT_ELEMENT_SIZE));
        wl_add(b, "%d", s->elem);
        wl_add(b, "%s", wl_opt_word(OPT_VARS));
        wl_add(b, "%d", s->nvars ? s->nvars : 1);
        if (s->read_back == WORKLOAD_READ_GRID)
            wl_add_grid(b, opt_word(&block_read_grid_row), s->ndims, s->read_grid);
    } else if (s->kind == WORKLOAD_TRACE) {
        char path[WORKLOAD_TEXT_MAX];
        workload_trace_path(w, s, path, sizeof path);
        wl_add(b, "trace");
        wl_add(b, "%s", opt_word(&trace_file_row));
        wl_add(b, "%s", path);
    } else if (s->kind == WORKLOAD_MAP) {
        wl_add(b, "map");
        wl_add_map(b, w, s);
        wl_add_map_vars(b, s);
        wl_add(b, "%s", wl_opt_word(OPT_ELEMENT_SIZE));
        wl_add(b, "%d", s->elem);
    } else {
        wl_add(b, "particles");
        if (s->per_process) {
            wl_add(b, "%s", opt_word(&particles_count_row));
            wl_add(b, "%lld", (long long)s->per_process);
        }
        if (s->distribution) {
            wl_add(b, "%s", opt_word(&particles_dist_row));
            wl_add(b, "%s", s->distribution);
        }
        procs = s->nlist == 0; /* a list fixes the count */
        wl_add(b, "%s", wl_opt_word(OPT_VARS));
        wl_add(b, "%d", s->nvars);
    }
    if (procs) {
        wl_add(b, "%s", wl_opt_word(OPT_MIN_PROCS));
        wl_add(b, "%d", nprocs);
        wl_add(b, "%s", wl_opt_word(OPT_MAX_PROCS));
        wl_add(b, "%d", nprocs);
    }
}

/* The words of the choice, and its environment. */
static void wl_add_choice(struct wl_words *b, const struct workload_set *s,
                          const struct workload_choice *c)
{
    static const enum workload_dim sizes[] = {WORKLOAD_ALIGNMENT, WORKLOAD_THRESHOLD,
                                              WORKLOAD_ALIGN_DATA, WORKLOAD_TRANSFER_SIZE,
                                              WORKLOAD_BUFFER_OFFSET};
    struct workload_config *o = b->out;
    wl_add(b, "%s", opt_word(workload_dim_row(WORKLOAD_API)));
    wl_add(b, "%s", api_desc((enum api_id)c->v[WORKLOAD_API])->key);
    wl_add(b, "%s", opt_word(workload_dim_row(WORKLOAD_LAYOUT)));
    wl_add(b, "%s", layout_name((int)c->v[WORKLOAD_LAYOUT]));
    if (c->v[WORKLOAD_COLLECTIVE])
        wl_add(b, "%s", opt_word(workload_dim_row(WORKLOAD_COLLECTIVE)));
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const struct opt_row *row = workload_dim_row(sizes[i]);
        /* A trace's calls gathered and aligned (wl_trace_applies()). */
        if (s->kind == WORKLOAD_TRACE && workload_trace_row(sizes[i]))
            row = workload_trace_row(sizes[i]);
        if (c->v[sizes[i]] != wl_dim_default(sizes[i]))
            wl_add_size(b, opt_word(row), sizes[i], c->v[sizes[i]]);
    }
    int64_t shape[MODEL_MAX_DIMS];
    int nd = workload_chunk_decode(c->v[WORKLOAD_CHUNK], shape);
    if (nd)
        wl_add_dims(b, opt_word(workload_dim_row(WORKLOAD_CHUNK)), nd, shape);
    /* An API row's choice, when not its default: a flag, or a size; an
     * option that adds a variant to the API's default run is measured as
     * that variant's run (workload_config.variant). */
    for (int d = WORKLOAD_DIM_OPTIONS; d < workload_dim_count(); d++) {
        const struct opt_advice *a = wl_dim_advice((enum workload_dim)d);
        const struct opt_row *row = workload_dim_row((enum workload_dim)d);
        if (c->v[d] == a->dflt)
            continue;
        if (a->kind == OPT_ADVICE_FLAG && a->value)
            wl_add(b, "%s=%s", opt_word(row), a->value);
        else if (a->kind == OPT_ADVICE_FLAG)
            wl_add(b, "%s", opt_word(row));
        else
            wl_add_size(b, opt_word(row), (enum workload_dim)d, c->v[d]);
        if (a->variant)
            o->variant = a->variant;
    }
    /* A trace's reads are its own: the replay makes them. */
    if (s->read_back == WORKLOAD_READ_NONE && s->kind != WORKLOAD_TRACE)
        wl_add(b, "%s", wl_opt_word(OPT_WRITE_ONLY));
    size_t at = 0;
    for (int h = 0; h < c->nhints && at < sizeof o->mpi_info; h++)
        at += (size_t)snprintf(o->mpi_info + at, sizeof o->mpi_info - at, "%s%s=%s", h ? ";" : "",
                               c->hints[h].key, c->hints[h].value);
    b->full |= at >= sizeof o->mpi_info;
    if (c->mpiio_component)
        snprintf(o->mpiio_component, sizeof o->mpiio_component, "%s", c->mpiio_component);
}

/* Where the process count comes from: "processes", or the key of the set
 * that fixes it; its line. */
static const char *wl_procs_source(const struct workload *w, int *line, char *key, size_t len)
{
    *line = w->processes_line;
    if (w->processes)
        return "processes";
    for (int i = 0; i < w->nsets; i++) {
        const struct workload_set *s = &w->sets[i];
        if ((s->kind == WORKLOAD_GRID && s->grid[0]) || s->nlist) {
            *line = s->nlist ? s->line_dist : s->line_grid;
            snprintf(key, len, "%s.%s", s->key, s->nlist ? "distribution" : "decomposition.grid");
            return key;
        }
    }
    return NULL;
}

/* h5perf's option parser and defaults on the words (and hints). */
static int wl_check_words(const struct workload *w, const struct workload_set *s,
                          struct workload_config *o, int world_size, struct cli_msg *msg)
{
    struct config *cfg = malloc(sizeof *cfg);
    if (!cfg)
        return cli_fail(msg, "h5perf: workload '%s': out of memory", w->path);
    struct cli_warnings warn = {0};
    config_init(cfg);
    int rc = env_parse(cfg, o->mpi_info[0] ? o->mpi_info : NULL, NULL, NULL,
                       WORKLOAD_HINT_KEY_MAX + 1, WORKLOAD_HINT_VAL_MAX + 1, msg);
    if (rc == 0)
        rc = opt_parse(o->argc, o->argv, cfg, msg);
    if (rc == 0)
        rc = config_finish(cfg, world_size, &warn, msg);
    free(cfg);
    if (rc == 0)
        return 0;
    char why[sizeof msg->line];
    snprintf(why, sizeof why, "%s", strncmp(msg->line, "h5perf: ", 8) ? msg->line : msg->line + 8);
    return cli_fail(msg, "h5perf: workload '%s', line %d, %s: h5perf refuses its run: %s", w->path,
                    s->line, s->key, why);
}

int workload_config(const struct workload *w, int set, const struct workload_choice *c,
                    int world_size, struct workload_config *out, struct cli_msg *msg)
{
    const struct workload_set *s = &w->sets[set];
    char why[256], key[64];
    if (wl_applies(s, c, why, sizeof why) >= 0) {
        cli_fail(msg, "h5perf: workload '%s', line %d, %s: %s", w->path, s->line, s->key, why);
        return 1;
    }
    memset(out, 0, sizeof *out);
    out->set = set;
    out->trace = s->kind == WORKLOAD_TRACE;
    out->nprocs = workload_processes(w, world_size);
    if (out->nprocs > world_size) {
        int line;
        const char *from = wl_procs_source(w, &line, key, sizeof key);
        return cli_fail(msg,
                        "h5perf: workload '%s', line %d, %s: needs %d processes, only %d %s "
                        "started",
                        w->path, line, from, out->nprocs, world_size,
                        world_size == 1 ? "was" : "were");
    }
    struct wl_words b = {out, 0, false};
    wl_add_set(&b, w, s, out->nprocs);
    wl_add_choice(&b, s, c);
    if (b.full)
        return cli_fail(msg, "h5perf: workload '%s', line %d, %s: its command line is too long",
                        w->path, s->line, s->key);
    return wl_check_words(w, s, out, world_size, msg);
}

int workload_baseline_configs(const struct workload *w, int world_size, struct workload_config *out,
                              struct cli_msg *msg)
{
    for (int i = 0; i < w->nsets; i++) {
        const struct workload_set *s = &w->sets[i];
        char why[256];
        int d = wl_applies(s, &w->baseline, why, sizeof why);
        if (d >= 0) {
            int line = d < WORKLOAD_DIM_MAX    ? w->baseline_line[d]
                       : d == WORKLOAD_DIM_MAX ? w->baseline_component_line
                                               : w->baseline_hints_line;
            const char *key = d < WORKLOAD_DIM_MAX    ? workload_baseline_key(d)
                              : d == WORKLOAD_DIM_MAX ? "mpiio_component"
                                                      : "hints";
            return cli_fail(msg, "h5perf: workload '%s', line %d, baseline.%s: %s (%s '%s')",
                            w->path, line, key, why, s->key, s->name);
        }
        if (workload_config(w, i, &w->baseline, world_size, &out[i], msg) != 0)
            return -1;
    }
    return 0;
}

/* Appends word to buf at *at, quoted for a POSIX shell where needed. */
static void wl_quote(char *buf, size_t len, size_t *at, const char *word)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-+=.,:/@%";
    if (*at >= len)
        return;
    if (word[0] && strspn(word, plain) == strlen(word)) {
        *at += (size_t)snprintf(buf + *at, len - *at, "%s", word);
        return;
    }
    *at += (size_t)snprintf(buf + *at, len - *at, "'");
    for (const char *p = word; *p && *at < len; p++)
        *at += (size_t)snprintf(buf + *at, len - *at, *p == '\'' ? "'\\''" : "%c", *p);
    if (*at < len)
        *at += (size_t)snprintf(buf + *at, len - *at, "'");
}

void workload_config_text(const struct workload_config *c, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    if (c->mpi_info[0]) {
        at += (size_t)snprintf(buf, len, "HDF5_MPI_INFO=");
        wl_quote(buf, len, &at, c->mpi_info);
        at += at < len ? (size_t)snprintf(buf + at, len - at, " ") : 0;
    }
    if (c->mpiio_component[0] && at < len)
        at += (size_t)snprintf(buf + at, len - at, "OMPI_MCA_io=%s ", c->mpiio_component);
    if (at < len)
        at += (size_t)snprintf(buf + at, len - at, "mpiexec -n %d", c->nprocs);
    for (int i = 0; i < c->argc && at < len; i++) {
        at += (size_t)snprintf(buf + at, len - at, " ");
        wl_quote(buf, len, &at, c->argv[i]);
    }
}
