/* Unit tests of the results model and the legacy text report's result blocks:
 * the arithmetic of the summaries, then every line of the throughput, time and
 * details blocks, the FAILED lines of a failed verification and the write-only
 * report, compared exactly with the reference output (docs/original.md §6-7).
 * No MPI; the header and per-run lines are test_report_header.c's. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_fixtures.h"
#include "report/results.h"
#include "report/text.h"

/* ---- helpers ------------------------------------------------------------ */

/* A result of `n` iterations; every timer of every iteration starts at 0. */
static void make_result(struct api_result *r, int64_t bytes, int n)
{
    if (results_init(r, API_POSIX, 2, 1024, bytes, n) != 0) {
        fprintf(stderr, "results_init failed\n");
        exit(1);
    }
    for (int i = 0; i < n; i++)
        results_next_iteration(r);
}

/* Sets one timer of one iteration (0-based): min and max over processes. */
static void set_time(struct api_result *r, int iter, enum timer_id t, double min, double max)
{
    r->it[iter].t[t].min = min;
    r->it[iter].t[t].max = max;
    r->it[iter].t[t].sum = min + max;
}

/* The report of one API, as text (caller frees). */
static char *api_report(const struct config *cfg, const struct api_result *r)
{
    struct capture c;

    text_api_results(cap_open(&c), settings_of(cfg), r);
    cap_text(&c);
    return c.buf;
}

/* ---- configurations ------------------------------------------------------ */

/* ---- results model ------------------------------------------------------ */

/* A record grows as iterations come: --max-iterations bounds it and
 * reserves nothing up front (docs/measuring.md, "--confidence"). */
static void test_results_grow(void)
{
    struct api_result r;

    CHECK(results_init(&r, API_POSIX, 2, 1024, MB, INT_MAX) == 0);
    CHECK(r.it == NULL);
    for (int i = 0; i < 1000; i++) {
        struct iter_result *it = results_next_iteration(&r);
        CHECK(it != NULL);
        if (!it)
            break;
        it->t[TIMER_WRITE_FINE].max = 1.0 + i % 3;
    }
    CHECK_I64(r.iterations, 1000);
    CHECK(r.it[999].t[TIMER_WRITE_FINE].max == 1.0 + 999 % 3);
    struct timer_summary s;
    results_summarize(&r, TIMER_WRITE_FINE, &s);
    CHECK_I64(s.n, 1000);
    CHECK(s.t_med == 2.0 && s.t_min == 1.0 && s.t_max == 3.0);
    results_release(&r);

    /* At most max_iterations, however it grew. */
    CHECK(results_init(&r, API_POSIX, 2, 1024, MB, 20) == 0);
    for (int i = 0; i < 20; i++)
        CHECK(results_next_iteration(&r) != NULL);
    CHECK(results_next_iteration(&r) == NULL);
    CHECK_I64(r.iterations, 20);
    results_release(&r);
}

static void test_results_lifecycle(void)
{
    struct api_result r;

    CHECK(results_init(&r, API_MPIIO, 4, 8192, MB, 0) == -1);
    CHECK(r.it == NULL);
    CHECK(results_init(&r, API_MPIIO, 4, 8192, MB, 2) == 0);
    CHECK(r.api == API_MPIIO);
    CHECK_I64(r.nprocs, 4);
    CHECK_I64(r.xfer, 8192);
    CHECK_I64(r.bytes, MB);
    CHECK_I64(r.iterations, 0);
    CHECK_I64(r.max_iterations, 2);
    CHECK(results_status(&r) == RUN_OK);

    struct iter_result *a = results_next_iteration(&r);
    CHECK(a == &r.it[0]);
    CHECK(a->status == RUN_OK && a->t[TIMER_READ_CLOSE].max == 0.0);
    a->t[TIMER_WRITE_FINE].max = 7.0;
    struct iter_result *b = results_next_iteration(&r);
    CHECK(b == &r.it[1]);
    CHECK_I64(r.iterations, 2);
    CHECK(results_next_iteration(&r) == NULL);
    CHECK_I64(r.iterations, 2);
    CHECK(r.it[0].t[TIMER_WRITE_FINE].max == 7.0);

    results_release(&r);
    CHECK(r.it == NULL);
    CHECK_I64(r.iterations, 0);
    results_release(&r); /* twice is harmless */
}

