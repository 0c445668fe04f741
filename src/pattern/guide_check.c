/* The guide's validation of every run of the sweep before any file exists
 * (docs/original.md §0, §3.5): each (process count, transfer size) goes
 * through guide_check(), and the file and total sizes must fit in 64 bits.
 * The first failure becomes one line naming the option and value to change,
 * and saying when the culprit is a default. Pure: no MPI, nothing printed. */
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "api/file_model.h"
#include "cli/size.h"
#include "cli/sweep.h"
#include "pattern/guide.h"
#include "pattern/guide_geom.h"
#include "pattern/guide_options.h"
#include "report/text.h"

/* Where a value in a message came from. */
struct val_src {
    char lead[128];   /* "-x '48K'" when a user option gave it, else "" */
    char note[224];   /* " (-B '32K')", " (the default -B, half of -e)", " of the sweep ..." */
    char hint[40];    /* "; give -B explicitly" when a default is to blame */
    int note_is_lead; /* the note only repeats the lead */
};

/* Sizes rendered as the report does (256KB, 48). */
struct val_sizes {
    char e[32], b[32], x[32], n[32];
};

/* Did the guide's own row literally ask for this value (before any
 * adjustment)? */
static int val_given_as(const struct config *cfg, const struct opt_row *row, int64_t value)
{
    const char *raw = guide_raw(cfg, row);
    int64_t given = 0;
    return raw != NULL && size_parse(raw, &given) == 0 && given == value;
}

/* The source of an option's value: the option as typed (spelled, raw), or
 * its default ("half of -e"); a default that is the culprit asks to be
 * given. */
static void val_option_as(const char *spelled, const char *raw, const char *short_name,
                          const char *default_what, int hint, struct val_src *src)
{
    memset(src, 0, sizeof *src);
    if (spelled != NULL) {
        snprintf(src->lead, sizeof src->lead, "%s '%s'", spelled, raw != NULL ? raw : "");
        snprintf(src->note, sizeof src->note, " (%s)", src->lead);
        src->note_is_lead = 1;
        return;
    }
    if (default_what != NULL)
        snprintf(src->note, sizeof src->note, " (the default %s, %s)", short_name, default_what);
    else
        snprintf(src->note, sizeof src->note, " (the default %s)", short_name);
    if (hint)
        snprintf(src->hint, sizeof src->hint, "; give %s explicitly", short_name);
}

/* val_option_as() of the guide's own row. */
static void val_option(const struct config *cfg, const struct opt_row *row,
                       const char *default_what, int hint, struct val_src *src)
{
    val_option_as(guide_spelled(cfg, row), guide_raw(cfg, row), row->short_name, default_what, hint,
                  src);
}

/* One end of the transfer-size sweep: "-x '24K'" or "72KB (the default -X)". */
static void val_sweep_end(const struct config *cfg, const struct opt_row *row, int64_t value,
                          char *buf, size_t len)
{
    const char *spelled = guide_spelled(cfg, row), *raw = guide_raw(cfg, row);
    char text[32];

    if (spelled != NULL) {
        snprintf(buf, len, "%s '%s'", spelled, raw ? raw : "");
        return;
    }
    text_size(text, sizeof text, value);
    snprintf(buf, len, "%s (the default %s)", text, row->short_name);
}

/* The source of a transfer size of the sweep: -x or -X as typed, one of
 * their defaults, or a size in between reached by doubling. */
