/* Unit tests of the results model and the legacy text report: every line of
 * the header, the per-transfer-size lines and the result blocks is compared
 * exactly with the reference output (SPEC 7). No MPI. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/results.h"
#include "report/text.h"

#define KB       INT64_C(1024)
#define MB       (KB * KB)
#define GB       (MB * KB)
#define ALL_APIS (API_BIT(API_POSIX) | API_BIT(API_MPIIO) | API_BIT(API_PHDF5))

/* ---- helpers ------------------------------------------------------------ */

/* An in-memory report stream (open_memstream). */
struct capture {
    char *buf;
    size_t len;
    FILE *f;
};

static FILE *cap_open(struct capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    if (!c->f) {
        perror("open_memstream");
        exit(1);
    }
    return c->f;
}

/* Closes the stream; the text stays valid until free(c->buf). */
static const char *cap_text(struct capture *c)
{
    fclose(c->f);
    c->f = NULL;
    return c->buf;
}

/* Length of the line starting at s (without its newline). */
static size_t line_len(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? (size_t)(nl - s) : strlen(s);
}

/* One check per expected line, then one that the texts end together; a
 * mismatch prints the line number, both lines, and stops comparing. */
static void check_lines(const char *what, const char *got, const char *expected)
{
    int line = 1;

    for (;; line++) {
        size_t lg = line_len(got), le = line_len(expected);
        bool end_g = *got == '\0', end_e = *expected == '\0';

        check_count++;
        if (end_g || end_e) {
            if (end_g != end_e) {
                check_failures++;
                fprintf(stderr, "%s: line %d: got %s, expected \"%.*s\"\n", what, line,
                        end_g ? "end of text" : "more text", (int)le, expected);
                if (!end_g)
                    fprintf(stderr, "  extra: \"%.*s\"\n", (int)lg, got);
            }
            return;
        }
        if (lg != le || memcmp(got, expected, lg) != 0) {
            check_failures++;
            fprintf(stderr, "%s: line %d\n  got:      \"%.*s\"\n  expected: \"%.*s\"\n", what, line,
                    (int)lg, got, (int)le, expected);
            return;
        }
        got += lg + (got[lg] == '\n');
        expected += le + (expected[le] == '\n');
    }
}

/* The configuration the parser gives for `h5perf` alone on 2 processes
 * (reference 01), after the defaults of SPEC 1.6. */
static struct config default_config(void)
{
    struct config c;

    memset(&c, 0, sizeof(c));
    c.apis = ALL_APIS;
    c.align = 1;
    c.threshold = 1;
    c.bytes = 256 * KB;
    c.block = 128 * KB;
    c.xfer_min = 128 * KB;
    c.xfer_max = 256 * KB;
    c.num_dsets = 1;
    c.num_files = 1;
    c.iterations = 1;
    c.min_procs = 1;
    c.max_procs = 2;
    return c;
}

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

    text_api_results(cap_open(&c), cfg, r);
    cap_text(&c);
    return c.buf;
}

/* ---- expected headers: the reference outputs' text, verbatim ------------ */