static void test_results_status(void)
{
    struct api_result r;

    make_result(&r, MB, 3);
    CHECK(results_status(&r) == RUN_OK);
    r.it[1].status = RUN_VERIFY_FAILED;
    CHECK(results_status(&r) == RUN_VERIFY_FAILED);
    r.it[0].status = RUN_IO_ERROR; /* an I/O error outranks, before or after */
    CHECK(results_status(&r) == RUN_IO_ERROR);
    r.it[0].status = RUN_OK;
    r.it[2].status = RUN_IO_ERROR;
    CHECK(results_status(&r) == RUN_IO_ERROR);
    results_release(&r);
}

/* docs/original.md §6.2: statistics of the per-iteration maximum; the average
 * throughput is that of the mean time (1 MB over a mean of 1 s: 1.00, where
 * the mean of the throughputs 4, 2 and 0.44 would be 2.15). */
static void test_results_summary(void)
{
    struct api_result r;
    struct timer_summary s;
    char buf[32];

    make_result(&r, MB, 3);
    set_time(&r, 0, TIMER_WRITE_FINE, 0.125, 0.25);
    set_time(&r, 1, TIMER_WRITE_FINE, 0.0625, 2.25);
    set_time(&r, 2, TIMER_WRITE_FINE, 0.5, 0.5);
    results_summarize(&r, TIMER_WRITE_FINE, &s);
    CHECK(s.t_min == 0.25);
    CHECK(s.t_avg == 1.0);
    CHECK(s.t_max == 2.25);
    CHECK(s.mbs_max == 4.0);
    CHECK(s.mbs_avg == 1.0);
    snprintf(buf, sizeof(buf), "%.2f", s.mbs_min);
    CHECK_STR(buf, "0.44");

    /* bytes are F * D * N, all processes: 3 MB in 0.5 s */
    r.bytes = 3 * MB;
    results_summarize(&r, TIMER_WRITE_FINE, &s);
    CHECK(s.mbs_max == 12.0);

    /* A timer never set: 0 s, reported as 0.00 MB/s rather than inf. */
    results_summarize(&r, TIMER_READ_RAW, &s);
    CHECK(s.t_min == 0.0 && s.t_avg == 0.0 && s.t_max == 0.0);
    CHECK(s.mbs_max == 0.0 && s.mbs_avg == 0.0 && s.mbs_min == 0.0);

    /* |T| < DBL_EPSILON counts as 0; DBL_EPSILON itself does not. */
    set_time(&r, 0, TIMER_READ_OPEN, 0.0, DBL_EPSILON / 2);
    set_time(&r, 1, TIMER_READ_OPEN, 0.0, DBL_EPSILON / 2);
    set_time(&r, 2, TIMER_READ_OPEN, 0.0, 4 * DBL_EPSILON);
    results_summarize(&r, TIMER_READ_OPEN, &s); /* mean 5/3 epsilon */
    CHECK(s.mbs_max == 0.0);
    CHECK(s.mbs_avg > 0.0);
    CHECK(s.mbs_min > 0.0);
    set_time(&r, 2, TIMER_READ_OPEN, 0.0, -DBL_EPSILON / 2);
    results_summarize(&r, TIMER_READ_OPEN, &s);
    CHECK(s.mbs_max == 0.0 && s.mbs_avg == 0.0 && s.mbs_min == 0.0);
    results_release(&r);

    /* No iteration filled: all zero. */
    CHECK(results_init(&r, API_PHDF5, 1, 1, MB, 2) == 0);
    s.t_min = s.mbs_max = 9.0;
    results_summarize(&r, TIMER_WRITE_GROSS, &s);
    CHECK(s.t_min == 0.0 && s.mbs_max == 0.0);
    results_release(&r);
}

/* ---- result blocks ------------------------------------------------------- */

/* One iteration, every phase with times giving exact figures. */
static void fill_simple(struct api_result *r)
{
    set_time(r, 0, TIMER_WRITE_FINE, 0.25, 0.5);
    set_time(r, 0, TIMER_WRITE_GROSS, 0.5, 1.0);
    set_time(r, 0, TIMER_WRITE_RAW, 0.125, 0.25);
    set_time(r, 0, TIMER_WRITE_OPEN, 0.125, 0.375);
    set_time(r, 0, TIMER_WRITE_CLOSE, 0.0625, 0.125);
    set_time(r, 0, TIMER_READ_FINE, 0.125, 0.25);
    set_time(r, 0, TIMER_READ_GROSS, 0.0625, 0.125);
    set_time(r, 0, TIMER_READ_RAW, 0.03125, 0.0625);
    set_time(r, 0, TIMER_READ_OPEN, 0.015625, 0.03125);
    set_time(r, 0, TIMER_READ_CLOSE, 0.0, 0.0);
}