static void val_xfer(const struct config *cfg, int64_t xfer, struct val_src *src)
{
    const struct guide_settings *g = guide_of(cfg);
    char from[96], to[96];

    if (val_given_as(cfg, &guide_min_xfer_row, xfer))
        val_option(cfg, &guide_min_xfer_row, NULL, 0, src);
    else if (val_given_as(cfg, &guide_max_xfer_row, xfer))
        val_option(cfg, &guide_max_xfer_row, NULL, 0, src);
    else if (xfer == g->xfer_min)
        val_option(cfg, &guide_min_xfer_row, "half of -e", 1, src);
    else if (xfer == g->xfer_max)
        val_option(cfg, &guide_max_xfer_row, "equal to -e", 1, src);
    else {
        memset(src, 0, sizeof *src);
        if (guide_spelled(cfg, &guide_max_xfer_row) != NULL)
            val_option(cfg, &guide_max_xfer_row, NULL, 0, src);
        else if (guide_spelled(cfg, &guide_min_xfer_row) != NULL)
            val_option(cfg, &guide_min_xfer_row, NULL, 0, src);
        val_sweep_end(cfg, &guide_min_xfer_row, g->xfer_min, from, sizeof from);
        val_sweep_end(cfg, &guide_max_xfer_row, g->xfer_max, to, sizeof to);
        snprintf(src->note, sizeof src->note, " of the sweep from %s to %s", from, to);
        src->note_is_lead = 0;
    }
}

/* The note of a source, unless it only repeats the message's lead. */
static const char *val_note(const struct val_src *src, const char *lead)
{
    return src->note_is_lead && strcmp(src->lead, lead) == 0 ? "" : src->note;
}

/* The first non-empty lead among the sources, in order of blame. */
static const char *val_lead(const struct val_src *a, const struct val_src *b,
                            const struct val_src *c)
{
    if (a->lead[0] != '\0')
        return a->lead;
    if (b->lead[0] != '\0')
        return b->lead;
    return c != NULL ? c->lead : "";
}

/* "h5perf: <lead>: <body>", or "h5perf: <body>" without a lead. */
static int val_line(struct cli_msg *msg, const char *lead, const char *body)
{
    if (lead[0] == '\0')
        return cli_fail(msg, "h5perf: %s", body);
    return cli_fail(msg, "h5perf: %s: %s", lead, body);
}

static const char *val_procs_word(int nprocs)
{
    return nprocs == 1 ? "process" : "processes";
}

/* PATTERN_BLOCK_XFER: the transfer size is not a multiple of -B. */
static int val_block_xfer(const struct config *cfg, int64_t xfer, struct cli_msg *msg)
{
    struct val_src x, b, e;
    struct val_sizes t;
    char body[640];
    const char *lead;

    val_xfer(cfg, xfer, &x);
    val_option(cfg, &guide_block_row, "half of -e", 1, &b);
    val_option(cfg, &guide_bytes_row, NULL, 0, &e);
    text_size(t.x, sizeof t.x, xfer);
    text_size(t.b, sizeof t.b, guide_of(cfg)->block);
    lead = val_lead(&x, &b, &e);
    snprintf(body, sizeof body, "transfer size %s%s is not a multiple of the block size %s%s%s%s",
             t.x, val_note(&x, lead), t.b, val_note(&b, lead), b.hint, x.hint);
    return val_line(msg, lead, body);
}

/* PATTERN_XFER_BYTES: 1D e, or 2D side S = e*P, is not a multiple of X. */
static int val_xfer_bytes(const struct config *cfg, int nprocs, int64_t xfer, struct cli_msg *msg)
{
    const struct guide_settings *g = guide_of(cfg);
    struct val_src x, e;
    struct val_sizes t;
    char body[640];
    const char *lead;

    val_xfer(cfg, xfer, &x);
    val_option(cfg, &guide_bytes_row, NULL, 0, &e);
    text_size(t.x, sizeof t.x, xfer);
    text_size(t.e, sizeof t.e, g->bytes);
    lead = val_lead(&x, &e, NULL);
    if (!g->geometry_2d) {
        snprintf(body, sizeof body,
                 "the bytes per process %s%s are not a multiple of the transfer size %s%s%s", t.e,
                 val_note(&e, lead), t.x, val_note(&x, lead), x.hint);
    } else {
        /* guide_check() tests X | e*P before it tests e*P for overflow */
        if (g->bytes <= INT64_MAX / nprocs)
            text_size(t.n, sizeof t.n, g->bytes * nprocs);
        else
            snprintf(t.n, sizeof t.n, "above 64 bits");
        snprintf(body, sizeof body,
                 "the dataset side %s (%s x %d %s) is not a multiple of the transfer "
                 "size %s%s%s",
                 t.n, e.lead[0] != '\0' ? e.lead : "the default -e", nprocs, val_procs_word(nprocs),
                 t.x, val_note(&x, lead), x.hint);
    }
    return val_line(msg, lead, body);
}

