/* input.h: a pattern's input sent from process 0, where load() made it,
 * to every process: whole, or (pattern.h, input_parts) the common part
 * to every process and each process's own part to it alone, so that no
 * process receives what only others need (docs/design.md, "A pattern's
 * input"). Collective; nothing here reads a file. */
#include <limits.h>
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