/* No -D: the four blocks Write, Write Open-Close, Read, Read Open-Close. */
static void test_results_default(void)
{
    struct config cfg = default_config();
    struct api_result r;

    make_result(&r, MB, 1);
    fill_simple(&r);
    char *got = api_report(&cfg, &r);
    check_lines("default blocks", got,
                "            Write (1 iteration(s)):\n"
                "                Maximum Throughput:   2.00 MB/s\n"
                "                Average Throughput:   2.00 MB/s\n"
                "                Minimum Throughput:   2.00 MB/s\n"
                "            Write Open-Close (1 iteration(s)):\n"
                "                Maximum Throughput:   1.00 MB/s\n"
                "                Average Throughput:   1.00 MB/s\n"
                "                Minimum Throughput:   1.00 MB/s\n"
                "            Read (1 iteration(s)):\n"
                "                Maximum Throughput:   4.00 MB/s\n"
                "                Average Throughput:   4.00 MB/s\n"
                "                Minimum Throughput:   4.00 MB/s\n"
                "            Read Open-Close (1 iteration(s)):\n"
                "                Maximum Throughput:   8.00 MB/s\n"
                "                Average Throughput:   8.00 MB/s\n"
                "                Minimum Throughput:   8.00 MB/s\n");
    free(got);

    /* %6.2f widens; a zero time gives 0.00. */
    r.bytes = 1024 * MB;
    set_time(&r, 0, TIMER_READ_GROSS, 0.0, 0.0);
    got = api_report(&cfg, &r);
    CHECK(strstr(got, "            Write (1 iteration(s)):\n"
                      "                Maximum Throughput: 2048.00 MB/s\n") != NULL);
    CHECK(strstr(got, "            Read Open-Close (1 iteration(s)):\n"
                      "                Maximum Throughput:   0.00 MB/s\n") != NULL);
    free(got);
    results_release(&r);
}

/* Three iterations: maximum, average (of the mean time) and minimum. */
static void test_results_iterations(void)
{
    struct config cfg = default_config();
    struct api_result r;

    cfg.write_only = true;
    make_result(&r, MB, 3);
    set_time(&r, 0, TIMER_WRITE_FINE, 0.125, 0.25);
    set_time(&r, 1, TIMER_WRITE_FINE, 0.0625, 2.25);
    set_time(&r, 2, TIMER_WRITE_FINE, 0.5, 0.5);
    set_time(&r, 0, TIMER_WRITE_GROSS, 0.125, 0.5);
    set_time(&r, 1, TIMER_WRITE_GROSS, 0.125, 0.5);
    set_time(&r, 2, TIMER_WRITE_GROSS, 0.125, 0.5);
    char *got = api_report(&cfg, &r);
    check_lines("3 iterations, -w", got,
                "            Write (3 iteration(s)):\n"
                "                Maximum Throughput:   4.00 MB/s\n"
                "                Average Throughput:   1.00 MB/s\n"
                "                Minimum Throughput:   0.44 MB/s\n"
                "            Write Open-Close (3 iteration(s)):\n"
                "                Maximum Throughput:   2.00 MB/s\n"
                "                Average Throughput:   2.00 MB/s\n"
                "                Minimum Throughput:   2.00 MB/s\n");
    free(got);
    results_release(&r);
}

/* --read-only: only the read blocks; the write timers (0) print nothing. */
static void test_results_read_only(void)
{
    struct config cfg = default_config();
    struct api_result r;

    cfg.read_only = true;
    make_result(&r, MB, 1);
    set_time(&r, 0, TIMER_READ_FINE, 0.125, 0.25);
    set_time(&r, 0, TIMER_READ_GROSS, 0.125, 0.5);
    char *got = api_report(&cfg, &r);
    check_lines("--read-only", got,
                "            Read (1 iteration(s)):\n"
                "                Maximum Throughput:   4.00 MB/s\n"
                "                Average Throughput:   4.00 MB/s\n"
                "                Minimum Throughput:   4.00 MB/s\n"
                "            Read Open-Close (1 iteration(s)):\n"
                "                Maximum Throughput:   2.00 MB/s\n"
                "                Average Throughput:   2.00 MB/s\n"
                "                Minimum Throughput:   2.00 MB/s\n");
    free(got);
    results_release(&r);
}

/* -D t (reference 04): bracketed times, then the File Open / File Close
 * time blocks of the per-iteration maximum, min / average / max. */
