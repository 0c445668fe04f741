/* Unit tests of the machine-readable writers: the JSON emitter's escaping
 * (control characters, invalid UTF-8), exact JSON and CSV text for a small
 * results log with an I/O error and a verification failure, the median and
 * the statuses of samples. No MPI. */
#include <stdlib.h>

#include "check.h"
#include "cli/cli.h"
#include "report/csv.h"
#include "pattern/pattern.h"
#include "report/json.h"
#include "base/jsonw.h"
#include "options/options.h"
#include "pattern/guide_options.h"

/* An in-memory stream; the text is c.buf after cap_text(). */
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

static void cap_text(struct capture *c)
{
    fclose(c->f);
    c->f = NULL;
}

static char *escape(const char *s)
{
    struct capture c;
    jsonw_escape(cap_open(&c), s);
    cap_text(&c);
    return c.buf;
}

static void test_escape(void)
{
    char *e = escape("a\"b\\c\nd\x01\x7f");
    CHECK_STR(e, "a\\\"b\\\\c\\u000ad\\u0001\\u007f");
    free(e);
    /* é and € stay; a lone continuation byte, a truncated sequence, an
     * overlong form and a surrogate each become U+FFFD. */
    e = escape("\xc3\xa9\xe2\x82\xac|\x80|\xe2\x82|\xc0\xaf|\xed\xa0\x80");
    CHECK_STR(e,
              "\xc3\xa9\xe2\x82\xac|\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd");
    free(e);
}

/* A log of two runs: POSIX with 3 iterations (the second fails
 * verification), MPI-IO failing with an I/O error in its first. */
static void make_log(struct results_log *log)
{
    struct api_result r;
    results_log_init(log);
    CHECK(results_init(&r, API_POSIX, 2, 1024, 4096, 3) == 0);
    double slow[3] = {0.5, 0.25, 1.0};
    for (int i = 0; i < 3; i++) {
        struct iter_result *it = results_next_iteration(&r);
        for (int t = 0; t < TIMER_COUNT; t++)
            it->t[t] = (struct timer_stat){slow[i] / 2, slow[i], slow[i] * 1.5};
        it->status = i == 1 ? RUN_VERIFY_FAILED : RUN_OK;
    }
    CHECK(results_log_add(log, &r) == 0);
    CHECK(results_init(&r, API_MPIIO, 2, 1024, 4096, 3) == 0);
    results_next_iteration(&r)->status = RUN_IO_ERROR;
    r.errors = strdup("h5perf: rank 1: MPI-IO write 'f, \"g\"': Input/output error\n");
    CHECK(results_log_add(log, &r) == 0);
    CHECK(r.it == NULL && r.errors == NULL);
}

static void test_summary(const struct results_log *log)
{
    struct timer_summary s;
    const struct api_result *p = &log->runs[0];
    results_summarize(p, TIMER_WRITE_FINE, &s);
    CHECK_I64(s.n, 3);
    CHECK(s.t_min == 0.25 && s.t_max == 1.0 && s.t_med == 0.5);
    CHECK(s.mbs_med == 4096.0 / 1048576.0 / 0.5);
    /* The verification failure of iteration 2 spoils the reads only. */
    results_summarize(p, TIMER_READ_FINE, &s);
    CHECK_I64(s.n, 2);
    CHECK(s.t_med == 0.75 && s.t_min == 0.5);
    CHECK(results_sample_status(p, 1, TIMER_WRITE_GROSS) == RUN_OK);
    CHECK(results_sample_status(p, 1, TIMER_READ_GROSS) == RUN_VERIFY_FAILED);
    CHECK(results_measure_status(p, TIMER_WRITE_FINE) == RUN_OK);
    CHECK(results_measure_status(p, TIMER_READ_FINE) == RUN_VERIFY_FAILED);
    CHECK(results_measure_status(&log->runs[1], TIMER_WRITE_FINE) == RUN_IO_ERROR);
}

static void test_csv(const struct config *cfg, const struct results_log *log)
{
    struct capture c;
    log->runs[1].buf_offset = 8; /* --buffer-offset 8: the last column */
    struct report_settings rs;
    config_report_settings(cfg, &rs);
    CHECK(csv_write(cap_open(&c), &rs, log) == 0);
    cap_text(&c);
    const char *want = CSV_HEADER
        "\n"
        "2,1024,posix,write,1,ok,4096,0.5,0.25,0.375,0.5,,,,,,0\n"
        "2,1024,posix,write,2,ok,4096,0.25,0.125,0.1875,0.5,,,,,,0\n"
        "2,1024,posix,write,3,ok,4096,1,0.5,0.75,0.5,,,,,,0\n"
        "2,1024,posix,write_open_close,1,ok,4096,0.5,0.25,0.375,0.5,,,,,,0\n"
        "2,1024,posix,write_open_close,2,ok,4096,0.25,0.125,0.1875,0.5,,,,,,0\n"
        "2,1024,posix,write_open_close,3,ok,4096,1,0.5,0.75,0.5,,,,,,0\n"
        "2,1024,posix,read,1,ok,4096,0.5,0.25,0.375,,,,,,,0\n"
        "2,1024,posix,read,2,verify_failed,4096,,,,,data verification failed (see stderr),,,,,0\n"
        "2,1024,posix,read,3,ok,4096,1,0.5,0.75,,,,,,,0\n"
        "2,1024,posix,read_open_close,1,ok,4096,0.5,0.25,0.375,,,,,,,0\n"
        "2,1024,posix,read_open_close,2,verify_failed,4096,,,,,data verification failed (see "
        "stderr),,,,,0\n"
        "2,1024,posix,read_open_close,3,ok,4096,1,0.5,0.75,,,,,,,0\n"
        "2,1024,mpiio,write,1,io_error,4096,,,,,\"h5perf: rank 1: MPI-IO write 'f, \"\"g\"\"': "
        "Input/output error\",,,,,8\n"
        "2,1024,mpiio,write_open_close,1,io_error,4096,,,,,\"h5perf: rank 1: MPI-IO write 'f, "
        "\"\"g\"\"': Input/output error\",,,,,8\n"
        "2,1024,mpiio,read,1,io_error,4096,,,,,\"h5perf: rank 1: MPI-IO write 'f, \"\"g\"\"': "
        "Input/output error\",,,,,8\n"
        "2,1024,mpiio,read_open_close,1,io_error,4096,,,,,\"h5perf: rank 1: MPI-IO write 'f, "
        "\"\"g\"\"': Input/output error\",,,,,8\n";
    CHECK_STR(c.buf, want);
    free(c.buf);
}