static const char ref01_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=256KB\n"
                                   "rank 0: Size of dataset(s)=256KB:512KB\n"
                                   "rank 0: File size=256KB:512KB\n"
                                   "rank 0: Transfer buffer size=128KB:256KB\n"
                                   "rank 0: Block size=128KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref02_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=3\n"
                                   "rank 0: Number of processes=3:3\n"
                                   "rank 0: Number of bytes per process per dataset=8000\n"
                                   "rank 0: Size of dataset(s)=24000:24000\n"
                                   "rank 0: File size=24000:24000\n"
                                   "rank 0: Transfer buffer size=4000:4000\n"
                                   "rank 0: Block size=2000\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref03_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=2\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=64KB\n"
                                   "rank 0: Size of dataset(s)=64KB:128KB\n"
                                   "rank 0: File size=64KB:128KB\n"
                                   "rank 0: Transfer buffer size=8KB:32KB\n"
                                   "rank 0: Block size=2KB\n"
                                   "rank 0: Block Pattern in Dataset=Interleaved\n"
                                   "rank 0: I/O Method for MPI and HDF5=Collective\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref04_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix \n"
                                   "rank 0: Number of files=2\n"
                                   "rank 0: Number of datasets=3\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=64KB\n"
                                   "rank 0: Size of dataset(s)=64KB:128KB\n"
                                   "rank 0: File size=192KB:384KB\n"
                                   "rank 0: Transfer buffer size=16KB:64KB\n"
                                   "rank 0: Block size=4KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref05_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=mpiio \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=128KB\n"
                                   "rank 0: Size of dataset(s)=128KB:256KB\n"
                                   "rank 0: File size=128KB:256KB\n"
                                   "rank 0: Transfer buffer size=64KB:128KB\n"
                                   "rank 0: Block size=32KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref06_header_0[] = "HDF5 Library: Version 1.10.8\n"
                                     "rank 1: ==== Parameters ====\n"
                                     "rank 1: IO API=phdf5 \n"
                                     "rank 1: Number of files=1\n"
                                     "rank 1: Number of datasets=1\n"
                                     "rank 1: Number of iterations=2\n"
                                     "rank 1: Number of processes=2:2\n"
                                     "rank 1: Number of bytes per process per dataset=64KB\n"
                                     "rank 1: Size of dataset(s)=128KB:128KB\n"
                                     "rank 1: File size=128KB:128KB\n"
                                     "rank 1: Transfer buffer size=32KB:32KB\n"
                                     "rank 1: Block size=16KB\n"
                                     "rank 1: Block Pattern in Dataset=Contiguous\n"
                                     "rank 1: I/O Method for MPI and HDF5=Independent\n"
                                     "rank 1: Geometry=1D\n"
                                     "rank 1: VFL used for HDF5 I/O=MPI-IO driver\n"
                                     "rank 1: Data storage method in HDF5=Contiguous\n"
                                     "rank 1: Env HDF5_PARAPREFIX=not set\n"
                                     "rank 1: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                     "object is MPI_INFO_NULL\n"
                                     "rank 1: ==== End of Parameters ====\n"
                                     "\n";

static const char ref06_header_1[] = "HDF5 Library: Version 1.10.8\n"
                                     "rank 0: ==== Parameters ====\n"
                                     "rank 0: IO API=phdf5 \n"
                                     "rank 0: Number of files=1\n"
                                     "rank 0: Number of datasets=1\n"
                                     "rank 0: Number of iterations=2\n"
                                     "rank 0: Number of processes=2:2\n"
                                     "rank 0: Number of bytes per process per dataset=64KB\n"
                                     "rank 0: Size of dataset(s)=128KB:128KB\n"
                                     "rank 0: File size=128KB:128KB\n"
                                     "rank 0: Transfer buffer size=32KB:32KB\n"
                                     "rank 0: Block size=16KB\n"
                                     "rank 0: Block Pattern in Dataset=Contiguous\n"
                                     "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                     "rank 0: Geometry=1D\n"
                                     "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                     "rank 0: Data storage method in HDF5=Contiguous\n"
                                     "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                     "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                     "object is MPI_INFO_NULL\n"
                                     "rank 0: ==== End of Parameters ====\n"
                                     "\n";