static void test_results_times(void)
{
    struct config cfg = default_config();
    struct api_result r;

    setup_04(&cfg);
    make_result(&r, 2 * MB, 3);
    for (int i = 0; i < 3; i++) {
        static const double fine[3] = {0.5, 1.0, 4.5}, open[3] = {0.25, 0.5, 2.25};

        set_time(&r, i, TIMER_WRITE_FINE, 0.001, fine[i]);
        set_time(&r, i, TIMER_WRITE_GROSS, 0.001, 2 * fine[i]);
        set_time(&r, i, TIMER_WRITE_OPEN, 0.001, open[i]);
        set_time(&r, i, TIMER_WRITE_CLOSE, 0.001, 0.00001);
        set_time(&r, i, TIMER_READ_FINE, 0.001, 0.25);
        set_time(&r, i, TIMER_READ_GROSS, 0.001, 0.5);
        set_time(&r, i, TIMER_READ_OPEN, 0.0, 0.000125);
        set_time(&r, i, TIMER_READ_CLOSE, 0.0, 0.0);
    }
    char *got = api_report(&cfg, &r);
    check_lines("-D t", got,
                "            Write (3 iteration(s)):\n"
                "                Maximum Throughput:   4.00 MB/s (  0.500 s)\n"
                "                Average Throughput:   1.00 MB/s (  2.000 s)\n"
                "                Minimum Throughput:   0.44 MB/s (  4.500 s)\n"
                "            Write Open-Close (3 iteration(s)):\n"
                "                Maximum Throughput:   2.00 MB/s (  1.000 s)\n"
                "                Average Throughput:   0.50 MB/s (  4.000 s)\n"
                "                Minimum Throughput:   0.22 MB/s (  9.000 s)\n"
                "            Write File Open (3 iteration(s)):\n"
                "                Minimum Accumulated Time using 2 file(s): 0.25000 s\n"
                "                Average Accumulated Time using 2 file(s): 1.00000 s\n"
                "                Maximum Accumulated Time using 2 file(s): 2.25000 s\n"
                "            Write File Close (3 iteration(s)):\n"
                "                Minimum Accumulated Time using 2 file(s): 0.00001 s\n"
                "                Average Accumulated Time using 2 file(s): 0.00001 s\n"
                "                Maximum Accumulated Time using 2 file(s): 0.00001 s\n"
                "            Read (3 iteration(s)):\n"
                "                Maximum Throughput:   8.00 MB/s (  0.250 s)\n"
                "                Average Throughput:   8.00 MB/s (  0.250 s)\n"
                "                Minimum Throughput:   8.00 MB/s (  0.250 s)\n"
                "            Read Open-Close (3 iteration(s)):\n"
                "                Maximum Throughput:   4.00 MB/s (  0.500 s)\n"
                "                Average Throughput:   4.00 MB/s (  0.500 s)\n"
                "                Minimum Throughput:   4.00 MB/s (  0.500 s)\n"
                "            Read File Open (3 iteration(s)):\n"
                "                Minimum Accumulated Time using 2 file(s): 0.00013 s\n"
                "                Average Accumulated Time using 2 file(s): 0.00013 s\n"
                "                Maximum Accumulated Time using 2 file(s): 0.00013 s\n"
                "            Read File Close (3 iteration(s)):\n"
                "                Minimum Accumulated Time using 2 file(s): 0.00000 s\n"
                "                Average Accumulated Time using 2 file(s): 0.00000 s\n"
                "                Maximum Accumulated Time using 2 file(s): 0.00000 s\n");
    free(got);
    results_release(&r);
}

/* -w -D r (reference 05): Raw Data Write first, no read phase. */
static void test_results_raw_write_only(void)
{
    struct config cfg = default_config();
    struct api_result r;

    setup_05(&cfg);
    make_result(&r, MB, 1);
    fill_simple(&r);
    char *got = api_report(&cfg, &r);
    check_lines("-w -D r", got,
                "            Raw Data Write (1 iteration(s)):\n"
                "                Maximum Throughput:   4.00 MB/s\n"
                "                Average Throughput:   4.00 MB/s\n"
                "                Minimum Throughput:   4.00 MB/s\n"
                "            Write (1 iteration(s)):\n"
                "                Maximum Throughput:   2.00 MB/s\n"
                "                Average Throughput:   2.00 MB/s\n"
                "                Minimum Throughput:   2.00 MB/s\n"
                "            Write Open-Close (1 iteration(s)):\n"
                "                Maximum Throughput:   1.00 MB/s\n"
                "                Average Throughput:   1.00 MB/s\n"
                "                Minimum Throughput:   1.00 MB/s\n");
    free(got);

    /* -D r with reads: Raw Data Read opens the read phase. */
    cfg.write_only = false;
    got = api_report(&cfg, &r);
    CHECK(strstr(got, "                Minimum Throughput:   1.00 MB/s\n"
                      "            Raw Data Read (1 iteration(s)):\n"
                      "                Maximum Throughput:  16.00 MB/s\n"
                      "                Average Throughput:  16.00 MB/s\n"
                      "                Minimum Throughput:  16.00 MB/s\n"
                      "            Read (1 iteration(s)):\n") != NULL);
    free(got);
    results_release(&r);
}