/* Selected exact fragments of the JSON (the whole document is validated
 * against the schema by the MPI cases). */
static void test_json(const struct config *cfg, const struct results_log *log)
{
    struct run_context ctx;
    memset(&ctx, 0, sizeof ctx);
    snprintf(ctx.version, sizeof ctx.version, "0.1.0");
    ctx.host_names = "n1\nn2\n";
    char *argv[] = {"h5perf", "-e", "4K"};
    ctx.argc = 3;
    ctx.argv = argv;
    ctx.exit_status = 1;
    struct capture c;
    struct report_settings rs;
    struct json_parts parts;
    config_report_settings(cfg, &rs);
    config_json_parts(cfg, &parts);
    CHECK(json_write(cap_open(&c), &rs, &parts, &ctx, log) == 0);
    cap_text(&c);
    const char *head = "{\n  \"schema\": \"h5perf-results\",\n  \"schema_version\": 3,\n"
                       "  \"status\": \"io_error\",\n  \"exit_status\": 1,\n";
    CHECK(strncmp(c.buf, head, strlen(head)) == 0);
    if (getenv("DUMP"))
        fputs(c.buf, stdout);
    CHECK(strstr(c.buf, "\"host_names\": [\n      \"n1\",\n      \"n2\"\n    ],") != NULL);
    CHECK(strstr(c.buf, "\"command_line\": [\n      \"h5perf\",\n      \"-e\",\n      \"4K\"\n"
                        "    ]") != NULL);
    CHECK(strstr(c.buf, "\"errors\": [\n        \"h5perf: rank 1: MPI-IO write 'f, \\\"g\\\"': "
                        "Input/output error\"\n      ],") != NULL);
    CHECK(strstr(c.buf, "\"seconds\": {\n              \"min\": 0.25,\n              "
                        "\"mean\": 0.5833333333333334,\n              \"median\": 0.5,\n") != NULL);
    CHECK(strstr(c.buf, "\"status\": \"verify_failed\",\n              \"bytes\": 4096,\n"
                        "              \"seconds\": null\n") != NULL);
    CHECK(strstr(c.buf, "\"measure\": \"read\",\n          \"status\": \"verify_failed\",") !=
          NULL);
    /* Version 3: every summary's interval (null below 6 iterations) and
     * every run's latency (no call recorded here). */
    CHECK(strstr(c.buf, "\"median_interval\": null\n") != NULL);
    CHECK(strstr(c.buf, "\"latency\": {\n        \"write\": {\n          \"open\": {\n"
                        "            \"calls\": 0,\n            \"seconds\": null,\n"
                        "            \"histogram\": []\n") != NULL);
    CHECK(c.len > 0 && c.buf[c.len - 1] == '\n' && c.buf[c.len - 2] == '}');
    free(c.buf);
}

/* Numbers in the shortest text that reads back as the same double (%.17g
 * wrote 0.000587783 as 0.00058778300000000003). */
static void test_shortest(void)
{
    static const struct {
        double v;
        const char *text;
    } cases[] = {{0.000587783, "0.000587783"},
                 {0.1, "0.1"},
                 {0.25, "0.25"},
                 {1.0 / 3.0, "0.3333333333333333"},
                 {7.0 / 12.0, "0.5833333333333334"},
                 {1e-9, "1e-09"},
                 {123456789.0, "123456789"},
                 {0.0, "0"},
                 {2.5e-310, "2.5e-310"}};
    char buf[32];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jsonw_shortest(buf, sizeof buf, cases[i].v);
        CHECK_STR(buf, cases[i].text);
        CHECK(strtod(buf, NULL) == cases[i].v);
    }
}

int main(void)
{
    struct config cfg;
    struct results_log log;
    config_init(&cfg);
    cfg.apis = API_BIT(API_POSIX) | API_BIT(API_MPIIO);
    guide_edit(&cfg)->bytes = guide_edit(&cfg)->xfer_min = guide_edit(&cfg)->xfer_max = 1024;
    guide_edit(&cfg)->block = 512;
    guide_edit(&cfg)->num_dsets = guide_edit(&cfg)->num_files = cfg.iterations = cfg.min_procs =
        cfg.max_procs = 1;
    cfg.align = cfg.threshold = 1;
    cfg.watchdog = 120;
    test_escape();
    test_shortest();
    make_log(&log);
    test_summary(&log);
    test_csv(&cfg, &log);
    test_json(&cfg, &log);
    results_log_release(&log);
    return check_done("report_writers");
}
