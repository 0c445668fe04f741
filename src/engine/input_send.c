/* input.h: a pattern's input sent from process 0, where load() made it,
 * to every process: whole, or (pattern.h, input_parts) the common part
 * to every process and each process's own part to it alone, so that no
 * process receives what only others need; or streamed, each part sent as
 * load() makes it (docs/design.md, "A pattern's input"). Collective;
 * nothing here reads a file. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/agree.h"
#include "engine/input.h"

/* How n bytes move: broadcast from process 0, sent to peer, received from
 * process 0. */
enum input_how { INPUT_BCAST, INPUT_SEND, INPUT_RECV };

/* Moves the n bytes at buf, INT_MAX at a time (an MPI count is an int). */
static void input_move(unsigned char *buf, int64_t n, enum input_how how, int peer, MPI_Comm comm)
{
    for (int64_t at = 0; at < n; at += INT_MAX) {
        int part = n - at < INT_MAX ? (int)(n - at) : INT_MAX;
        if (how == INPUT_BCAST)
            MPI_Bcast(buf + at, part, MPI_BYTE, 0, comm);
        else if (how == INPUT_SEND)
            MPI_Send(buf + at, part, MPI_BYTE, peer, 0, comm);
        else
            MPI_Recv(buf + at, part, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
    }
}

/* Process 0: the common part's size into *common and each process's part
 * size into sizes[nprocs], or -1. */
static int input_sizes(const struct pattern_desc *pd, const unsigned char *bytes, size_t len,
                       int nprocs, int64_t *common, int64_t *sizes)
{
    size_t c = 0, *ends = malloc((size_t)nprocs * sizeof *ends);
    int rc = ends ? pd->input_parts(bytes, len, nprocs, &c, ends) : -1;
    for (int p = 0; rc == 0 && p < nprocs; p++)
        sizes[p] = (int64_t)(ends[p] - (p ? ends[p - 1] : c));
    *common = (int64_t)c;
    free(ends);
    return rc;
}

bool input_send(const struct pattern_desc *pd, MPI_Comm comm, int64_t n, unsigned char **bytes,
                size_t *len, struct cli_msg *m)
{
    int rank = 0, nprocs = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    if (!pd->input_parts) {
        if (rank != 0)
            *bytes = malloc((size_t)n + 1);
        if (!agree_all(comm, *bytes != NULL)) {
            cli_fail(m, "h5perf: out of memory for the %lld bytes of %s's input", (long long)n,
                     pd->title);
            return false;
        }
        input_move(*bytes, n, INPUT_BCAST, 0, comm);
        *len = (size_t)n;
        return true;
    }
    int64_t common = -1, mine = 0, *sizes = NULL;
    if (rank == 0) {
        sizes = malloc((size_t)nprocs * sizeof *sizes);
        if (!sizes || input_sizes(pd, *bytes, *len, nprocs, &common, sizes) < 0)
            common = -1;
    }
    MPI_Bcast(&common, 1, MPI_INT64_T, 0, comm);
    if (common < 0) {
        free(sizes);
        cli_fail(m, "h5perf: internal error: %s's input does not divide among its processes",
                 pd->title);
        return false;
    }
    MPI_Scatter(sizes, 1, MPI_INT64_T, &mine, 1, MPI_INT64_T, 0, comm);
    unsigned char *own = malloc((size_t)(common + mine) + 1);
    if (!agree_all(comm, own != NULL)) {
        free(own);
        free(sizes);
        cli_fail(m, "h5perf: out of memory for the %lld bytes of %s's input",
                 (long long)(common + mine), pd->title);
        return false;
    }
    if (rank == 0)
        /* Process 0's part comes right after the common part. */
        memcpy(own, *bytes, (size_t)(common + mine));
    input_move(own, common, INPUT_BCAST, 0, comm);
    if (rank == 0) {
        int64_t at = common + mine;
        for (int p = 1; p < nprocs; p++) {
            input_move(*bytes + at, sizes[p], INPUT_SEND, p, comm);
            at += sizes[p];
        }
        free(*bytes);
    } else {
        input_move(own + common, mine, INPUT_RECV, 0, comm);
    }
    free(sizes);
    *bytes = own;
    *len = (size_t)(common + mine);
    return true;
}

/* --- a pattern's parts streamed as load() makes them ------------------- */

/* The tags of a streamed part: its size from process 0, whether the
 * process can take it, then its bytes (input_move's tag 0). */
enum { INPUT_TAG_SIZE = 1, INPUT_TAG_READY = 2 };

static int input_send_common(void *vctx, const unsigned char *bytes, size_t len, char *why,
                             size_t wlen)
{
    struct input_ctx *ctx = vctx;
    if (ctx->next != -1) {
        snprintf(why, wlen, "internal error: its common part sent twice");
        return -1;
    }
    /* Allocated before the broadcast: a refusal here is load()'s, as any. */
    unsigned char *own = malloc(len + 1);
    if (!own) {
        snprintf(why, wlen, "out of memory for its common part (%zu bytes)", len);
        return -1;
    }
    int64_t head[2] = {(int64_t)len, 1};
    MPI_Bcast(head, 2, MPI_INT64_T, 0, ctx->comm);
    memcpy(own, bytes, len);
    ctx->own = own;
    ctx->common = ctx->len = len;
    ctx->next = 0;
    if (!agree_all(ctx->comm, true)) {
        ctx->broken = true;
        snprintf(why, wlen, "out of memory for its common part (%zu bytes) on some process", len);
        return -1;
    }
    input_move(own, (int64_t)len, INPUT_BCAST, 0, ctx->comm);
    return 0;
}

/* Process p's size (-1: the stream ended) and, if it can take them, its
 * bytes. */
static void input_send_to(struct input_ctx *ctx, int p, const unsigned char *bytes, int64_t size)
{
    int ready = 0;
    MPI_Send(&size, 1, MPI_INT64_T, p, INPUT_TAG_SIZE, ctx->comm);
    if (size < 0)
        return;
    MPI_Recv(&ready, 1, MPI_INT, p, INPUT_TAG_READY, ctx->comm, MPI_STATUS_IGNORE);
    /* A process that cannot take its part refuses on its own line. */
    if (ready)
        input_move((unsigned char *)bytes, size, INPUT_SEND, p, ctx->comm);
}

static int input_send_part(void *vctx, int p, const unsigned char *bytes, size_t len, char *why,
                           size_t wlen)
{
    struct input_ctx *ctx = vctx;
    if (ctx->broken || ctx->next != p || p >= ctx->nprocs) {
        snprintf(why, wlen, "internal error: process %d's part out of turn", p);
        return -1;
    }
    if (p == 0) {
        unsigned char *grown = realloc(ctx->own, ctx->common + len + 1);
        if (!grown) {
            snprintf(why, wlen, "out of memory for process 0's part (%zu bytes)", len);
            return -1;
        }
        if (len)
            memcpy(grown + ctx->common, bytes, len);
        ctx->own = grown;
        ctx->len = ctx->common + len;
    } else {
        input_send_to(ctx, p, bytes, (int64_t)len);
    }
    ctx->next++;
    return 0;
}

void input_stream_lend(struct pattern_files *files, struct input_ctx *ctx, MPI_Comm comm)
{
    ctx->comm = comm;
    MPI_Comm_size(comm, &ctx->nprocs);
    ctx->next = -1;
    files->send_common = input_send_common;
    files->send_part = input_send_part;
}

bool input_stream_end(struct input_ctx *ctx, bool ok, unsigned char **bytes, size_t *len)
{
    if (ctx->next < 0)
        return false;
    /* Processes past the pattern's (a run of fewer than were started)
     * take the common part alone; after a refusal, none waits. */
    for (int p = ctx->next; !ctx->broken && p < ctx->nprocs; p++)
        if (p > 0)
            input_send_to(ctx, p, NULL, ok ? 0 : -1);
    if (!ok) {
        free(ctx->own);
        ctx->own = NULL;
        ctx->len = 0;
    }
    *bytes = ctx->own;
    *len = ctx->len;
    ctx->own = NULL;
    return true;
}

bool input_receive(MPI_Comm comm, int64_t n, const char *title, unsigned char **bytes, size_t *len,
                   struct cli_msg *m)
{
    unsigned char *own = malloc((size_t)n + 1);
    int64_t size = -1;
    if (!agree_all(comm, own != NULL)) {
        free(own);
        cli_fail(m, "h5perf: out of memory for the %lld bytes of %s's input", (long long)n, title);
        return false;
    }
    input_move(own, n, INPUT_BCAST, 0, comm);
    MPI_Recv(&size, 1, MPI_INT64_T, 0, INPUT_TAG_SIZE, comm, MPI_STATUS_IGNORE);
    if (size < 0) {
        free(own);
        /* Process 0 refused: its line is the one printed. */
        cli_fail(m, "h5perf: %s's input ended before this process's part", title);
        return false;
    }
    unsigned char *grown = realloc(own, (size_t)(n + size) + 1);
    int ready = grown != NULL;
    MPI_Send(&ready, 1, MPI_INT, 0, INPUT_TAG_READY, comm);
    if (!grown) {
        free(own);
        cli_fail(m, "h5perf: out of memory for the %lld bytes of %s's input", (long long)(n + size),
                 title);
        return false;
    }
    input_move(grown + n, size, INPUT_RECV, 0, comm);
    *bytes = grown;
    *len = (size_t)(n + size);
    return true;
}