/* The lines of a report that open a block (12 spaces, then a letter). */
static void block_titles(const char *text, char *out, size_t len)
{
    size_t used = 0;

    out[0] = '\0';
    for (const char *s = text; *s; s += line_len(s) + (s[line_len(s)] == '\n')) {
        size_t n = line_len(s);

        if (n > 12 && strncmp(s, "            ", 12) == 0 && s[12] != ' ' && used + n + 1 < len) {
            memcpy(out + used, s + 12, n - 12);
            used += n - 12;
            out[used++] = '\n';
            out[used] = '\0';
        }
    }
}

/* -D 3 (reference 06 without the MPI Write/Read details, docs/original.md §0). */
static void test_results_details_06(void)
{
    struct config cfg = default_config();
    struct api_result r;
    char titles[2048];

    setup_06(&cfg);
    make_result(&r, MB, 2);
    fill_simple(&r); /* iteration 1; of iteration 2 only "Write" is timed */
    set_time(&r, 1, TIMER_WRITE_FINE, 0.75, 1.5);
    char *got = api_report(&cfg, &r);
    block_titles(got, titles, sizeof(titles));
    check_lines("-D 3 titles", titles,
                "Write details:\n"
                "Write (2 iteration(s)):\n"
                "Write Open-Close details:\n"
                "Write Open-Close (2 iteration(s)):\n"
                "Write file open details:\n"
                "Write file close details:\n"
                "Read details:\n"
                "Read (2 iteration(s)):\n"
                "Read Open-Close details:\n"
                "Read Open-Close (2 iteration(s)):\n"
                "Read file open details:\n"
                "Read file close details:\n");
    /* Per iteration, the min and max over processes (not only the max). */
    check_lines("-D 3 head", got,
                "            Write details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.25s\n"
                "                    Maximum Time: 0.50s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.75s\n"
                "                    Maximum Time: 1.50s\n"
                "            Write (2 iteration(s)):\n"
                "                Maximum Throughput:   2.00 MB/s\n"
                "                Average Throughput:   1.00 MB/s\n"
                "                Minimum Throughput:   0.67 MB/s\n"
                "            Write Open-Close details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.50s\n"
                "                    Maximum Time: 1.00s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n"
                "            Write Open-Close (2 iteration(s)):\n"
                "                Maximum Throughput:   0.00 MB/s\n"
                "                Average Throughput:   2.00 MB/s\n"
                "                Minimum Throughput:   1.00 MB/s\n"
                "            Write file open details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.12s\n"
                "                    Maximum Time: 0.38s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n"
                "            Write file close details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.06s\n"
                "                    Maximum Time: 0.12s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n"
                "            Read details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.12s\n"
                "                    Maximum Time: 0.25s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n"
                "            Read (2 iteration(s)):\n"
                "                Maximum Throughput:   0.00 MB/s\n"
                "                Average Throughput:   8.00 MB/s\n"
                "                Minimum Throughput:   4.00 MB/s\n"
                "            Read Open-Close details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.06s\n"
                "                    Maximum Time: 0.12s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n"
                "            Read Open-Close (2 iteration(s)):\n"
                "                Maximum Throughput:   0.00 MB/s\n"
                "                Average Throughput:  16.00 MB/s\n"
                "                Minimum Throughput:   8.00 MB/s\n"
                "            Read file open details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.02s\n"
                "                    Maximum Time: 0.03s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n"
                "            Read file close details:\n"
                "                Iteration 1:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n"
                "                Iteration 2:\n"
                "                    Minimum Time: 0.00s\n"
                "                    Maximum Time: 0.00s\n");
    CHECK(strstr(got, "MPI") == NULL);
    free(got);

    /* -D 4 prints the same blocks as -D 3. */
    cfg.debug_level = 4;
    got = api_report(&cfg, &r);
    char titles4[2048];
    block_titles(got, titles4, sizeof(titles4));
    CHECK_STR(titles4, titles);
    free(got);
    results_release(&r);
}