/* PATTERN_BLOCK_BYTES (2D): e is not a multiple of -B. */
static int val_block_bytes(const struct config *cfg, struct cli_msg *msg)
{
    const struct guide_settings *g = guide_of(cfg);
    struct val_src b, e;
    struct val_sizes t;
    char body[640];
    const char *lead;

    val_option(cfg, &guide_block_row, "half of -e", 1, &b);
    val_option(cfg, &guide_bytes_row, NULL, 0, &e);
    text_size(t.e, sizeof t.e, g->bytes);
    text_size(t.b, sizeof t.b, g->block);
    lead = val_lead(&b, &e, NULL);
    snprintf(body, sizeof body,
             "the bytes per process %s%s are not a multiple of the block size %s%s%s", t.e,
             val_note(&e, lead), t.b, val_note(&b, lead), b.hint);
    return val_line(msg, lead, body);
}

/* PATTERN_OVERFLOW: the dataset (e*P bytes, or (e*P)^2 in 2D) is too big. */
static int val_overflow(const struct config *cfg, int nprocs, struct cli_msg *msg)
{
    const struct guide_settings *g = guide_of(cfg);
    struct val_src e, p;
    struct val_sizes t;
    char body[640];
    const char *lead;

    val_option(cfg, &guide_bytes_row, NULL, 0, &e);
    val_option_as(cfg->spelled[OPT_MAX_PROCS], cfg->raw[OPT_MAX_PROCS], "-P", NULL, 0, &p);
    text_size(t.e, sizeof t.e, g->bytes);
    lead = val_lead(&e, &p, NULL);
    if (!g->geometry_2d)
        snprintf(body, sizeof body, "a dataset of %s%s x %d %s does not fit in 64 bits", t.e,
                 val_note(&e, lead), nprocs, val_procs_word(nprocs));
    else
        snprintf(body, sizeof body,
                 "a 2D dataset of (%s%s x %d %s)^2 bytes does not fit in "
                 "64 bits",
                 t.e, val_note(&e, lead), nprocs, val_procs_word(nprocs));
    return val_line(msg, lead, body);
}

/* Bytes of one dataset with nprocs processes, or -1 if it does not fit. */
static int64_t val_dataset_bytes(const struct config *cfg, int nprocs)
{
    const struct guide_settings *g = guide_of(cfg);
    int64_t side;

    if (g->bytes > INT64_MAX / nprocs)
        return -1;
    side = g->bytes * nprocs;
    if (!g->geometry_2d)
        return side;
    return side > INT64_MAX / side ? -1 : side * side;
}

/* A file holds -d datasets and a run moves -F files: both must fit, since
 * offsets and the report's byte counts are 64-bit. */