static const char ref07_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=3:3\n"
                                   "rank 0: Number of bytes per process per dataset=48:48\n"
                                   "rank 0: Size of dataset(s)=12x12:12x12\n"
                                   "rank 0: File size=144:144\n"
                                   "rank 0: Transfer buffer size=2x12:2x12\n"
                                   "rank 0: Block size=2x2\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=2D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref08_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=3:3\n"
                                   "rank 0: Number of bytes per process per dataset=48:48\n"
                                   "rank 0: Size of dataset(s)=12x12:12x12\n"
                                   "rank 0: File size=144:144\n"
                                   "rank 0: Transfer buffer size=12x2:12x2\n"
                                   "rank 0: Block size=2x2\n"
                                   "rank 0: Block Pattern in Dataset=Interleaved\n"
                                   "rank 0: I/O Method for MPI and HDF5=Collective\n"
                                   "rank 0: Geometry=2D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref09_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=2:2\n"
                                   "rank 0: Number of bytes per process per dataset=32:32\n"
                                   "rank 0: Size of dataset(s)=8x8:8x8\n"
                                   "rank 0: File size=64:64\n"
                                   "rank 0: Transfer buffer size=4x4:4x4\n"
                                   "rank 0: Block size=4x4\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=2D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Chunked\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref10_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=64KB\n"
                                   "rank 0: Size of dataset(s)=64KB:128KB\n"
                                   "rank 0: File size=64KB:128KB\n"
                                   "rank 0: Transfer buffer size=32KB:64KB\n"
                                   "rank 0: Block size=32KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Chunked\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

/* ---- results model ------------------------------------------------------ */

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

/* SPEC 6.2: statistics of the per-iteration maximum; the average throughput
 * is that of the mean time (1 MB over a mean of 1 s: 1.00, where the mean of
 * the throughputs 4, 2 and 0.44 would be 2.15). */
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

/* ---- text_size, text_api, text_nprocs ----------------------------------- */

static void test_text_size(void)
{
    static const struct {
        int64_t v;
        const char *text;
    } cases[] = {
        {0, "0"},
        {1, "1"},
        {48, "48"},
        {1023, "1023"},
        {1024, "1KB"},
        {1536, "1536"},
        {2048, "2KB"},
        {8000, "8000"},
        {24000, "24000"},
        {256 * KB, "256KB"},
        {1536 * KB, "1536KB"},
        {MB, "1MB"},
        {MB + KB, "1025KB"},
        {1536 * MB, "1536MB"},
        {3072 * MB, "3GB"},
        {3073 * MB, "3073MB"},
        {GB, "1GB"},
        {1024 * GB, "1024GB"},
        {-1024, "-1024"},
        {-MB, "-1048576"},
        {INT64_MAX, "9223372036854775807"},
    };
    char buf[32];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        text_size(buf, sizeof(buf), cases[i].v);
        CHECK_STR(buf, cases[i].text);
    }
    text_size(buf, 4, 256 * KB); /* truncated, still terminated */
    CHECK_STR(buf, "256");
}

static void test_text_api(void)
{
    struct capture c;
    FILE *f = cap_open(&c);

    text_nprocs(f, 2);
    text_nprocs(f, 64);
    text_api(f, API_POSIX);
    text_api(f, API_MPIIO);
    text_api(f, API_PHDF5);
    check_lines("text_api", cap_text(&c),
                "Number of processors = 2\n"
                "Number of processors = 64\n"
                "        IO API = POSIX\n"
                "        IO API = MPIO\n"
                "        IO API = PHDF5 (w/MPI-IO driver)\n");
    free(c.buf);
    CHECK_STR(text_api_key(API_POSIX), "posix");
    CHECK_STR(text_api_key(API_MPIIO), "mpiio");
    CHECK_STR(text_api_key(API_PHDF5), "phdf5");
}

/* ---- the header ---------------------------------------------------------- */

/* The command lines of the reference outputs, as configurations. */
static void setup_01(struct config *c)
{
    (void)c;
}

static void setup_02(struct config *c) /* -A phdf5 -B 2000 -e 8000 -p 3 -P 3 -x 4000 -X 4000 -i 3 */
{
    c->apis = API_BIT(API_PHDF5);
    c->block = 2000;
    c->bytes = 8000;
    c->min_procs = c->max_procs = 3;
    c->xfer_min = c->xfer_max = 4000;
    c->iterations = 3;
}