/* Every option at once: -D 3 -D r -D t; the order of docs/original.md §7.3. */
static void test_results_all_blocks(void)
{
    struct config cfg = default_config();
    struct api_result r;
    char titles[2048];

    cfg.debug_level = 3;
    cfg.debug_raw = true;
    cfg.debug_times = true;
    make_result(&r, MB, 1);
    fill_simple(&r);
    char *got = api_report(&cfg, &r);
    block_titles(got, titles, sizeof(titles));
    check_lines("-D 3 -D rt titles", titles,
                "Raw Data Write details:\n"
                "Raw Data Write (1 iteration(s)):\n"
                "Write details:\n"
                "Write (1 iteration(s)):\n"
                "Write Open-Close details:\n"
                "Write Open-Close (1 iteration(s)):\n"
                "Write File Open (1 iteration(s)):\n"
                "Write File Close (1 iteration(s)):\n"
                "Write file open details:\n"
                "Write file close details:\n"
                "Raw Data Read details:\n"
                "Raw Data Read (1 iteration(s)):\n"
                "Read details:\n"
                "Read (1 iteration(s)):\n"
                "Read Open-Close details:\n"
                "Read Open-Close (1 iteration(s)):\n"
                "Read File Open (1 iteration(s)):\n"
                "Read File Close (1 iteration(s)):\n"
                "Read file open details:\n"
                "Read file close details:\n");
    free(got);
    results_release(&r);
}

/* A verification failure: the write figures stand, every read block says
 * FAILED instead of a figure. An I/O error: nothing at all. */
static void test_results_failed(void)
{
    struct config cfg = default_config();
    struct api_result r;

    cfg.debug_level = 3;
    cfg.debug_raw = true;
    cfg.debug_times = true;
    make_result(&r, MB, 2);
    fill_simple(&r);
    r.it[1].status = RUN_VERIFY_FAILED;
    char *got = api_report(&cfg, &r);
    const char *read = strstr(got, "            Raw Data Read details:\n");
    CHECK(read != NULL);
    CHECK(strstr(got, "            Write (2 iteration(s)):\n"
                      "                Maximum Throughput:   0.00 MB/s (  0.000 s)\n"
                      "                Average Throughput:   4.00 MB/s (  0.250 s)\n"
                      "                Minimum Throughput:   2.00 MB/s (  0.500 s)\n") != NULL);
    if (read)
        check_lines("verify failed", read,
                    "            Raw Data Read details:\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Raw Data Read (2 iteration(s)):\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read details:\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read (2 iteration(s)):\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read Open-Close details:\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read Open-Close (2 iteration(s)):\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read File Open (2 iteration(s)):\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read File Close (2 iteration(s)):\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read file open details:\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read file close details:\n"
                    "                FAILED: data verification (see stderr)\n");
    CHECK(strstr(got, "Throughput:  16.00") == NULL); /* no read figure anywhere */
    free(got);

    /* Without -D: Read and Read Open-Close only. */
    cfg = default_config();
    got = api_report(&cfg, &r);
    read = strstr(got, "            Read (2 iteration(s)):\n");
    CHECK(read != NULL);
    if (read)
        check_lines("verify failed, no -D", read,
                    "            Read (2 iteration(s)):\n"
                    "                FAILED: data verification (see stderr)\n"
                    "            Read Open-Close (2 iteration(s)):\n"
                    "                FAILED: data verification (see stderr)\n");
    free(got);

    /* -w: there is no read phase to fail. */
    cfg.write_only = true;
    got = api_report(&cfg, &r);
    CHECK(strstr(got, "FAILED") == NULL);
    CHECK(strstr(got, "Write Open-Close (2 iteration(s)):\n") != NULL);
    free(got);

    r.it[0].status = RUN_IO_ERROR;
    cfg.write_only = false;
    got = api_report(&cfg, &r);
    CHECK_STR(got, "");
    free(got);
    results_release(&r);
}

int main(void)
{
    test_results_lifecycle();
    test_results_grow();
    test_results_read_only();
    test_results_status();
    test_results_summary();
    test_results_default();
    test_results_iterations();
    test_results_times();
    test_results_raw_write_only();
    test_results_details_06();
    test_results_all_blocks();
    test_results_failed();
    return check_done("test_report_blocks");
}