static int val_files(const struct config *cfg, int nprocs, struct cli_msg *msg)
{
    const struct guide_settings *g = guide_of(cfg);
    struct val_src d, f, e;
    struct val_sizes t;
    char body[640];
    int64_t dset = val_dataset_bytes(cfg, nprocs), file;

    if (dset < 0)
        return val_overflow(cfg, nprocs, msg);
    val_option(cfg, &guide_dsets_row, NULL, 0, &d);
    val_option(cfg, &guide_files_row, NULL, 0, &f);
    val_option(cfg, &guide_bytes_row, NULL, 0, &e);
    text_size(t.n, sizeof t.n, dset);
    if (dset > INT64_MAX / g->num_dsets) {
        snprintf(body, sizeof body,
                 "a file of %d datasets of %s each (%d %s) does not fit in 64 bits", g->num_dsets,
                 t.n, nprocs, val_procs_word(nprocs));
        return val_line(msg, val_lead(&d, &e, NULL), body);
    }
    file = dset * g->num_dsets;
    if (file > INT64_MAX / g->num_files) {
        text_size(t.n, sizeof t.n, file);
        snprintf(body, sizeof body, "%d files of %s each (%d %s) do not fit in 64 bits",
                 g->num_files, t.n, nprocs, val_procs_word(nprocs));
        return val_line(msg, val_lead(&f, &d, &e), body);
    }
    return 0;
}

static int val_explain(const struct config *cfg, int nprocs, int64_t xfer, enum pattern_violation v,
                       struct cli_msg *msg)
{
    char x_text[32];

    switch (v) {
    case PATTERN_BLOCK_XFER:
        return val_block_xfer(cfg, xfer, msg);
    case PATTERN_XFER_BYTES:
        return val_xfer_bytes(cfg, nprocs, xfer, msg);
    case PATTERN_BLOCK_BYTES:
        return val_block_bytes(cfg, msg);
    case PATTERN_OVERFLOW:
        return val_overflow(cfg, nprocs, msg);
    default:
        text_size(x_text, sizeof x_text, xfer);
        return cli_fail(msg, "h5perf: transfer size %s with %d %s: %s", x_text, nprocs,
                        val_procs_word(nprocs), pattern_violation_text(v));
    }
}

/* An API's calls have a limit (api.h: MPI-IO's counts are ints): each
 * piece a transfer moves in one call (a contiguous transfer, a block, a row
 * or a chunk) must fit. The message names the transfer size as the user
 * gave it (or -e, whose half is the default) and -A as typed, or says the
 * API came with the default -A. */
static int val_call_limit(const struct config *cfg, const struct run_point *p, struct cli_msg *msg)
{
    const struct guide_settings *g = guide_of(cfg);
    const struct api_desc *api = api_desc(p->api);
    struct guide_geom pt;
    struct guide_params pp = {
        g->geometry_2d ? 2 : 1, g->interleaved, g->chunk, g->bytes, g->block, p->xfer, p->nprocs};
    if (!api->max_call_bytes || guide_init(&pt, &pp, 0, 0, NULL) != 0)
        return 0;
    /* PnetCDF moves a whole transfer in one call, MPI-IO each piece. */
    bool step = api->caps & API_CAP_LIMIT_PER_STEP;
    int64_t call = step ? pp.xfer : pt.shape.len;
    if (call <= api->max_call_bytes)
        return 0;
    struct val_src x, e;
    char len[32], xfer[32], body[1024], tail[320];
    val_xfer(cfg, pp.xfer, &x);
    val_option(cfg, &guide_bytes_row, NULL, 0, &e);
    const char *lead = val_lead(&x, &e, NULL);
    text_size(len, sizeof len, call);
    text_size(xfer, sizeof xfer, pp.xfer);
    if (cfg->spelled[OPT_API])
        snprintf(tail, sizeof tail, "leave %s out of %s '%s'", api->key, cfg->spelled[OPT_API],
                 cfg->raw[OPT_API]);
    else
        snprintf(tail, sizeof tail, "give -A without %s (it is in the default)", api->key);
    snprintf(body, sizeof body,
             "transfer size %s%s moves %s%s%s through %s, above its limit of %" PRId64
             " bytes per call; use smaller sizes or %s",
             xfer, val_note(&x, lead), step ? "" : "pieces of ", len, step ? " per call" : "",
             api->err_name, api->max_call_bytes, tail);
    return val_line(msg, lead, body);
}

/* --direct: O_DIRECT also needs each buffer's address at a multiple of
 * the alignment (docs/performance.md, "Buffer offset"); a --buffer-offset
 * stays below a page, so only 0 goes with it. */
