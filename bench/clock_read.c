/* What one read of the timers' clock costs (docs/performance.md, "The cost
 * of recording every call's latency"): MPI_Wtime and the time-stamp
 * counter (engine/tsc.c, built in), each read through a function pointer
 * as the engine reads it, alone in a loop and after each 1 KiB pwrite of a
 * loop like h5perf's, alternated with a loop that reads no clock. Prints
 * one JSON line: per clock, the nanoseconds per read, median and minimum
 * over the repetitions. Single process; asserts nothing. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/tsc.h"

#define CALLS 16384
#define BYTES 1024

enum { READ_NONE, READ_WTIME, READ_TSC, READS };
static const char *const read_names[READS] = {"none", "MPI_Wtime", "tsc"};

static double wtime(void)
{
    return MPI_Wtime();
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Nanoseconds per iteration of CALLS: a pwrite at fd (fd >= 0), then a
 * read of clock (NULL: none), its value kept. */
static double loop(int fd, double (*volatile clock)(void))
{
    static char buf[BYTES];
    volatile double kept = 0;
    double t0 = now();
    for (int i = 0; i < CALLS; i++) {
        if (fd >= 0 && pwrite(fd, buf, BYTES, (off_t)i * BYTES) != BYTES) {
            perror("clock_read: pwrite");
            exit(1);
        }
        if (clock)
            kept = clock();
    }
    (void)kept;
    return (now() - t0) / CALLS * 1e9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ns[reads][reps]: sorted in place; prints "name": {"median", "min"} for
 * each read, less the loop without a read when less_none. */
static void print_reads(const char *what, double ns[READS][1001], int reps, bool less_none)
{
    printf("\"%s\": {", what);
    double base_median = 0, base_min = 0;
    for (int r = 0; r < READS; r++) {
        qsort(ns[r], (size_t)reps, sizeof ns[r][0], by_value);
        if (r == READ_NONE) {
            base_median = less_none ? ns[r][reps / 2] : 0;
            base_min = less_none ? ns[r][0] : 0;
        }
        printf("%s\"%s\": {\"median\": %.2f, \"min\": %.2f}", r ? ", " : "", read_names[r],
               ns[r][reps / 2] - base_median, ns[r][0] - base_min);
    }
    printf("}");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *dir = argc > 1 ? argv[1] : "/dev/shm";
    int reps = argc > 2 ? atoi(argv[2]) : 101;
    if (reps < 1 || reps > 1001) {
        fprintf(stderr, "usage: clock_read [DIR [REPS <= 1001]]\n");
        return 2;
    }
    double hz = 0;
    double (*tsc)(void) = tsc_clock_setup(MPI_Wtime, &hz);
    double (*clocks[READS])(void) = {NULL, wtime, tsc};
    char path[4096];
    snprintf(path, sizeof path, "%s/clock_read.%d", dir, (int)getpid());
    int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0) {
        perror("clock_read: open");
        return 1;
    }
    static double alone[READS][1001], after_io[READS][1001];
    /* Alternated: every clock in turn within each repetition. */
    for (int k = 0; k < reps; k++)
        for (int r = 0; r < READS; r++) {
            if (r == READ_TSC && !tsc)
                continue;
            alone[r][k] = loop(-1, clocks[r]);
            after_io[r][k] = loop(fd, clocks[r]);
        }
    close(fd);
    unlink(path);
    printf("{\"tsc\": %s, \"tsc_hz\": %.0f, \"reps\": %d, \"calls\": %d, ", tsc ? "true" : "false",
           hz, reps, CALLS);
    print_reads("read_alone_ns", alone, reps, false);
    printf(", ");
    print_reads("read_after_pwrite_ns", after_io, reps, true);
    printf(", \"pwrite_ns\": {\"median\": %.2f, \"min\": %.2f}}\n", after_io[READ_NONE][reps / 2],
           after_io[READ_NONE][0]);
    MPI_Finalize();
    return 0;
}
