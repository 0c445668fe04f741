/* What one read of the timers' clock costs (docs/performance.md, "The cost
 * of recording every call's latency"): MPI_Wtime and the time-stamp
 * counter (engine/tsc.c, built in), each read through a function pointer
 * as the engine reads it, alone in a loop and after each 1 KiB pwrite of a
 * loop like h5perf's, alternated with a loop that reads no clock; and each
 * with the histogram's update (report/latency.h) of the interval since the
 * previous read, and with the log's store instead (binned into the
 * histogram when full, inside the loop's time), the whole of what
 * recording a call costs. Then why
 * the counter's read is rdtscp and not the cheaper rdtsc: the median
 * latency of a 1 KiB memcpy from a 64 MiB buffer (no system call) and of
 * a 1 KiB pwrite, each timed by chained reads of either. Prints one JSON
 * line: per clock, the nanoseconds per read, median and minimum over the
 * repetitions; per read instruction, the median over the repetitions of
 * the calls' median. Single process; asserts nothing. */
#include <fcntl.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/tsc.h"
#include "report/latency.h"

#define CALLS 16384
#define BYTES 1024

enum {
    READ_NONE,
    READ_WTIME,
    READ_TSC,
    READ_WTIME_RECORD,
    READ_TSC_RECORD,
    READ_WTIME_LOG,
    READ_TSC_LOG,
    READS
};
static const char *const read_names[READS] = {
    "none", "MPI_Wtime", "tsc", "MPI_Wtime+record", "tsc+record", "MPI_Wtime+log", "tsc+log"};

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
 * read of clock (NULL: none), its value kept, and with h the interval
 * since the previous read recorded in h: directly, or with log through
 * the log, flushed into h when full and at the end (inside the time). */
static double loop(int fd, double (*volatile clock)(void), struct latency_hist *h,
                   struct latency_log *log)
{
    static char buf[BYTES];
    volatile double kept = 0;
    double mark = clock ? clock() : 0;
    double t0 = now();
    for (int i = 0; i < CALLS; i++) {
        if (fd >= 0 && pwrite(fd, buf, BYTES, (off_t)i * BYTES) != BYTES) {
            perror("clock_read: pwrite");
            exit(1);
        }
        if (clock)
            kept = clock();
        if (h && log) {
            if (latency_log_add(log, kept - mark))
                latency_log_flush(log, h);
            mark = kept;
        } else if (h) {
            latency_record(h, kept - mark);
            mark = kept;
        }
    }
    if (h && log)
        latency_log_flush(log, h);
    (void)kept;
    return (now() - t0) / CALLS * 1e9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#if defined(__x86_64__)
#include <x86intrin.h>

static int by_ticks(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

#define ORDER_BIG (64 << 20)

/* The median of CALLS chained intervals in ticks, each around a 1 KiB
 * pwrite at fd, or (fd < 0) a memcpy from a pseudo-random place in big;
 * read by rdtscp (ordered) or rdtsc. */
static uint64_t order_median(int fd, const char *big, bool ordered, uint64_t *d)
{
    static char buf[BYTES];
    unsigned aux, seed = 12345;
    uint64_t mark = ordered ? __rdtscp(&aux) : __rdtsc();
    for (int i = 0; i < CALLS; i++) {
        if (fd >= 0 && pwrite(fd, buf, BYTES, (off_t)i * BYTES) != BYTES) {
            perror("clock_read: pwrite");
            exit(1);
        }
        if (fd < 0) {
            seed = seed * 1103515245u + 12345u;
            memcpy(buf, big + (((size_t)(seed >> 8) % (ORDER_BIG - BYTES)) & ~(size_t)63), BYTES);
        }
        uint64_t now = ordered ? __rdtscp(&aux) : __rdtsc();
        d[i] = now - mark;
        mark = now;
    }
    qsort(d, CALLS, sizeof *d, by_ticks);
    return d[CALLS / 2];
}

/* Prints "order_ns": {memcpy: {rdtscp, rdtsc}, pwrite: {...}}. */
static void print_order(int fd, int reps, double hz)
{
    char *big = malloc(ORDER_BIG);
    uint64_t *d = malloc(CALLS * sizeof *d);
    static double med[2][2][1001];
    if (!big || !d) {
        fprintf(stderr, "clock_read: out of memory\n");
        exit(1);
    }
    memset(big, 1, ORDER_BIG);
    for (int k = 0; k < reps; k++)
        for (int w = 0; w < 2; w++)
            for (int o = 0; o < 2; o++)
                med[w][o][k] = (double)order_median(w ? fd : -1, big, o == 0, d) / hz * 1e9;
    printf(", \"order_ns\": {");
    for (int w = 0; w < 2; w++) {
        for (int o = 0; o < 2; o++)
            qsort(med[w][o], (size_t)reps, sizeof med[w][o][0], by_value);
        printf("%s\"%s\": {\"rdtscp\": %.1f, \"rdtsc\": %.1f}", w ? ", " : "",
               w ? "pwrite" : "memcpy", med[w][0][reps / 2], med[w][1][reps / 2]);
    }
    printf("}");
    free(big);
    free(d);
}
#endif

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
    double (*clocks[READS])(void) = {NULL, wtime, tsc, wtime, tsc, wtime, tsc};
    static struct latency_hist hist;
    static struct latency_log log;
    latency_clear(&hist);
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
            if ((r == READ_TSC || r == READ_TSC_RECORD || r == READ_TSC_LOG) && !tsc)
                continue;
            struct latency_hist *h = r >= READ_WTIME_RECORD ? &hist : NULL;
            struct latency_log *l = r >= READ_WTIME_LOG ? &log : NULL;
            alone[r][k] = loop(-1, clocks[r], h, l);
            after_io[r][k] = loop(fd, clocks[r], h, l);
        }
    printf("{\"tsc\": %s, \"tsc_hz\": %.0f, \"reps\": %d, \"calls\": %d, ", tsc ? "true" : "false",
           hz, reps, CALLS);
    print_reads("read_alone_ns", alone, reps, false);
    printf(", ");
    print_reads("read_after_pwrite_ns", after_io, reps, true);
    printf(", \"pwrite_ns\": {\"median\": %.2f, \"min\": %.2f}", after_io[READ_NONE][reps / 2],
           after_io[READ_NONE][0]);
#if defined(__x86_64__)
    if (tsc)
        print_order(fd, reps, hz);
#endif
    printf("}\n");
    close(fd);
    unlink(path);
    MPI_Finalize();
    return 0;
}