static void setup_03(struct config *c) /* -A posix,mpiio -B 2K -e 64K -x 8K -X 32K -I -C -i 2 */
{
    c->apis = API_BIT(API_POSIX) | API_BIT(API_MPIIO);
    c->block = 2 * KB;
    c->bytes = 64 * KB;
    c->xfer_min = 8 * KB;
    c->xfer_max = 32 * KB;
    c->interleaved = true;
    c->collective = true;
    c->iterations = 2;
}

static void setup_04(struct config *c) /* -B 4K -e 64K -x 16K -X 64K -D t -F 2 -d 3 -A posix */
{
    c->apis = API_BIT(API_POSIX);
    c->block = 4 * KB;
    c->bytes = 64 * KB;
    c->xfer_min = 16 * KB;
    c->xfer_max = 64 * KB;
    c->debug_times = true;
    c->num_files = 2;
    c->num_dsets = 3;
}

static void setup_05(struct config *c) /* -w -D r -e 128K -B 32K -A mpiio */
{
    c->apis = API_BIT(API_MPIIO);
    c->write_only = true;
    c->debug_raw = true;
    c->bytes = 128 * KB;
    c->block = 32 * KB;
    c->xfer_min = 64 * KB;
    c->xfer_max = 128 * KB;
}

static void setup_06(struct config *c) /* -D 3 -e 64K -B 16K -x 32K -X 32K -i 2 -A phdf5 -p 2 */
{
    c->apis = API_BIT(API_PHDF5);
    c->debug_level = 3;
    c->bytes = 64 * KB;
    c->block = 16 * KB;
    c->xfer_min = c->xfer_max = 32 * KB;
    c->iterations = 2;
    c->min_procs = 2;
}

static void setup_07(struct config *c) /* -n 3 -B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g -D v */
{
    c->block = 2;
    c->bytes = 4;
    c->min_procs = c->max_procs = 3;
    c->xfer_min = c->xfer_max = 12;
    c->geometry_2d = true;
    c->debug_verify = true;
}

static void setup_08(struct config *c) /* 07 + -I -C -A phdf5 */
{
    setup_07(c);
    c->interleaved = true;
    c->collective = true;
    c->apis = API_BIT(API_PHDF5);
}

static void setup_09(struct config *c) /* -n 2 -B 4 -e 4 -p 2 -P 2 -x 4 -X 4 -g -c -D v */
{
    c->block = 4;
    c->bytes = 4;
    c->min_procs = c->max_procs = 2;
    c->xfer_min = c->xfer_max = 4;
    c->geometry_2d = true;
    c->chunk = true;
    c->debug_verify = true;
}

static void setup_10(struct config *c) /* -a 4K -T 1K -e 64K -A phdf5 -c */
{
    c->align = 4 * KB;
    c->threshold = KB;
    c->bytes = 64 * KB;
    c->block = c->xfer_min = 32 * KB;
    c->xfer_max = 64 * KB;
    c->apis = API_BIT(API_PHDF5);
    c->chunk = true;
}

static const struct header_case {
    const char *name;
    void (*setup)(struct config *c);
    int rank;
    const char *expected;
} header_cases[] = {
    {"header 01", setup_01, 0, ref01_header},      {"header 02", setup_02, 0, ref02_header},
    {"header 03", setup_03, 0, ref03_header},      {"header 04", setup_04, 0, ref04_header},
    {"header 05", setup_05, 0, ref05_header},      {"header 06 r1", setup_06, 1, ref06_header_0},
    {"header 06 r0", setup_06, 0, ref06_header_1}, {"header 07", setup_07, 0, ref07_header},
    {"header 08", setup_08, 0, ref08_header},      {"header 09", setup_09, 0, ref09_header},
    {"header 10", setup_10, 0, ref10_header},
};