static int val_direct_buffers(const struct config *cfg, struct cli_msg *msg)
{
    for (int i = 0; i < cfg->nbuf_offset; i++)
        if (cfg->buf_offsets[i] % CONFIG_DIRECT_ALIGN != 0)
            return cli_fail(msg,
                            "h5perf: %s '%s': %" PRId64 " bytes past a page boundary is not a "
                            "multiple of %d, the alignment %s needs for every buffer, offset "
                            "and length (O_DIRECT); give 0 only with %s",
                            cfg->spelled[OPT_BUFFER_OFFSET], cfg->raw[OPT_BUFFER_OFFSET],
                            cfg->buf_offsets[i], CONFIG_DIRECT_ALIGN, cfg->spelled[OPT_DIRECT],
                            cfg->spelled[OPT_DIRECT]);
    return 0;
}

/* --direct: with -e and -B multiples of the alignment, so is every transfer
 * size (a multiple of -B), every dataset size and every piece's offset and
 * length, in 1D and 2D alike. */
static int val_direct(const struct config *cfg, struct cli_msg *msg)
{
    if (!cfg->direct)
        return 0;
    const struct guide_settings *g = guide_of(cfg);
    const struct opt_row *row =
        g->bytes % CONFIG_DIRECT_ALIGN ? &guide_bytes_row : &guide_block_row;
    int64_t v = row == &guide_bytes_row ? g->bytes : g->block;
    if (v % CONFIG_DIRECT_ALIGN == 0)
        return val_direct_buffers(cfg, msg);
    const char *name = guide_spelled(cfg, row) ? guide_spelled(cfg, row) : row->short_name;
    if (!guide_raw(cfg, row))
        return cli_fail(msg,
                        "h5perf: %s: the default %s (%" PRId64 " bytes) is not a multiple of %d, "
                        "the alignment O_DIRECT needs for every offset and length; give %s as a "
                        "multiple of 4K",
                        cfg->spelled[OPT_DIRECT], name, v, CONFIG_DIRECT_ALIGN, name);
    return cli_fail(msg,
                    "h5perf: %s '%s': not a multiple of %d, the alignment %s needs for every "
                    "offset and length (O_DIRECT)",
                    name, guide_raw(cfg, row), CONFIG_DIRECT_ALIGN, cfg->spelled[OPT_DIRECT]);
}

int guide_validate(const struct config *cfg, const struct run_point *pts, int n,
                   struct cli_msg *msg)
{
    const struct guide_settings *g = guide_of(cfg);
    msg->line[0] = '\0';
    int rc = 0;
    for (int i = 0; rc == 0 && i < n; i++) {
        struct guide_params pp = {
            g->geometry_2d ? 2 : 1, g->interleaved, g->chunk, g->bytes, g->block, pts[i].xfer,
            pts[i].nprocs};
        enum pattern_violation v = guide_check(&pp);
        if (v != PATTERN_OK)
            rc = val_explain(cfg, pts[i].nprocs, pts[i].xfer, v, msg);
        else if (i + 1 == n || pts[i + 1].nprocs != pts[i].nprocs)
            rc = val_files(cfg, pts[i].nprocs, msg) != 0 ||
                         pattern_validate_extent(
                             cfg, pts[i].nprocs,
                             &(struct extent_file){
                                 g->num_dsets, val_dataset_bytes(cfg, pts[i].nprocs),
                                 g->chunk ? (g->geometry_2d ? g->block * g->block : g->block) : 0},
                             msg) != 0
                     ? -1
                     : 0;
    }
    if (rc == 0)
        rc = val_direct(cfg, msg);
    /* Last: a limit of one API, once every size is known to be consistent. */
    for (int i = 0; rc == 0 && i < n; i++)
        rc = val_call_limit(cfg, &pts[i], msg);
    return rc;
}
