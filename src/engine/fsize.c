/* fsize_check_limit(), fsize_check_dir() (fsize.h). The probe file of
 * names_probe_size() is the only file made here, and removed at once. */
#include "engine/fsize.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/resource.h>

#include "api/file_model.h"
#include "cli/sweep.h"
#include "engine/names.h"

/* Where files must fit: whether a size fits (0) or the errno of the
 * refusal, and the words of the refusals. */
struct fsize_target {
    int (*refuses)(const struct run *run, int64_t size);
    /* After "do not fit ": "in 'd': its file system refuses ...". */
    void (*fit)(const struct run *run, int errnum, char *buf, size_t len);
    /* After "more than ": "the file system of 'd' can hold (...)". */
    void (*hold)(const struct run *run, int errnum, char *buf, size_t len);
};

static const char *fsize_where(const struct run *run)
{
    return run->dir[0] ? run->dir : ".";
}

/* The file system: a size its kernel refuses (EFBIG, EINVAL) would fail
 * mid-run, and in an HDF5 file on one process only, which hangs the others
 * in HDF5's collective calls. Sizes below NAMES_PROBE_SIZE_MIN fit
 * everywhere. */
static int fsize_probe(const struct run *run, int64_t size)
{
    int errnum = size >= NAMES_PROBE_SIZE_MIN ? names_probe_size(run->dir, size) : 0;
    return errnum == EFBIG || errnum == EINVAL ? errnum : 0;
}

static void fsize_probe_fit(const struct run *run, int errnum, char *buf, size_t len)
{
    snprintf(buf, len, "in '%s': its file system refuses a file of that size (%s)",
             fsize_where(run), strerror(errnum));
}

static void fsize_probe_hold(const struct run *run, int errnum, char *buf, size_t len)
{
    snprintf(buf, len, "the file system of '%s' can hold (%s)", fsize_where(run), strerror(errnum));
}

/* The file-size limit: a write past it raises SIGXFSZ, or fails with
 * EFBIG once h5perf ignores the signal (files.c), mid-run. */
static int fsize_rlimit(const struct run *run, int64_t size)
{
    struct rlimit rl;
    (void)run;
    if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 0;
    return (uint64_t)size > (uint64_t)rl.rlim_cur ? EFBIG : 0;
}

/* "the file-size limit (ulimit -f) of process 1 (16 MiB)" */
static void fsize_limit_text(const struct run *run, const char *verb, char *buf, size_t len)
{
    struct rlimit rl;
    char size[32] = "?";
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur <= (rlim_t)INT64_MAX)
        cli_bytes(size, sizeof size, (int64_t)rl.rlim_cur);
    snprintf(buf, len, "the file-size limit (ulimit -f) of process %d%s (%s)", run->world_rank,
             verb, size);
}

static void fsize_rlimit_fit(const struct run *run, int errnum, char *buf, size_t len)
{
    char limit[160];
    (void)errnum;
    fsize_limit_text(run, "", limit, sizeof limit);
    snprintf(buf, len, "under %s", limit);
}

static void fsize_rlimit_hold(const struct run *run, int errnum, char *buf, size_t len)
{
    (void)errnum;
    fsize_limit_text(run, " allows", buf, len);
}

static const struct fsize_target fsize_dir = {fsize_probe, fsize_probe_fit, fsize_probe_hold};
static const struct fsize_target fsize_limit = {fsize_rlimit, fsize_rlimit_fit, fsize_rlimit_hold};

/* The largest file's placement (--align-data, --shift) makes it too large
 * where its data alone fits: the option and the value to blame. */
static int fsize_placed(const struct run *run, const struct session_point *big, int64_t flat,
                        const struct fsize_target *t, int errnum, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    const struct run_point *p = &big->p;
    bool shift = t->refuses(run, flat - p->shift) == 0;
    enum opt_id id = shift ? OPT_SHIFT : OPT_ALIGN_DATA;
    char how[96], size[32], fit[512];
    if (shift)
        snprintf(how, sizeof how, "%" PRId64 " bytes more", p->shift);
    else
        snprintf(how, sizeof how, "at multiples of %" PRId64 " bytes", p->align);
    cli_bytes(size, sizeof size, flat);
    t->fit(run, errnum, fit, sizeof fit);
    return cli_fail(m,
                    "h5perf: %s '%s': %s, the %s file of %d variable%s (%d process%s) would reach "
                    "%s and does not fit %s; give smaller values",
                    c->spelled[id], c->raw[id], how, layout_name(p->layout), big->m.nvars,
                    big->m.nvars == 1 ? "" : "s", p->nprocs, p->nprocs == 1 ? "" : "es", size, fit);
}