static void test_header_references(void)
{
    for (size_t i = 0; i < sizeof(header_cases) / sizeof(header_cases[0]); i++) {
        const struct header_case *hc = &header_cases[i];
        struct config cfg = default_config();
        struct capture c;

        hc->setup(&cfg);
        text_header(cap_open(&c), &cfg, hc->rank, "1.10.8", 256);
        check_lines(hc->name, cap_text(&c), hc->expected);
        free(c.buf);
    }
}

/* Environment and options the references do not show: an info object with
 * items (a repeated key keeps its first place and takes its last value, as
 * MPI_Info_set does), a parameter prefix, chunking, a world rank above 0,
 * sizes in MB and GB, MPICH's MPI_MAX_INFO_VAL. */
static void test_header_environment(void)
{
    struct config cfg = default_config();
    struct capture c;

    cfg.apis = API_BIT(API_MPIIO) | API_BIT(API_PHDF5);
    cfg.bytes = 2 * GB;
    cfg.block = cfg.xfer_min = 1 * MB;
    cfg.xfer_max = 1 * GB;
    cfg.num_dsets = 3;
    cfg.min_procs = 4;
    cfg.max_procs = 4;
    cfg.chunk = true;
    cfg.paraprefix = "/scratch/run 1";
    cfg.info_defined = true;
    cfg.info_count = 3;
    cfg.info[0] = (struct info_entry){"romio_cb_write", "enable"};
    cfg.info[1] = (struct info_entry){"cb_nodes", "2"};
    cfg.info[2] = (struct info_entry){"romio_cb_write", "disable"};
    text_header(cap_open(&c), &cfg, 3, "1.14.3", 1024);
    check_lines("header env", cap_text(&c),
                "HDF5 Library: Version 1.14.3\n"
                "rank 3: ==== Parameters ====\n"
                "rank 3: IO API=mpiio phdf5 \n"
                "rank 3: Number of files=1\n"
                "rank 3: Number of datasets=3\n"
                "rank 3: Number of iterations=1\n"
                "rank 3: Number of processes=4:4\n"
                "rank 3: Number of bytes per process per dataset=2GB\n"
                "rank 3: Size of dataset(s)=8GB:8GB\n"
                "rank 3: File size=24GB:24GB\n"
                "rank 3: Transfer buffer size=1MB:1GB\n"
                "rank 3: Block size=1MB\n"
                "rank 3: Block Pattern in Dataset=Contiguous\n"
                "rank 3: I/O Method for MPI and HDF5=Independent\n"
                "rank 3: Geometry=1D\n"
                "rank 3: VFL used for HDF5 I/O=MPI-IO driver\n"
                "rank 3: Data storage method in HDF5=Chunked\n"
                "rank 3: Env HDF5_PARAPREFIX=/scratch/run 1\n"
                "rank 3: Dumping MPI Info Object (up to 1024 bytes per item):\n"
                "object has 2 items\n"
                "romio_cb_write=disable\n"
                "cb_nodes=2\n"
                "rank 3: ==== End of Parameters ====\n"
                "\n");
    free(c.buf);

    /* HDF5_MPI_INFO defined but empty (or only garbage): an empty object. */
    cfg.info_count = 0;
    cfg.paraprefix = "";
    text_header(cap_open(&c), &cfg, 0, "1.10.8", 256);
    cap_text(&c);
    CHECK(strstr(c.buf, "rank 0: Env HDF5_PARAPREFIX=\n"
                        "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                        "object has 0 items\n"
                        "rank 0: ==== End of Parameters ====\n\n") != NULL);
    free(c.buf);
}

