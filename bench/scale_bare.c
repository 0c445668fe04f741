/* The bare program of bench/scale_cost.py: the MPI and I/O calls of one
 * tiny h5perf run of the guide's 1D pattern through POSIX (-A posix -e B
 * -x B -X B -B B -p P -P P), and nothing else: each process writes its B
 * bytes at rank x B of one shared file (open, pwrite, close), the slowest
 * process's time reduced to process 0, then reads them back the same way,
 * and process 0 removes the file. With --merge, also the latency merge
 * h5perf makes at the end of a run point (engine/measure.c): the three
 * reductions of its histograms' counts, minima and maxima to process 0,
 * timed. Prints one JSON line from process 0. It must not do anything
 * else: every other cost of h5perf's run is what scale_cost.py measures
 * against it. */
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/latency.h"

static const char bare_usage[] =
    "usage: mpiexec -n P scale_bare DIR BYTES [--merge]\n"
    "Writes and reads BYTES per process of one shared file in DIR (POSIX), as\n"
    "h5perf -A posix -e BYTES -x BYTES -X BYTES -B BYTES does; with --merge, also\n"
    "reduces h5perf's latency histograms to process 0. One JSON line.\n";

/* Collective: one phase, open to close, slowest process's seconds on
 * process 0; -1 on any process's failure. */
static double bare_phase(const char *path, char *buf, long long bytes, int rank, int write)
{
    double t0 = MPI_Wtime();
    int fd = open(path, write ? O_RDWR | O_CREAT : O_RDONLY, 0644);
    ssize_t n = -1;
    if (fd >= 0) {
        n = write ? pwrite(fd, buf, (size_t)bytes, (off_t)(rank * bytes))
                  : pread(fd, buf, (size_t)bytes, (off_t)(rank * bytes));
        if (close(fd) != 0)
            n = -1;
    }
    double t = n == bytes ? MPI_Wtime() - t0 : -1, slowest = 0, worst = 0;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    return worst < 0 ? -1 : slowest;
}

/* Collective: h5perf's merge of a run point's latency histograms (two
 * directions of open, transfer and close), as engine/measure.c makes it;
 * the slowest process's seconds on process 0. */
static double bare_merge(void)
{
    enum { N = 2 * LATENCY_CALLS, CELLS = LATENCY_BUCKETS + 1 };
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    uint64_t *mine = calloc((size_t)N * CELLS, sizeof *mine);
    uint64_t *sum = rank == 0 ? calloc((size_t)N * CELLS, sizeof *sum) : NULL;
    uint64_t lo[N] = {0}, hi[N] = {0}, lo_all[N], hi_all[N];
    if (!mine || (rank == 0 && !sum)) {
        fprintf(stderr, "scale_bare: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Reduce(mine, sum, N * CELLS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(lo, lo_all, N, MPI_UINT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(hi, hi_all, N, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0, slowest = 0;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    free(mine);
    free(sum);
    return slowest;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *end = NULL;
    long long bytes = argc >= 3 ? strtoll(argv[2], &end, 10) : 0;
    int merge = argc == 4 && strcmp(argv[3], "--merge") == 0;
    if (argc < 3 || argc > 4 || (argc == 4 && !merge) || !end || *end || bytes <= 0 ||
        bytes > (1 << 30)) {
        if (rank == 0)
            fputs(bare_usage, stderr);
        MPI_Finalize();
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/scale_bare.dat", argv[1]);
    char *buf = malloc((size_t)bytes);
    if (!buf) {
        fprintf(stderr, "scale_bare: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, rank & 0xff, (size_t)bytes);
    double w = bare_phase(path, buf, bytes, rank, 1);
    double r = w < 0 ? -1 : bare_phase(path, buf, bytes, rank, 0);
    double m = merge ? bare_merge() : 0;
    if (rank == 0)
        unlink(path);
    free(buf);
    int status = w < 0 || r < 0 ? 1 : 0;
    if (rank == 0) {
        if (status)
            fprintf(stderr, "scale_bare: an open, transfer or close failed in '%s'\n", path);
        else
            printf("{\"procs\": %d, \"bytes\": %lld, \"write_open_close\": %.9f, "
                   "\"read_open_close\": %.9f, \"merge\": %.9f}\n",
                   size, bytes, w, r, m);
        fflush(stdout);
    }
    MPI_Finalize();
    return status;
}