/* The largest data file of the sweep (at the largest process count): its
 * data alone, then as placed. */
static int fsize_flat(const struct run *run, const struct fsize_target *t, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    const struct session_point *big = session_largest_file(&run->session);
    if (!big)
        return 0;
    int p = big->p.nprocs, n = big->m.nvars;
    int64_t flat = big->m.flat_bytes;
    int errnum = t->refuses(run, flat);
    if (errnum == 0)
        return 0;
    int64_t data =
        big->m.var_bytes > 0 && big->m.var_bytes <= INT64_MAX / n ? big->m.var_bytes * n : flat;
    if ((big->p.align > 0 || big->p.shift > 0) && data < flat && t->refuses(run, data) == 0)
        return fsize_placed(run, big, flat, t, errnum, m);
    const struct pattern_desc *pd = run->session.pattern;
    char lead[192], size[32], dset[32], fit[512];
    pd->file_lead(c, lead, sizeof lead);
    cli_bytes(size, sizeof size, flat);
    cli_bytes(dset, sizeof dset, flat / n);
    t->fit(run, errnum, fit, sizeof fit);
    return cli_fail(m, "h5perf: %s: data files of %s (%d %s%s of %s, %d process%s) do not fit %s",
                    lead, size, n, pd->var_word, n == 1 ? "" : "s", dset, p, p == 1 ? "" : "es",
                    fit);
}

/* Each API that places its data itself (api/file_model.h): its largest file,
 * which ends beyond its data (end > flat) with -a. */
static int fsize_aligned(const struct run *run, const struct fsize_target *t, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    const struct session_point *big = session_largest_file(&run->session);
    int64_t flat = big ? big->m.flat_bytes : 0;
    int procs = sweep_procs_first(c);
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_model *mo = api_desc((enum api_id)a)->model;
        if (!(c->apis & API_BIT(a)) || !mo || (mo->needs_align && c->align <= 1))
            continue;
        int64_t end = 0;
        for (int i = 0; i < run->session.npoints; i++) {
            const struct pattern_measure *pm = &run->session.points[i].m;
            struct extent_file f = {pm->nvars, pm->var_bytes, pm->max_chunk};
            int64_t e = (int)run->session.points[i].p.api == a
                            ? mo->extent(&f, c->align, c->threshold, true)
                            : 0;
            end = e > end ? e : end;
        }
        int errnum = end > flat ? t->refuses(run, end) : 0;
        if (errnum == 0)
            continue;
        char size[32], hold[512];
        cli_bytes(size, sizeof size, end);
        if (c->align <= 1) {
            /* Without -a the library stores every variable whole, where a
             * flat file ends at its last byte written (a map that does not
             * cover its array): the option that sizes the file is to
             * blame (docs/hdf5.md, "Limits"). */
            char lead[192];
            pattern_of(c)->file_lead(c, lead, sizeof lead);
            t->fit(run, errnum, hold, sizeof hold);
            return cli_fail(m,
                            "h5perf: %s: %s files of %s (%d process%s), which hold every variable "
                            "whole, do not fit %s",
                            lead, api_desc((enum api_id)a)->err_name, size, procs,
                            procs == 1 ? "" : "es", hold);
        }
        t->hold(run, errnum, hold, sizeof hold);
        return cli_fail(m,
                        "h5perf: %s '%s': %s of the alignment, so its file could reach %s (%d "
                        "process%s), more than %s; use a smaller %s",
                        c->spelled[OPT_ALIGN], c->raw[OPT_ALIGN], mo->probe_how, size, procs,
                        procs == 1 ? "" : "es", hold, c->spelled[OPT_ALIGN]);
    }
    return 0;
}

int fsize_check_limit(const struct run *run, struct cli_msg *m)
{
    if (run->cfg.read_only)
        return 0;
    return fsize_flat(run, &fsize_limit, m) < 0 || fsize_aligned(run, &fsize_limit, m) < 0 ? -1 : 0;
}

int fsize_check_dir(const struct run *run, struct cli_msg *m)
{
    return fsize_flat(run, &fsize_dir, m) < 0 || fsize_aligned(run, &fsize_dir, m) < 0 ? -1 : 0;
}