/* 2D with the default -e of 8K on 2 processes: sizes render per component. */
static void test_header_2d_sizes(void)
{
    struct config cfg = default_config();
    struct capture c;

    cfg.geometry_2d = true;
    cfg.bytes = 8 * KB;
    cfg.block = cfg.xfer_min = 4 * KB;
    cfg.xfer_max = 16 * KB;
    cfg.interleaved = true;
    text_header(cap_open(&c), &cfg, 0, "1.10.8", 256);
    cap_text(&c);
    CHECK(strstr(c.buf, "rank 0: Number of bytes per process per dataset=64MB:128MB\n"
                        "rank 0: Size of dataset(s)=8KBx8KB:16KBx16KB\n"
                        "rank 0: File size=64MB:256MB\n"
                        "rank 0: Transfer buffer size=4KBx4KB:16KBx4KB\n"
                        "rank 0: Block size=4KBx4KB\n"
                        "rank 0: Block Pattern in Dataset=Interleaved\n") != NULL);
    free(c.buf);
}

/* ---- per transfer size ---------------------------------------------------- */

static void test_text_xfer(void)
{
    static const struct {
        void (*setup)(struct config *c);
        int nprocs;
        int64_t xfer;
        const char *expected;
    } cases[] = {
        {setup_01, 2, 131072,
         "Transfer Buffer Size: 131072 bytes, File size: 0.50 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.50 MB\n"},
        {setup_01, 1, 262144,
         "Transfer Buffer Size: 262144 bytes, File size: 0.25 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.25 MB\n"},
        {setup_02, 3, 4000,
         "Transfer Buffer Size: 4000 bytes, File size: 0.02 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.02 MB\n"},
        {setup_03, 1, 32768,
         "Transfer Buffer Size: 32768 bytes, File size: 0.06 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.06 MB\n"},
        {setup_04, 2, 16384, /* File size = D*N, not F*D*N */
         "Transfer Buffer Size: 16384 bytes, File size: 0.38 MB\n"
         "      # of files: 2, # of datasets: 3, dataset size: 0.12 MB\n"},
        {setup_04, 1, 65536,
         "Transfer Buffer Size: 65536 bytes, File size: 0.19 MB\n"
         "      # of files: 2, # of datasets: 3, dataset size: 0.06 MB\n"},
        {setup_07, 3, 12,
         "Transfer Buffer Size: 2x12 bytes, File size: 0.00 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.01x0.01 KB\n"},
        {setup_08, 3, 12,
         "Transfer Buffer Size: 12x2 bytes, File size: 0.00 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.01x0.01 KB\n"},
        {setup_09, 2, 4,
         "Transfer Buffer Size: 4x4 bytes, File size: 0.00 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.01x0.01 KB\n"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct config cfg = default_config();
        struct capture c;
        char what[32];

        cases[i].setup(&cfg);
        text_xfer(cap_open(&c), &cfg, cases[i].nprocs, cases[i].xfer);
        snprintf(what, sizeof(what), "text_xfer %zu", i);
        check_lines(what, cap_text(&c), cases[i].expected);
        free(c.buf);
    }

    /* 2D, -e 8K -d 2 on 2 processes: S = 16K, N = S*S = 256 MB per dataset. */
    struct config cfg = default_config();
    struct capture c;
    cfg.geometry_2d = true;
    cfg.bytes = 8 * KB;
    cfg.block = 4 * KB;
    cfg.num_dsets = 2;
    text_xfer(cap_open(&c), &cfg, 2, 8192);
    check_lines("text_xfer 2D", cap_text(&c),
                "Transfer Buffer Size: 4096x8192 bytes, File size: 512.00 MB\n"
                "      # of files: 1, # of datasets: 2, dataset size: 16.00x16.00 KB\n");
    free(c.buf);
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

/* -D 3 (reference 06 without the MPI Write/Read details, SPEC 0). */
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

/* Every option at once: -D 3 -D r -D t; the order of SPEC 7.3. */
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
    test_results_status();
    test_results_summary();
    test_text_size();
    test_text_api();
    test_header_references();
    test_header_environment();
    test_header_2d_sizes();
    test_text_xfer();
    test_results_default();
    test_results_iterations();
    test_results_times();
    test_results_raw_write_only();
    test_results_details_06();
    test_results_all_blocks();
    test_results_failed();
    return check_done("test_report");
}
