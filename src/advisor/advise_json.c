/* advise_json.h: the advisor's answer as a JSON document. Formats what
 * the race found (advise_race.h) with the same functions as the printed
 * answer (advise_print.h); computes nothing of its own but each
 * candidate's choices read back from its words. Process 0 only. */
#include "advisor/advise_json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/option.h"
#include "cli/size.h"
#include "advisor/advise_print.h"
#include "engine/context.h"
#include "engine/names.h"

/* The directory of path, into dir. */
static void advise_json_dir(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

int advise_json_check(const char *opt, const char *path, const char *workload, struct cli_msg *m)
{
    char dir[PATH_MAX];
    struct stat st;
    if (strlen(path) + 8 > sizeof dir)
        return cli_fail(m, "h5perf: %s '%s': the name is too long", opt, path);
    if (names_same_file(path, workload))
        return cli_fail(m,
                        "h5perf: %s '%s': is the workload file; give the advisor's answer a "
                        "file of its own",
                        opt, path);
    bool exists = lstat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode))
        return cli_fail(m,
                        "h5perf: %s '%s': is not a regular file (the advisor's answer replaces "
                        "its file whole); give it a file of its own",
                        opt, path);
    advise_json_dir(path, dir, sizeof dir);
    if (access(dir, W_OK | X_OK) != 0 || (exists && access(path, W_OK) != 0))
        return cli_fail(m, "h5perf: %s '%s': cannot write the advisor's answer there: %s", opt,
                        path, strerror(errno));
    return 0;
}

/* The new file beside d->path, with the mode the answer will have: the
 * former file's, or a new file's; its descriptor, or -1 with errno. */
