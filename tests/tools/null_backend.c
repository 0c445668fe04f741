/* The null backend: does no I/O at all, so the engine's loops, timers and
 * agreement can be exercised without a file system. A test tool
 * (engine_null), never in h5perf itself. With its synthetic clock, each
 * transfer takes the next of the seconds in $H5PERF_NULL_SECONDS (a
 * comma-separated list, repeated), and so does each completion of a
 * nonblocking one (a WAIT step), so that timings are exact; with
 * $H5PERF_NULL_VARIANT_SECONDS, a transfer of a run point of an API's
 * variant other than its default takes that many seconds instead (the
 * advisor's tests tell a variant's figures from its default's); with
 * $H5PERF_NULL_FLUSH_SECONDS, the close of a written file under --fsync
 * takes that many (a flush to storage, in the open-close time only: the
 * demo's tests tell the flushed figure from the transfers'). */
#include "null_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct backend_file {
    int variant;  /* the run point's (backend_settings.variant) */
    bool flushed; /* written under --fsync: its close flushes */
};

static int null_open(struct backend_file **out, const struct backend_ctx *ctx, const char *path,
                     enum backend_mode mode, bool may_truncate, const struct plan *plan,
                     struct err *e)
{
    (void)path, (void)may_truncate, (void)plan;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return err_set(e, "null", "open", path, -1, -1, "out of memory");
    (*out)->variant = ctx->set ? ctx->set->variant : 0;
    (*out)->flushed = ctx->set && ctx->set->fsync && mode != BACKEND_READ;
    return 0;
}

static int null_var_begin(struct backend_file *f, int var, const struct plan_access *acc,
                          struct err *e)
{
    (void)f, (void)var, (void)acc, (void)e;
    return 0;
}

/* The synthetic clock's time, and its schedule (test-tool state). */
static double null_now;
static double null_schedule[64];
static int null_nschedule = -1, null_next;
static double null_variant_seconds = -1; /* < 0: the schedule's */
static double null_flush_seconds;        /* a flushing close's */

static void null_load_schedule(void)
{
    const char *v = getenv("H5PERF_NULL_SECONDS");
    null_nschedule = 0;
    for (const char *p = v; p && *p && null_nschedule < 64;) {
        char *end;
        null_schedule[null_nschedule++] = strtod(p, &end);
        p = *end == ',' ? end + 1 : end + strlen(end);
    }
    const char *w = getenv("H5PERF_NULL_VARIANT_SECONDS");
    if (w && *w)
        null_variant_seconds = strtod(w, NULL);
    const char *fl = getenv("H5PERF_NULL_FLUSH_SECONDS");
    if (fl && *fl)
        null_flush_seconds = strtod(fl, NULL);
}

double null_clock(void)
{
    return null_now;
}

static int null_transfer(struct backend_file *f, const struct plan_step *s, void *buf,
                         struct err *e)
{
    (void)s, (void)buf, (void)e;
    if (null_nschedule < 0)
        null_load_schedule();
    if (f->variant != 0 && null_variant_seconds >= 0)
        null_now += null_variant_seconds;
    else if (null_nschedule > 0)
        null_now += null_schedule[null_next++ % null_nschedule];
    return 0;
}

static int null_wait(struct backend_file *f, const struct plan_step *s, struct err *e)
{
    return null_transfer(f, s, NULL, e);
}

static int null_var_end(struct backend_file *f, struct err *e)
{
    (void)f, (void)e;
    return 0;
}

static int null_close(struct backend_file *f, struct err *e)
{
    (void)e;
    if (null_nschedule < 0)
        null_load_schedule();
    if (f->flushed)
        null_now += null_flush_seconds;
    free(f);
    return 0;
}

/* Not in the API table: no capability (no file is ever there), its own
 * name in error lines. */
static const struct api_desc null_desc = {API_POSIX, "null", "null", "null", ".null", 0,
                                          0,         -1,     NULL,   NULL,   NULL,    NULL};

static void null_version(char *buf, size_t len)
{
    snprintf(buf, len, "none");
}

const struct backend_ops backend_null = {
    .desc = &null_desc,
    .open = null_open,
    .var_begin = null_var_begin,
    .transfer = null_transfer,
    .wait = null_wait,
    .var_end = null_var_end,
    .close = null_close,
    .check_source = backend_check_flat,
    .check = backend_check_none,
    .version = null_version,
};
