/* Fixtures shared by the text-report unit tests (test_report_header.c,
 * test_report_blocks.c): an in-memory report stream, a line-by-line compare
 * and the configurations of reference outputs 04-06. Static functions only,
 * included by each test program. No MPI. */
#ifndef H5PERF_REPORT_FIXTURES_H
#define H5PERF_REPORT_FIXTURES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/cli.h"
#include "pattern/guide_options.h"
#include "pattern/pattern.h"
#include "report/text.h"

#define KB       INT64_C(1024)
#define MB       (KB * KB)
#define GB       (MB * KB)
#define ALL_APIS (API_BIT(API_POSIX) | API_BIT(API_MPIIO) | API_BIT(API_PHDF5))

/* The settings the writers show for cfg (cli/report_settings.c), in one
 * buffer each call overwrites. */
static const struct report_settings *settings_of(const struct config *cfg)
{
    static struct report_settings rs;
    config_report_settings(cfg, &rs);
    return &rs;
}

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
 * (reference 01), after the defaults of docs/original.md §1.6. */
static struct config default_config(void)
{
    struct config c;

    memset(&c, 0, sizeof(c));
    c.apis = ALL_APIS;
    c.align = 1;
    c.threshold = 1;
    guide_edit(&c)->bytes = 256 * KB;
    guide_edit(&c)->block = 128 * KB;
    guide_edit(&c)->xfer_min = 128 * KB;
    guide_edit(&c)->xfer_max = 256 * KB;
    guide_edit(&c)->num_dsets = 1;
    guide_edit(&c)->num_files = 1;
    c.iterations = 1;
    c.min_procs = 1;
    c.max_procs = 2;
    return c;
}

static void setup_04(struct config *c) /* -B 4K -e 64K -x 16K -X 64K -D t -F 2 -d 3 -A posix */
{
    c->apis = API_BIT(API_POSIX);
    guide_edit(c)->block = 4 * KB;
    guide_edit(c)->bytes = 64 * KB;
    guide_edit(c)->xfer_min = 16 * KB;
    guide_edit(c)->xfer_max = 64 * KB;
    c->debug_times = true;
    guide_edit(c)->num_files = 2;
    guide_edit(c)->num_dsets = 3;
}

static void setup_05(struct config *c) /* -w -D r -e 128K -B 32K -A mpiio */
{
    c->apis = API_BIT(API_MPIIO);
    c->write_only = true;
    c->debug_raw = true;
    guide_edit(c)->bytes = 128 * KB;
    guide_edit(c)->block = 32 * KB;
    guide_edit(c)->xfer_min = 64 * KB;
    guide_edit(c)->xfer_max = 128 * KB;
}

static void setup_06(struct config *c) /* -D 3 -e 64K -B 16K -x 32K -X 32K -i 2 -A phdf5 -p 2 */
{
    c->apis = API_BIT(API_PHDF5);
    c->debug_level = 3;
    guide_edit(c)->bytes = 64 * KB;
    guide_edit(c)->block = 16 * KB;
    guide_edit(c)->xfer_min = guide_edit(c)->xfer_max = 32 * KB;
    c->iterations = 2;
    c->min_procs = 2;
}

#endif