static int advise_json_create(struct advise_json *d)
{
    struct stat st;
    mode_t mode;
    if (stat(d->path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    snprintf(d->tmp, sizeof d->tmp, "%s.XXXXXX", d->path);
    int fd = mkstemp(d->tmp);
    if (fd >= 0 && fchmod(fd, mode) != 0) {
        int e = errno;
        close(fd);
        unlink(d->tmp);
        errno = e;
        return -1;
    }
    return fd;
}

int advise_json_begin(struct advise_json *d, const char *path, const struct workload *w, int nprocs,
                      double budget, const char *component)
{
    struct run_context ctx = {0};
    *d = (struct advise_json){.path = path};
    /* In memory until the end: a launch stopped during the races leaves
     * no file behind. */
    if (!(d->f = open_memstream(&d->text, &d->len)))
        return -1;
    context_versions(&ctx);
    jsonw_init(&d->w, d->f);
    jsonw_object(&d->w);
    jsonw_key_string(&d->w, "schema", ADVISE_JSON_SCHEMA);
    jsonw_key_int(&d->w, "schema_version", ADVISE_JSON_SCHEMA_VERSION);
    jsonw_key_string(&d->w, "h5perf_version", ctx.version);
    jsonw_key(&d->w, "workload");
    jsonw_object(&d->w);
    jsonw_key_string(&d->w, "file", w->path);
    jsonw_key_string(&d->w, "name", w->name);
    jsonw_end(&d->w);
    jsonw_key_int(&d->w, "processes", nprocs);
    jsonw_key(&d->w, "budget_seconds");
    jsonw_number(&d->w, budget);
    jsonw_key_string(&d->w, "mpiio_component", component);
    jsonw_key(&d->w, "sets");
    jsonw_array(&d->w);
    return 0;
}

/* "key": the median and 95% interval of n samples v ({"median": null,
 * "interval": null} with none). */
static void advise_json_summary(struct jsonw *w, const char *key, const double *v, int n)
{
    double med;
    struct median_interval ci;
    advise_median(v, n, &med, &ci);
    jsonw_key(w, key);
    jsonw_object(w);
    jsonw_key(w, "median");
    if (n > 0)
        jsonw_number(w, med);
    else
        jsonw_null(w);
    jsonw_key(w, "interval");
    if (ci.known) {
        jsonw_array(w);
        jsonw_number(w, ci.low);
        jsonw_number(w, ci.high);
        jsonw_end(w);
    } else {
        jsonw_null(w);
    }
    jsonw_end(w);
}

static void advise_json_numbers(struct jsonw *w, const char *key, const double *v, int n)
{
    jsonw_key(w, key);
    jsonw_array(w);
    for (int i = 0; i < n; i++)
        jsonw_number(w, v[i]);
    jsonw_end(w);
}

/* "key": the bytes of a size option's value in c's words; dflt (a word
 * such as "packed", or NULL for the number one) when the words lack it. */
static void advise_json_size(struct jsonw *w, const struct workload_config *c, const char *key,
                             enum workload_dim d, const char *dflt)
{
    const char *v = advise_word(c, d);
    int64_t bytes;
    jsonw_key(w, key);
    if (v && size_parse(v, &bytes) == 0)
        jsonw_int(w, bytes);
    else if (v)
        jsonw_string(w, v);
    else if (dflt)
        jsonw_string(w, dflt);
    else
        jsonw_int(w, 1);
}

/* The choices of the APIs' rows (their opt_advice), each under its
 * baseline key: a flag as true or false, a size as its bytes, or null at
 * the library's default (the option not on the command line). */
static void advise_json_options(struct jsonw *w, const struct workload_config *c)
{
    for (int d = WORKLOAD_DIM_OPTIONS; d < workload_dim_count(); d++) {
        const char *word = advise_word(c, (enum workload_dim)d);
        const struct opt_row *row = workload_dim_row((enum workload_dim)d);
        int64_t bytes = 0;
        jsonw_key(w, workload_baseline_key((enum workload_dim)d));
        if (row->advice->kind == OPT_ADVICE_FLAG)
            jsonw_bool(w, word != NULL);
        else if (word && size_parse(word, &bytes) == 0)
            jsonw_int(w, bytes);
        else
            jsonw_null(w);
    }
}

/* "choices": the candidate's physical choices, from its words and its
 * environment (every candidate has -A and --layout: wl_config.c). */
static void advise_json_choices(struct jsonw *w, const struct workload_config *c)
{
    jsonw_key(w, "choices");
    jsonw_object(w);
    jsonw_key_string(w, "api", advise_word(c, WORKLOAD_API));
    jsonw_key_string(w, "layout", advise_word(c, WORKLOAD_LAYOUT));
    jsonw_key_string(w, "io_mode",
                     advise_word(c, WORKLOAD_COLLECTIVE) ? "collective" : "independent");
    advise_json_size(w, c, "alignment", WORKLOAD_ALIGNMENT, NULL);
    advise_json_size(w, c, "threshold", WORKLOAD_THRESHOLD, NULL);
    advise_json_size(w, c, "align_data", WORKLOAD_ALIGN_DATA, "packed");
    advise_json_size(w, c, "transfer_size", WORKLOAD_TRANSFER_SIZE, "whole");
    const char *bo = advise_word(c, WORKLOAD_BUFFER_OFFSET);
    int64_t off = 0;
    jsonw_key_int(w, "buffer_offset", bo && size_parse(bo, &off) == 0 ? off : 0);
    const char *cs = advise_word(c, WORKLOAD_CHUNK);
    jsonw_key_string(w, "chunk_shape", cs ? cs : "block");
    advise_json_options(w, c);
    jsonw_key_string(w, "mpiio_component", c->mpiio_component[0] ? c->mpiio_component : NULL);
    jsonw_key(w, "hints");
    jsonw_object(w);
    for (const char *p = c->mpi_info; *p;) {
        const char *semi = strchr(p, ';'), *end = semi ? semi : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        char key[WORKLOAD_HINT_KEY_MAX + 1], value[WORKLOAD_HINT_VAL_MAX + 1];
        if (eq) {
            snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
            snprintf(value, sizeof value, "%.*s", (int)(end - eq - 1), eq + 1);
            jsonw_key_string(w, key, value);
        }
        p = semi ? semi + 1 : end;
    }
    jsonw_end(w);
    jsonw_end(w);
}

static void advise_json_candidate(struct jsonw *w, const struct workload_config *c,
                                  const struct advise_answer *a, int i, int rank)
{
    const struct race *r = &a->race;
    const struct race_entry *e = &r->e[i];
    char line[2 * WORKLOAD_TEXT_MAX];
    jsonw_object(w);
    jsonw_key_int(w, "id", i);
    jsonw_key_bool(w, "baseline", i == r->baseline);
    jsonw_key(w, "rank");
    if (e->n > 0)
        jsonw_int(w, rank);
    else
        jsonw_null(w);
    workload_config_text(&c[i], line, sizeof line);
    jsonw_key_string(w, "command", line);
    jsonw_key(w, "argv");
    jsonw_array(w);
    for (int j = 0; j < c[i].argc; j++)
        jsonw_string(w, c[i].argv[j]);
    jsonw_end(w);
    jsonw_key_string(w, "hints", c[i].mpi_info[0] ? c[i].mpi_info : NULL);
    advise_json_choices(w, &c[i]);
    jsonw_key_string(w, "state", advise_state(a, i));
    jsonw_key(w, "last_round");
    if (e->n > 0 || e->state == RACE_FAILED)
        jsonw_int(w, e->round + 1);
    else
        jsonw_null(w);
    jsonw_key(w, "seconds");
    jsonw_number(w, e->seconds);
    jsonw_key(w, "samples");
    jsonw_object(w);
    advise_json_numbers(w, "write", a->wr[i], a->nw[i]);
    if (a->reads)
        advise_json_numbers(w, "read", a->rd[i], a->nw[i]);
    else
        jsonw_key_string(w, "read", NULL);
    advise_json_numbers(w, "both", e->v, e->n);
    jsonw_end(w);
    advise_json_summary(w, "write", a->wr[i], a->nw[i]);
    if (a->reads) {
        advise_json_summary(w, "read", a->rd[i], a->nw[i]);
    } else {
        jsonw_key(w, "read");
        jsonw_null(w);
    }
    advise_json_summary(w, "both", e->v, e->n);
    double base = r->e[r->baseline].median;
    jsonw_key(w, "ratio_to_baseline");
    if (e->n > 0 && r->e[r->baseline].n > 0 && base > 0)
        jsonw_number(w, e->median / base);
    else
        jsonw_null(w);
    jsonw_key_bool(w, "tie_with_best", advise_tied_best(a, i));
    jsonw_end(w);
}

/* "recommendation": the candidate chosen or the baseline kept, and why. */
static void advise_json_recommendation(struct jsonw *w, const struct workload_config *c,
                                       const struct advise_answer *a)
{
    const struct race *r = &a->race;
    int pick = a->chosen >= 0 ? a->chosen : r->baseline;
    char line[2 * WORKLOAD_TEXT_MAX];
    jsonw_key(w, "recommendation");
    jsonw_object(w);
    jsonw_key_bool(w, "keep_baseline", a->chosen < 0);
    jsonw_key_string(w, "why",
                     a->chosen >= 0 ? "significantly better than the baseline, its data verified"
                     : a->tried     ? "the candidates better than the baseline did not verify "
                                      "their data"
                                    : "no candidate is significantly better than the baseline");
    jsonw_key_int(w, "candidate", pick);
    jsonw_key(w, "ratio_to_baseline");
    if (a->chosen >= 0)
        jsonw_number(w, r->e[pick].median / r->e[r->baseline].median);
    else
        jsonw_null(w);
    jsonw_key_int(w, "finalists_tried", a->tried);
    workload_config_text(&c[pick], line, sizeof line);
    jsonw_key_string(w, "command", line);
    jsonw_key_string(w, "hints", c[pick].mpi_info[0] ? c[pick].mpi_info : NULL);
    struct advise_settings st;
    advise_settings_of(&c[pick], &st);
    jsonw_key_string(w, "in_words", st.in_words);
    jsonw_key(w, "calls");
    if (st.api) {
        jsonw_object(w);
        jsonw_key_string(w, "api", st.api);
        jsonw_key_string(w, "text", st.calls);
        jsonw_end(w);
    } else {
        jsonw_null(w);
    }
    jsonw_end(w);
    int worst = advise_worst(a, pick);
    jsonw_key(w, "not");
    if (worst >= 0) {
        jsonw_object(w);
        jsonw_key_int(w, "candidate", worst);
        jsonw_key(w, "share_of_recommendation");
        jsonw_number(w, r->e[worst].median / r->e[pick].median);
        jsonw_end(w);
    } else {
        jsonw_null(w);
    }
}

/* "recorded": a trace's application, beside the recommendation: its
 * calls and bytes, and its throughput of a process (MB/s, 10^6 bytes;
 * null without such calls), write and read. */
static void advise_json_recorded(struct jsonw *j, const struct workload_recorded *rec)
{
    static const char *const dir[2] = {"read", "write"};
    jsonw_key(j, "recorded");
    jsonw_object(j);
    for (int k = 1; k >= 0; k--) {
        double mbs = advise_recorded_mbs(rec, k);
        jsonw_key(j, dir[k]);
        jsonw_object(j);
        jsonw_key_int(j, "calls", rec->calls[k]);
        jsonw_key_int(j, "bytes", rec->bytes[k]);
        jsonw_key(j, "seconds");
        jsonw_number(j, rec->seconds[k]);
        jsonw_key(j, "mbs");
        if (mbs >= 0)
            jsonw_number(j, mbs);
        else
            jsonw_null(j);
        jsonw_end(j);
    }
    jsonw_end(j);
}

void advise_json_set(struct advise_json *d, const struct workload *w, int set,
                     const struct workload_config *c, const struct advise_answer *a, double budget,
                     int left_out, const struct advise_checked *refused,
                     const struct workload_recorded *rec)
{
    const struct race *r = &a->race;
    struct jsonw *j = &d->w;
    int measured = 0;
    for (int i = 0; i < r->n; i++)
        measured += r->e[i].n > 0;
    d->spent += a->spent;
    jsonw_object(j);
    jsonw_key_string(j, "key", w->sets[set].key);
    jsonw_key_string(j, "name", w->sets[set].name);
    jsonw_key_bool(j, "read_back", a->reads);
    jsonw_key(j, "budget_seconds");
    jsonw_number(j, budget);
    jsonw_key(j, "spent_seconds");
    jsonw_number(j, a->spent);
    jsonw_key_int(j, "rounds", r->rounds);
    jsonw_key_bool(j, "out_of_budget", r->out_of_budget);
    jsonw_key_int(j, "candidates_measured", measured);
    jsonw_key_int(j, "left_out", left_out);
    /* As the printed line "N candidates h5perf refuses left out, e.g. ...". */
    jsonw_key_int(j, "refused", refused->nrefused);
    jsonw_key_string(j, "refused_example", refused->nrefused ? refused->first : NULL);
    jsonw_key_int(j, "baseline", r->baseline);
    jsonw_key(j, "candidates");
    jsonw_array(j);
    for (int i = 0; i < r->n; i++) {
        int rank = 0;
        while (rank < r->n && r->rank[rank] != i)
            rank++;
        advise_json_candidate(j, c, a, i, rank + 1);
    }
    jsonw_end(j);
    advise_json_recommendation(j, c, a);
    if (rec)
        advise_json_recorded(j, rec);
    jsonw_end(j);
}

/* Writes the document's len bytes into the new file fd and closes it.
 * Returns 0, or -1 with errno. */
static int advise_json_write(int fd, const char *text, size_t len)
{
    int rc = 0;
    while (len > 0 && rc == 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            errno = n < 0 ? errno : EIO;
            rc = -1;
        } else {
            text += n;
            len -= (size_t)n;
        }
    }
    int e = errno;
    if (close(fd) != 0 && rc == 0)
        return -1;
    errno = e;
    return rc;
}

int advise_json_end(struct advise_json *d)
{
    jsonw_end(&d->w);
    jsonw_key(&d->w, "spent_seconds");
    jsonw_number(&d->w, d->spent);
    jsonw_end(&d->w);
    bool ok = fclose(d->f) == 0;
    d->f = NULL;
    int fd = ok ? advise_json_create(d) : -1;
    if (fd < 0)
        return -1;
    if (advise_json_write(fd, d->text, d->len) != 0 || rename(d->tmp, d->path) != 0) {
        int e = errno;
        unlink(d->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

void advise_json_abandon(struct advise_json *d)
{
    if (d->f)
        fclose(d->f);
    d->f = NULL;
    free(d->text);
    d->text = NULL;
}
