/* Unit tests of the command-line module (src/cli): option parsing, the
 * environment, defaults and warnings, and validation of the sweep, each
 * message line checked exactly. Table-driven; no MPI. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "api/hdf5_options.h"
#include "check.h"
#include "cli/cli.h"
#include "options/help.h"
#include "cli/option.h"
#include "pattern/guide_options.h"
#include "pattern/pattern.h"
#include "plan/point.h"
#include "session/session.h"
#include "options/options.h"

#define MAX_ARGS 16
#define OK       NULL /* "no error expected" in the tables */

/* ---- helpers ---- */

/* Runs opt_parse on "h5perf" followed by args (NULL-terminated). */
static int parse(const char *const *args, struct config *cfg, struct cli_msg *msg)
{
    const char *argv[MAX_ARGS + 2];
    int argc = 0;

    argv[argc++] = "h5perf";
    while (args[argc - 1] != NULL && argc <= MAX_ARGS) {
        argv[argc] = args[argc - 1];
        argc++;
    }
    argv[argc] = NULL;
    config_init(cfg);
    return opt_parse(argc, (char *const *)argv, cfg, msg);
}

static void cat(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* The fields that differ from config_init(), in a fixed order. */
static void summary(const struct config *c, char *buf, size_t len)
{
    const struct guide_settings *g = guide_of(c);
    buf[0] = '\0';
    if (c->apis)
        cat(buf, len, " apis=%u", c->apis);
    if (c->align)
        cat(buf, len, " a=%" PRId64, c->align);
    if (c->threshold)
        cat(buf, len, " T=%" PRId64, c->threshold);
    if (g->bytes)
        cat(buf, len, " e=%" PRId64, g->bytes);
    if (g->block)
        cat(buf, len, " B=%" PRId64, g->block);
    if (g->xfer_min)
        cat(buf, len, " x=%" PRId64, g->xfer_min);
    if (g->xfer_max)
        cat(buf, len, " X=%" PRId64, g->xfer_max);
    if (g->num_dsets)
        cat(buf, len, " d=%d", g->num_dsets);
    if (g->num_files)
        cat(buf, len, " F=%d", g->num_files);
    if (c->iterations)
        cat(buf, len, " i=%d", c->iterations);
    if (c->min_procs)
        cat(buf, len, " p=%d", c->min_procs);
    if (c->max_procs)
        cat(buf, len, " P=%d", c->max_procs);
    if (c->watchdog)
        cat(buf, len, " wd=%d", c->watchdog);
    cat(buf, len, "%s%s%s%s%s%s%s", g->chunk ? " c" : "", c->collective ? " C" : "",
        g->geometry_2d ? " g" : "", g->interleaved ? " I" : "", c->write_only ? " w" : "",
        c->overwrite ? " overwrite" : "", c->help ? " help" : "");
    if (c->debug_level)
        cat(buf, len, " D=%d", c->debug_level);
    cat(buf, len, "%s%s%s", c->debug_raw ? " Dr" : "", c->debug_times ? " Dt" : "",
        c->debug_verify ? " Dv" : "");
    if (c->output)
        cat(buf, len, " o=%s", c->output);
    if (buf[0] == ' ')
        memmove(buf, buf + 1, strlen(buf));
}

#define A(...)                                                                                     \
    {                                                                                              \
        __VA_ARGS__, NULL                                                                          \
    }

/* ---- opt_parse: accepted command lines ---- */

struct parse_ok_case {
    const char *args[MAX_ARGS + 1];
    const char *want; /* summary() after parsing */
};

static const struct parse_ok_case parse_ok_cases[] = {
    {{NULL}, ""},
    /* every option, short and long, value attached or separate */
    {A("-h"), "help"},
    {A("--help"), "help"},
    {A("-a", "4K"), "a=4096"},
    {A("-a4K"), "a=4096"},
    {A("--align=4K"), "a=4096"},
    {A("--align", "4K"), "a=4096"},
    {A("-A", "posix"), "apis=1"},
    {A("-Ampiio"), "apis=2"},
    {A("--api=PHDF5"), "apis=4"},
#ifdef H5PERF_HAVE_PNETCDF
    {A("-A", "PnetCDF,mpiio"), "apis=10"},
#endif
    {A("--api", "Posix,phdf5"), "apis=5"},
    {A("-A", "mpiio,POSIX,phdf5"), "apis=7"},
    {A("-B", "32K"), "B=32768"},
    {A("-B32KB"), "B=32768"},
    {A("--block-size=32k"), "B=32768"},
    {A("--block-size", "512b"), "B=512"},
    {A("-c"), "c"},
    {A("--chunk"), "c"},
    {A("-C"), "C"},
    {A("--collective"), "C"},
    {A("-d", "3"), "d=3"},
    {A("-d3"), "d=3"},
    {A("--num-dsets=3"), "d=3"},
    {A("--num-dsets", "3"), "d=3"},
    {A("-D", "2"), "D=2"},
    {A("-Dr"), "Dr"},
    {A("--debug=t"), "Dt"},
    {A("--debug", "v"), "Dv"},
    {A("-D", "r,T,V"), "Dr Dt Dv"},
    {A("-D", "3,R"), "D=3 Dr"},
    {A("-D", "0"), ""},
    {A("-D", "007"), "D=7"},
    {A("-D", "9"), "D=9"},
    {A("-D", "99999999999999999999"), "D=1000"},
    {A("-e", "8"), "e=8"},
    {A("-e1m"), "e=1048576"},
    {A("--num-bytes=2G"), "e=2147483648"},
    {A("--num-bytes", "256KB"), "e=262144"},
    {A("-F", "2"), "F=2"},
    {A("--num-files=2"), "F=2"},
    {A("--num-files", "2"), "F=2"},
    {A("-i", "4"), "i=4"},
    {A("--num-iterations=4"), "i=4"},
    {A("--num-iterations", "4"), "i=4"},
    {A("-I"), "I"},
    {A("--interleaved"), "I"},
    {A("-o", "report.txt"), "o=report.txt"},
    {A("-oreport.txt"), "o=report.txt"},
    {A("--output=report.txt"), "o=report.txt"},
    {A("--output", "report.txt"), "o=report.txt"},
    {A("-p", "2"), "p=2"},
    {A("--min-num-processes=2"), "p=2"},
    {A("--min-num-processes", "2"), "p=2"},
    {A("-P", "4"), "P=4"},
    {A("--max-num-processes=4"), "P=4"},
    {A("--max-num-processes", "4"), "P=4"},
    {A("-T", "1K"), "T=1024"},
    {A("--threshold=1K"), "T=1024"},
    {A("--threshold", "1K"), "T=1024"},
    {A("-w"), "w"},
    {A("--write-only"), "w"},
    {A("-x", "4K"), "x=4096"},
    {A("--min-xfer-size=4K"), "x=4096"},
    {A("--min-xfer-size", "4K"), "x=4096"},
    {A("-X", "8K"), "X=8192"},
    {A("--max-xfer-size=8K"), "X=8192"},
    {A("--max-xfer-size", "8K"), "X=8192"},
    {A("--overwrite"), "overwrite"},
    {A("--watchdog=30"), "wd=30"},
    {A("--watchdog", "5"), "wd=5"},
    /* combined flags and attached values */
    {A("-wIc"), "c I w"},
    {A("-wIe8"), "e=8 I w"},
    {A("-wIe", "8"), "e=8 I w"},
    {A("-CAposix"), "apis=1 C"},
    {A("-cCIw", "--overwrite"), "c C I w overwrite"},
    /* a value is the next token whatever it looks like */
    {A("-o", "-C"), "o=-C"},
    {A("--output", "-w"), "o=-w"},
    {A("--output=--help"), "o=--help"},
    {A("-o", "-h"), "o=-h"},
    /* flags never swallow a value */
    {A("--interleaved", "-w"), "I w"},
    {A("--write-only", "-e", "8"), "e=8 w"},
    /* repetition: last wins; -A and -D accumulate */
    {A("-e", "8", "-e", "16"), "e=16"},
    {A("-x", "4", "--min-xfer-size=8"), "x=8"},
    {A("-o", "a", "-o", "b"), "o=b"},
    {A("-A", "posix", "-A", "mpiio"), "apis=3"},
    {A("-A", "posix", "--api=posix"), "apis=1"},
    {A("-D", "2", "-D", "1"), "D=1"},
    {A("-D", "2,r", "-D", "t"), "D=2 Dr Dt"},
    {A("-D", "3", "-D", "0,v"), "Dv"},
    /* "--" ends the options */
    {A("-w", "--"), "w"},
    /* -h wins over everything, wherever it is */
    {A("-e", "8", "-h"), "e=8 help"},
    {A("-Q", "-h"), "help"},
    {A("-e", "10Q", "--help"), "help"},
    {A("extra", "-h"), "help"},
    {A("-wh"), "w help"},
    {A("-g", "-h"), "g help"},
    /* 2D geometry */
    {A("-g"), "g"},
    {A("-wgI"), "g I w"},
    {A("--geometry"), "g"},
};

static void test_parse_ok(void)
{
    char buf[512];

    for (size_t i = 0; i < sizeof parse_ok_cases / sizeof parse_ok_cases[0]; i++) {
        const struct parse_ok_case *c = &parse_ok_cases[i];
        struct config cfg;
        struct cli_msg msg;
        int rc = parse(c->args, &cfg, &msg);
        if (rc != 0)
            fprintf(stderr, "case %zu (%s): %s\n", i, c->args[0], msg.line);
        CHECK_I64(rc, 0);
        summary(&cfg, buf, sizeof buf);
        CHECK_STR(buf, c->want);
    }
}

/* ---- opt_parse: spelled and raw ---- */

struct spelled_case {
    const char *args[MAX_ARGS + 1];
    enum opt_id id;
    const struct opt_row *row; /* a pattern's own row (no id), else NULL */
    const char *spelled, *raw;
};

static const struct spelled_case spelled_cases[] = {
    {A("-B", "32K"), 0, &guide_block_row, "-B", "32K"},
    {A("-B32K"), 0, &guide_block_row, "-B", "32K"},
    {A("--block-size=32K"), 0, &guide_block_row, "--block-size", "32K"},
    {A("--block-size", "64K"), 0, &guide_block_row, "--block-size", "64K"},
    {A("-e", "8", "--num-bytes=16"), 0, &guide_bytes_row, "--num-bytes", "16"},
    {A("--num-bytes=16", "-e", "8"), 0, &guide_bytes_row, "-e", "8"},
    {A("-wIe8"), 0, &guide_bytes_row, "-e", "8"},
    {A("-A", "posix", "-A", "mpiio"), OPT_API, NULL, "-A", "mpiio"},
    {A("-D", "9,r"), OPT_DEBUG, NULL, "-D", "9,r"},
    {A("-o", "-C"), OPT_OUTPUT, NULL, "-o", "-C"},
    {A("-P", "4"), OPT_MAX_PROCS, NULL, "-P", "4"},
    {A("--max-num-processes", "4"), OPT_MAX_PROCS, NULL, "--max-num-processes", "4"},
    {A("-w"), OPT_WRITE_ONLY, NULL, "-w", NULL},
    {A("--write-only"), OPT_WRITE_ONLY, NULL, "--write-only", NULL},
    {A("-wI"), 0, &guide_interleaved_row, "-I", NULL},
    {A("--overwrite"), OPT_OVERWRITE, NULL, "--overwrite", NULL},
    {A("-h"), OPT_HELP, NULL, "-h", NULL},
    {A("-w"), 0, &guide_bytes_row, NULL, NULL},
};

static void test_parse_spelled(void)
{
    for (size_t i = 0; i < sizeof spelled_cases / sizeof spelled_cases[0]; i++) {
        const struct spelled_case *c = &spelled_cases[i];
        struct config cfg;
        struct cli_msg msg;
        CHECK_I64(parse(c->args, &cfg, &msg), 0);
        const char *spelled = c->row ? opt_spelled(&cfg, c->row) : cfg.spelled[c->id];
        const char *raw = c->row ? opt_raw(&cfg, c->row) : cfg.raw[c->id];
        CHECK_STR(spelled ? spelled : "(null)", c->spelled ? c->spelled : "(null)");
        CHECK_STR(raw ? raw : "(null)", c->raw ? c->raw : "(null)");
    }
}

/* ---- opt_parse: refused command lines, exact messages ---- */

#define SIZE_SYNTAX_TAIL                                                                           \
    "expected a size: digits with an optional K, M or G and an optional B, e.g. 512, 64K, 1MB"
#define COUNT_TAIL "expected a whole number from 1 to 2147483647"
#define API_TAIL   "expected a comma-separated list of posix, mpiio, phdf5, pnetcdf"
#define DEBUG_TAIL "expected a level 0-4 or the flags r, t, v, comma-separated"

struct parse_err_case {
    const char *args[MAX_ARGS + 1];
    const char *msg;
};

static const struct parse_err_case parse_err_cases[] = {
    /* unknown options, short and long; long names must match exactly */
    {A("-Q"), "h5perf: unknown option '-Q'"},
    {A("-wQ"), "h5perf: unknown option '-Q'"},
    {A("-n"), "h5perf: unknown option '-n'"},
    {A("--ap=posix"), "h5perf: unknown option '--ap'"},
    {A("--API=posix"), "h5perf: unknown option '--API'"},
    {A("--num-byte", "8"), "h5perf: unknown option '--num-byte'"},
    {A("--num-bytes-x=8"), "h5perf: unknown option '--num-bytes-x'"},
    {A("---w"), "h5perf: unknown option '---w'"},
    {A("--=1"), "h5perf: unknown option '--'"},
    /* non-option words: h5perf takes no operands */
    {A("extra"), "h5perf: unexpected argument 'extra': h5perf takes options only"},
    {A("-w", "extra", "-C"), "h5perf: unexpected argument 'extra': h5perf takes options only"},
    {A("-"), "h5perf: unexpected argument '-': h5perf takes options only"},
    {A("--", "-w"), "h5perf: unexpected argument '-w': h5perf takes options only"},
    {A("--", "--"), "h5perf: unexpected argument '--': h5perf takes options only"},
    {A("--", "-h"), "h5perf: unexpected argument '-h': h5perf takes options only"},
    {A(""), "h5perf: unexpected argument '': h5perf takes options only"},
    /* flags take no value */
    {A("--chunk=1"), "h5perf: --chunk '1': this option takes no value"},
    {A("--interleaved=yes"), "h5perf: --interleaved 'yes': this option takes no value"},
    {A("--write-only="), "h5perf: --write-only '': this option takes no value"},
    {A("--overwrite=1"), "h5perf: --overwrite '1': this option takes no value"},
    {A("--help=1"), "h5perf: --help '1': this option takes no value"},
    /* refused options */
    {A("-m"), "h5perf: -m: the MPI-POSIX driver no longer exists in HDF5 (removed in 1.8.13); use "
              "-A mpiio or -A phdf5"},
    {A("--mpi-posix"), "h5perf: --mpi-posix: the MPI-POSIX driver no longer exists in HDF5 "
                       "(removed in 1.8.13); use -A mpiio or -A phdf5"},
    {A("--watchdog=0"), "h5perf: --watchdog '0': expected a whole number from 1 to 2147483647"},
    /* control characters of the input never split a message line */
    {A("-e", "8\nK"), "h5perf: -e '8?K': expected a size: digits with an optional K, M or G and "
                      "an optional B, e.g. 512, 64K, 1MB"},
    {A("--watchdog"), "h5perf: option '--watchdog' expects a whole number"},
    /* -A */
    {A("-A", "hdf5"), "h5perf: -A 'hdf5': unknown API 'hdf5'; " API_TAIL},
    {A("-A", "posix,bogus"), "h5perf: -A 'posix,bogus': unknown API 'bogus'; " API_TAIL},
    {A("-A", "posix, mpiio"), "h5perf: -A 'posix, mpiio': unknown API ' mpiio'; " API_TAIL},
    {A("--api=posix,,mpiio"), "h5perf: --api 'posix,,mpiio': empty API name; " API_TAIL},
    {A("-A", "posix,"), "h5perf: -A 'posix,': empty API name; " API_TAIL},
    {A("-A", ""), "h5perf: -A '': empty API name; " API_TAIL},
    {A("--api="), "h5perf: --api '': empty API name; " API_TAIL},
#ifndef H5PERF_HAVE_PNETCDF
    /* PnetCDF is known in every build, refused in one without it */
    {A("-A", "mpiio,PnetCDF"), "h5perf: -A 'mpiio,PnetCDF': this build of h5perf does not "
                               "include PnetCDF (configure with -DH5PERF_PNETCDF=ON where "
                               "PnetCDF is installed)"},
#endif
    /* -D */
    {A("-D", "x"), "h5perf: -D 'x': unknown debug item 'x'; " DEBUG_TAIL},
    {A("-D", "rt"), "h5perf: -D 'rt': unknown debug item 'rt'; " DEBUG_TAIL},
    {A("--debug=v3"), "h5perf: --debug 'v3': unknown debug item 'v3'; " DEBUG_TAIL},
    {A("-D", "-1"), "h5perf: -D '-1': unknown debug item '-1'; " DEBUG_TAIL},
    {A("-D", "2,x,r"), "h5perf: -D '2,x,r': unknown debug item 'x'; " DEBUG_TAIL},
    {A("-D", "r,,t"), "h5perf: -D 'r,,t': empty debug item; " DEBUG_TAIL},
    {A("-D", ""), "h5perf: -D '': empty debug item; " DEBUG_TAIL},
    /* sizes */
    {A("-e", "10Q"), "h5perf: -e '10Q': " SIZE_SYNTAX_TAIL},
    {A("-e", "-5K"), "h5perf: -e '-5K': " SIZE_SYNTAX_TAIL},
    {A("-B", "abc"), "h5perf: -B 'abc': " SIZE_SYNTAX_TAIL},
    {A("--block-size=8Kxyz"), "h5perf: --block-size '8Kxyz': " SIZE_SYNTAX_TAIL},
    {A("-x", "8 K"), "h5perf: -x '8 K': " SIZE_SYNTAX_TAIL},
    {A("-a", ""), "h5perf: -a '': " SIZE_SYNTAX_TAIL},
    {A("--threshold=1.5K"), "h5perf: --threshold '1.5K': " SIZE_SYNTAX_TAIL},
    {A("-e", "-h"), "h5perf: -e '-h': " SIZE_SYNTAX_TAIL},
    {A("-x", "0"), "h5perf: -x '0': a size must be greater than 0"},
    {A("-e0K"), "h5perf: -e '0K': a size must be greater than 0"},
    {A("-X", "99999999999999999999"), "h5perf: -X '99999999999999999999': a size must fit in 64 "
                                      "bits (at most 9223372036854775807 bytes)"},
    {A("--num-bytes=9000000000G"), "h5perf: --num-bytes '9000000000G': a size must fit in 64 bits "
                                   "(at most 9223372036854775807 bytes)"},
    {A("-e", "8589934592G"),
     "h5perf: -e '8589934592G': a size must fit in 64 bits (at most 9223372036854775807 bytes)"},
    /* counts */
    {A("-d", "0"), "h5perf: -d '0': " COUNT_TAIL},
    {A("-d", "-1"), "h5perf: -d '-1': " COUNT_TAIL},
    {A("--num-dsets=abc"), "h5perf: --num-dsets 'abc': " COUNT_TAIL},
    {A("-F", "0"), "h5perf: -F '0': " COUNT_TAIL},
    {A("-F", "-1"), "h5perf: -F '-1': " COUNT_TAIL},
    {A("-i", "0"), "h5perf: -i '0': " COUNT_TAIL},
    {A("-i", "3.7"), "h5perf: -i '3.7': " COUNT_TAIL},
    {A("--num-iterations", "-2"), "h5perf: --num-iterations '-2': " COUNT_TAIL},
    {A("-p", "0"), "h5perf: -p '0': " COUNT_TAIL},
    {A("-p", "-2"), "h5perf: -p '-2': " COUNT_TAIL},
    {A("-P", "0"), "h5perf: -P '0': " COUNT_TAIL},
    {A("-P", "-4"), "h5perf: -P '-4': " COUNT_TAIL},
    {A("-P", "2147483648"), "h5perf: -P '2147483648': " COUNT_TAIL},
    {A("--max-num-processes=4K"), "h5perf: --max-num-processes '4K': " COUNT_TAIL},
    /* output */
    {A("-o", ""), "h5perf: -o '': expected a file name"},
    {A("--output="), "h5perf: --output '': expected a file name"},
    /* the first error wins */
    {A("-Q", "-Z"), "h5perf: unknown option '-Q'"},
    {A("-e", "10Q", "-d", "0"), "h5perf: -e '10Q': " SIZE_SYNTAX_TAIL},
    {A("extra", "-Q"), "h5perf: unexpected argument 'extra': h5perf takes options only"},
    {A("-w", "-e"), "h5perf: option '-e' expects a size"},
};

static void test_parse_errors(void)
{
    struct config cfg;
    struct cli_msg msg;

    for (size_t i = 0; i < sizeof parse_err_cases / sizeof parse_err_cases[0]; i++) {
        const struct parse_err_case *c = &parse_err_cases[i];
        CHECK_I64(parse(c->args, &cfg, &msg), -1);
        CHECK_STR(msg.line, c->msg);
        CHECK(!cfg.help);
    }
    /* Every option of the table that takes a value, in both forms, alone
     * and last (a value given with '=' only is optional). */
    const struct opt_row *row;
    int missing = 0;
    for (int i = 0; (row = opt_row_at(i)); i++) {
        for (int form = 0; form < 2 && row->value_kind && !row->value_optional; form++) {
            const char *name = form ? row->long_name : row->short_name;
            if (!name)
                continue;
            char want[256];
            snprintf(want, sizeof want, "h5perf: option '%s' expects %s", name, row->value_kind);
            const char *alone[MAX_ARGS + 1] = {name, NULL};
            const char *after[MAX_ARGS + 1] = {"-w", "-i", "8", name, NULL};
            CHECK_I64(parse(alone, &cfg, &msg), -1);
            CHECK_STR(msg.line, want);
            CHECK_I64(parse(after, &cfg, &msg), -1);
            CHECK_STR(msg.line, want);
            missing++;
        }
    }
    CHECK(missing > 40);
}

/* Every message line is one line, lowercase after "h5perf: " (but for a
 * variable name), no full stop. */
static void check_line_shape(const char *line)
{
    size_t len = strlen(line);
    CHECK(strncmp(line, "h5perf: ", 8) == 0);
    CHECK(strchr(line, '\n') == NULL);
    CHECK(len > 8 && line[len - 1] != '.');
    /* a variable name keeps its case */
    CHECK(!(line[8] >= 'A' && line[8] <= 'Z') || strncmp(line + 8, "HDF5_", 5) == 0);
}

static void test_parse_shapes(void)
{
    struct config cfg;
    struct cli_msg msg;

    for (size_t i = 0; i < sizeof parse_err_cases / sizeof parse_err_cases[0]; i++) {
        parse(parse_err_cases[i].args, &cfg, &msg);
        check_line_shape(msg.line);
    }
}

/* ---- env_parse ---- */

#define MAX_KEY 36  /* OpenMPI's MPI_MAX_INFO_KEY */
#define MAX_VAL 256 /* OpenMPI's MPI_MAX_INFO_VAL */

/* "k=v;k=v" of the entries, in order. */
static void info_summary(const struct config *c, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int i = 0; i < c->info_count; i++)
        cat(buf, len, "%s%s=%s", i ? ";" : "", c->info[i].key, c->info[i].value);
}

struct env_case {
    const char *info;
    const char *want; /* info_summary() when accepted, else the message */
    int rc;
};

static const struct env_case env_cases[] = {
    {"", "", 0},
    {"a=1", "a=1", 0},
    {"  a = 1 ; b=2  ", "a=1;b=2", 0},
    {"\ta\t=\tx y\t", "a=x y", 0},
    {"a=1; ;b=2", "a=1;b=2", 0},
    {" ;a=1", "a=1", 0},
    {";a=1", "a=1", 0},
    {";;", "", 0},
    {" ", "", 0},
    {"a=1;", "a=1", 0},
    {"a=1;;;b=2;\t;", "a=1;b=2", 0},
    {"a=b=c", "a=b=c", 0},
    {"a=1;b=2;a=3", "a=3;b=2", 0},
    {"cb_nodes=4;romio_cb_write=enable", "cb_nodes=4;romio_cb_write=enable", 0},
    {"garbage", "h5perf: HDF5_MPI_INFO entry 'garbage': expected key=value", -1},
    {"a=1; garbage ;b=2", "h5perf: HDF5_MPI_INFO entry 'garbage': expected key=value", -1},
    {"=x", "h5perf: HDF5_MPI_INFO entry '=x': the key is empty (expected key=value)", -1},
    {" = x", "h5perf: HDF5_MPI_INFO entry '= x': the key is empty (expected key=value)", -1},
    {"a=", "h5perf: HDF5_MPI_INFO entry 'a=': the value is empty (expected key=value)", -1},
    {"a=1;b = ", "h5perf: HDF5_MPI_INFO entry 'b =': the value is empty (expected key=value)", -1},
    {"=", "h5perf: HDF5_MPI_INFO entry '=': the key is empty (expected key=value)", -1},
    /* 35 characters of key are allowed, 36 are not (OpenMPI: len < MAX) */
    {"k2345678901234567890123456789012345=v", "k2345678901234567890123456789012345=v", 0},
    {"k23456789012345678901234567890123456=v",
     "h5perf: HDF5_MPI_INFO entry 'k23456789012345678901234567890123456=v': the key is longer than "
     "35 characters",
     -1},
};

static void test_env_cases(void)
{
    char buf[4096];

    for (size_t i = 0; i < sizeof env_cases / sizeof env_cases[0]; i++) {
        const struct env_case *c = &env_cases[i];
        struct config cfg;
        struct cli_msg msg;
        config_init(&cfg);
        int rc = env_parse(&cfg, c->info, NULL, NULL, MAX_KEY, MAX_VAL, &msg);
        CHECK_I64(rc, c->rc);
        if (rc == 0) {
            info_summary(&cfg, buf, sizeof buf);
            CHECK_STR(buf, c->want);
            CHECK(cfg.info_defined);
        } else {
            CHECK_STR(msg.line, c->want);
            check_line_shape(msg.line);
        }
    }
}

/* Long values, many entries, a full buffer, and the other two variables. */
static void test_env_limits(void)
{
    static char text[8192], want[640];
    struct config cfg;
    struct cli_msg msg;

    /* a value of 255 characters is allowed, 256 are not; the entry is cut */
    snprintf(text, sizeof text, "v=%0255d", 7);
    config_init(&cfg);
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, MAX_KEY, MAX_VAL, &msg), 0);
    CHECK_I64(strlen(cfg.info[0].value), 255);
    snprintf(text, sizeof text, "v=%0256d", 7);
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, MAX_KEY, MAX_VAL, &msg), -1);
    snprintf(want, sizeof want,
             "h5perf: HDF5_MPI_INFO entry 'v=%058d...': the value is longer than 255 characters",
             0);
    CHECK_STR(msg.line, want);

    /* 64 distinct keys fit, a 65th does not; repeating a key costs no entry */
    text[0] = '\0';
    for (int i = 0; i < CONFIG_MAX_INFO; i++)
        cat(text, sizeof text, "k%d=%d;", i, i);
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, MAX_KEY, MAX_VAL, &msg), 0);
    CHECK_I64(cfg.info_count, CONFIG_MAX_INFO);
    CHECK_STR(cfg.info[63].key, "k63");
    cat(text, sizeof text, "k0=again;k63=again");
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, MAX_KEY, MAX_VAL, &msg), 0);
    CHECK_I64(cfg.info_count, CONFIG_MAX_INFO);
    CHECK_STR(cfg.info[0].value, "again");
    cat(text, sizeof text, ";k64=1");
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, MAX_KEY, MAX_VAL, &msg), -1);
    CHECK_STR(msg.line, "h5perf: HDF5_MPI_INFO: more than 64 entries");

    /* 20 entries of 250-byte values exceed the 4096-byte buffer */
    text[0] = '\0';
    for (int i = 0; i < 20; i++)
        cat(text, sizeof text, "key%d=%0250d;", i, i);
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, MAX_KEY, MAX_VAL, &msg), -1);
    CHECK_STR(msg.line, "h5perf: HDF5_MPI_INFO: the keys and values exceed 4096 bytes");

    /* undefined, and the other two variables */
    CHECK_I64(env_parse(&cfg, NULL, NULL, NULL, MAX_KEY, MAX_VAL, &msg), 0);
    CHECK(!cfg.info_defined);
    CHECK_I64(cfg.info_count, 0);
    CHECK(!cfg.nocleanup);
    CHECK(cfg.paraprefix == NULL);
    CHECK_I64(env_parse(&cfg, NULL, "", "", MAX_KEY, MAX_VAL, &msg), 0);
    CHECK(cfg.nocleanup);
    CHECK_STR(cfg.paraprefix, "");
    CHECK_I64(env_parse(&cfg, "", "1", "/scratch", MAX_KEY, MAX_VAL, &msg), 0);
    CHECK(cfg.nocleanup);
    CHECK(cfg.info_defined);
    CHECK_STR(cfg.paraprefix, "/scratch");
    /* MPICH's limits: 255-character keys, 1023-character values */
    snprintf(text, sizeof text, "%0255d=v", 1);
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, 256, 1024, &msg), 0);
    CHECK_I64(env_parse(&cfg, text, NULL, NULL, MAX_KEY, MAX_VAL, &msg), -1);
}

/* ---- config_finish ---- */

/* The finished fields, all of them, in a fixed order. */
static void finished(const struct config *c, char *buf, size_t len)
{
    const struct guide_settings *g = guide_of(c);
    snprintf(buf, len,
             "e=%" PRId64 " B=%" PRId64 " x=%" PRId64 " X=%" PRId64
             " p=%d P=%d D=%d apis=%u a=%" PRId64 " T=%" PRId64 " d=%d F=%d i=%d wd=%d",
             g->bytes, g->block, g->xfer_min, g->xfer_max, c->min_procs, c->max_procs,
             c->debug_level, c->apis, c->align, c->threshold, g->num_dsets, g->num_files,
             c->iterations, c->watchdog);
}

#define DEFAULTS_TAIL "D=0 apis=7 a=1 T=1 d=1 F=1 i=1 wd=120"
#define DEFAULTS_1D   "e=262144 B=131072 x=131072 X=262144"

struct finish_case {
    const char *args[MAX_ARGS + 1];
    int world;
    bool two_d;           /* as if -g were given */
    const char *want;     /* finished() on success, the message on failure */
    const char *warnings; /* joined by '\n' */
};

static const struct finish_case finish_cases[] = {
    {{NULL}, 2, false, DEFAULTS_1D " p=1 P=2 " DEFAULTS_TAIL, ""},
    {{NULL}, 1, false, DEFAULTS_1D " p=1 P=1 " DEFAULTS_TAIL, ""},
    {A("-e", "1M"), 4, false, "e=1048576 B=524288 x=524288 X=1048576 p=1 P=4 " DEFAULTS_TAIL, ""},
    {A("-a", "4K", "-T", "1K", "-d", "2", "-F", "3", "-i", "4", "-A", "posix", "-D", "3"), 2, false,
     DEFAULTS_1D " p=1 P=2 D=3 apis=1 a=4096 T=1024 d=2 F=3 i=4 wd=120", ""},
    {A("-x", "32K", "-X", "64K", "-B", "16K"), 2, false,
     "e=262144 B=16384 x=32768 X=65536 p=1 P=2 " DEFAULTS_TAIL, ""},
    {A("-P", "4", "-p", "2"), 8, false, DEFAULTS_1D " p=2 P=4 " DEFAULTS_TAIL, ""},
    /* 1D transfer sizes above -e */
    {A("-x", "1M"), 2, false, "e=262144 B=131072 x=262144 X=262144 p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: -x '1M' is larger than the bytes per process (256KB); using 256KB"},
    {A("--max-xfer-size=1M"), 2, false, DEFAULTS_1D " p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: --max-xfer-size '1M' is larger than the bytes per process (256KB); "
     "using 256KB"},
    /* -x above -X, given and by default */
    {A("--min-xfer-size=64K", "--max-xfer-size=32K"), 2, false,
     "e=262144 B=131072 x=32768 X=32768 p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: --min-xfer-size '64K' is larger than --max-xfer-size '32K'; using 32KB"},
    {A("-X", "64K"), 2, false, "e=262144 B=131072 x=65536 X=65536 p=1 P=2 " DEFAULTS_TAIL, ""},
    {A("-x", "1M", "-X", "32K"), 2, false,
     "e=262144 B=131072 x=32768 X=32768 p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: -x '1M' is larger than the bytes per process (256KB); using 256KB\n"
     "h5perf: warning: -x '1M' is larger than -X '32K'; using 32KB"},
    /* -B above -e */
    {A("-B", "1M"), 2, false, "e=262144 B=262144 x=131072 X=262144 p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: -B '1M' is larger than the bytes per process (256KB); using 256KB"},
    {A("-e", "8", "-B", "9"), 2, false, "e=8 B=8 x=4 X=8 p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: -B '9' is larger than the bytes per process (8); using 8"},
    /* -p above -P */
    {A("-p", "4", "-P", "2"), 2, false, DEFAULTS_1D " p=2 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: -p '4' is larger than -P '2'; using 2"},
    {A("--min-num-processes", "4"), 2, false, DEFAULTS_1D " p=2 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: --min-num-processes '4' is larger than the number of processes "
     "started (2); using 2"},
    /* debug level above 4 */
    {A("-D", "9"), 2, false, DEFAULTS_1D " p=1 P=2 D=4 apis=7 a=1 T=1 d=1 F=1 i=1 wd=120",
     "h5perf: warning: -D: debug level 9 is above the highest level (4); using 4"},
    {A("--debug=12,r"), 2, false, DEFAULTS_1D " p=1 P=2 D=4 apis=7 a=1 T=1 d=1 F=1 i=1 wd=120",
     "h5perf: warning: --debug: debug level 12 is above the highest level (4); using 4"},
    {A("-D", "4"), 2, false, DEFAULTS_1D " p=1 P=2 D=4 apis=7 a=1 T=1 d=1 F=1 i=1 wd=120", ""},
    /* the level as typed, not as kept */
    {A("-D", "99999999999999999999"), 2, false,
     DEFAULTS_1D " p=1 P=2 D=4 apis=7 a=1 T=1 d=1 F=1 i=1 wd=120",
     "h5perf: warning: -D: debug level 99999999999999999999 is above the highest level (4); "
     "using 4"},
    {A("-D", "t,0012,3,v,007"), 2, false,
     DEFAULTS_1D " p=1 P=2 D=4 apis=7 a=1 T=1 d=1 F=1 i=1 wd=120",
     "h5perf: warning: -D: debug level 007 is above the highest level (4); using 4"},
    /* several warnings, in docs/original.md §1.6 order */
    {A("-D", "5", "-B", "1M", "-X", "2M", "-x", "1M"), 2, false,
     "e=262144 B=262144 x=262144 X=262144 p=1 P=2 D=4 apis=7 a=1 T=1 d=1 F=1 i=1 wd=120",
     "h5perf: warning: -x '1M' is larger than the bytes per process (256KB); using 256KB\n"
     "h5perf: warning: -X '2M' is larger than the bytes per process (256KB); using 256KB\n"
     "h5perf: warning: -B '1M' is larger than the bytes per process (256KB); using 256KB\n"
     "h5perf: warning: -D: debug level 5 is above the highest level (4); using 4"},
    /* e == 1: the halves are 0 */
    {A("-e", "1"), 2, false,
     "h5perf: -e '1': half of -e, the default of -x and -B, is 0; give -x and -B explicitly", ""},
    {A("--num-bytes=1", "-x", "1"), 2, false,
     "h5perf: --num-bytes '1': half of -e, the default of -B, is 0; give -B explicitly", ""},
    {A("-e", "1", "-B", "1"), 2, false,
     "h5perf: -e '1': half of -e, the default of -x, is 0; give -x explicitly", ""},
    {A("-e", "1", "-B", "1", "-x", "1"), 2, false, "e=1 B=1 x=1 X=1 p=1 P=2 " DEFAULTS_TAIL, ""},
    /* -P above the processes started */
    {A("-P", "4"), 2, false,
     "h5perf: -P '4': only 2 processes were started; start at least 4 or lower -P", ""},
    {A("--max-num-processes=3"), 1, false,
     "h5perf: --max-num-processes '3': only 1 process was started; start at least 3 or lower "
     "--max-num-processes",
     ""},
    {A("-P", "2"), 2, false, DEFAULTS_1D " p=1 P=2 " DEFAULTS_TAIL, ""},
    /* 2D: 8K default, transfer sizes not clamped to -e */
    {{NULL}, 2, true, "e=8192 B=4096 x=4096 X=8192 p=1 P=2 " DEFAULTS_TAIL, ""},
    {A("-x", "32K", "-X", "64K"), 2, true, "e=8192 B=4096 x=32768 X=65536 p=1 P=2 " DEFAULTS_TAIL,
     ""},
    {A("-x", "32K"), 2, true, "e=8192 B=4096 x=8192 X=8192 p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: -x '32K' is larger than the default -X (8KB, equal to -e); using 8KB"},
    {A("-B", "16K"), 2, true, "e=8192 B=8192 x=4096 X=8192 p=1 P=2 " DEFAULTS_TAIL,
     "h5perf: warning: -B '16K' is larger than the bytes per process (8KB); using 8KB"},
};

static void test_finish(void)
{
    char buf[640], warns[CLI_MAX_WARNINGS * 330];

    for (size_t i = 0; i < sizeof finish_cases / sizeof finish_cases[0]; i++) {
        const struct finish_case *c = &finish_cases[i];
        struct config cfg;
        struct cli_msg msg;
        struct cli_warnings w;
        CHECK_I64(parse(c->args, &cfg, &msg), 0);
        guide_edit(&cfg)->geometry_2d = c->two_d;
        int rc = config_finish(&cfg, c->world, &w, &msg);
        if (strncmp(c->want, "h5perf: ", 8) == 0) {
            CHECK_I64(rc, -1);
            CHECK_STR(msg.line, c->want);
            check_line_shape(msg.line);
            continue;
        }
        CHECK_I64(rc, 0);
        finished(&cfg, buf, sizeof buf);
        CHECK_STR(buf, c->want);
        warns[0] = '\0';
        for (int k = 0; k < w.count; k++)
            cat(warns, sizeof warns, "%s%s", k ? "\n" : "", w.line[k]);
        CHECK_STR(warns, c->warnings);
    }
}

/* ---- validation of the sweep (session_build) ---- */

struct validate_case {
    const char *args[MAX_ARGS + 1];
    int world;
    bool two_d;
    const char *msg; /* OK or the exact line */
};

static const struct validate_case validate_cases[] = {
    {{NULL}, 2, false, OK},
    {{NULL}, 64, false, OK},
    {A("-e", "64K", "-B", "2K", "-x", "8K", "-X", "32K", "-I", "-C"), 2, false, OK},
    {A("-B", "2", "-e", "8", "-p", "3", "-P", "3", "-x", "4", "-X", "4"), 3, false, OK},
    {A("-x", "3", "-X", "12", "-B", "3", "-e", "12"), 2, false, OK},
    {A("-e", "1", "-x", "1", "-B", "1"), 2, false, OK},
    /* the block size does not divide a transfer size: given, default, sweep */
    {A("-x", "48K", "-B", "32K"), 2, false,
     "h5perf: -x '48K': transfer size 48KB is not a multiple of the block size 32KB (-B '32K')"},
    {A("--min-xfer-size=48K", "--block-size", "32K", "-I"), 2, false,
     "h5perf: --min-xfer-size '48K': transfer size 48KB is not a multiple of the block size "
     "32KB (--block-size '32K')"},
    {A("-x", "64K"), 2, false,
     "h5perf: -x '64K': transfer size 64KB is not a multiple of the block size 128KB (the "
     "default -B, half of -e); give -B explicitly"},
    {A("-X", "96K"), 2, false,
     "h5perf: -X '96K': transfer size 96KB is not a multiple of the block size 128KB (the "
     "default -B, half of -e); give -B explicitly"},
    {A("-e", "96K", "-B", "32K"), 2, false,
     "h5perf: -B '32K': transfer size 48KB (the default -x, half of -e) is not a multiple of "
     "the block size 32KB; give -x explicitly"},
    {A("-e", "1M", "-x", "256K"), 2, false,
     "h5perf: -x '256K': transfer size 256KB is not a multiple of the block size 512KB (the "
     "default -B, half of -e); give -B explicitly"},
    {A("-x", "3", "-X", "12", "-B", "2", "-e", "12"), 2, false,
     "h5perf: -x '3': transfer size 3 is not a multiple of the block size 2 (-B '2')"},
    /* -e is not a multiple of a transfer size */
    {A("-X", "96K", "-B", "32K"), 2, false,
     "h5perf: -X '96K': the bytes per process 256KB (the default -e) are not a multiple of "
     "the transfer size 96KB"},
    {A("-e", "100", "-x", "30", "-B", "10"), 2, false,
     "h5perf: -x '30': the bytes per process 100 (-e '100') are not a multiple of the "
     "transfer size 30"},
    {A("-e", "5"), 2, false,
     "h5perf: -e '5': the bytes per process 5 are not a multiple of the transfer size 2 (the "
     "default -x, half of -e); give -x explicitly"},
    {A("-e", "72K", "-x", "24K", "-B", "8K"), 2, false,
     "h5perf: -x '24K': the bytes per process 72KB (-e '72K') are not a multiple of the "
     "transfer size 48KB of the sweep from -x '24K' to 72KB (the default -X)"},
    {A("-e", "72K", "-x", "24K", "-X", "72K", "-B", "8K"), 2, false,
     "h5perf: -X '72K': the bytes per process 72KB (-e '72K') are not a multiple of the "
     "transfer size 48KB of the sweep from -x '24K' to -X '72K'"},
    /* adjusted values are named as the user gave them */
    {A("-x", "1M", "-B", "96K"), 2, false,
     "h5perf: -x '1M': transfer size 256KB is not a multiple of the block size 96KB (-B "
     "'96K')"},
    /* 64-bit overflow of a dataset, a file, all files */
    {A("-e", "4294967296G"), 2, false,
     "h5perf: -e '4294967296G': a dataset of 4294967296GB x 2 processes does not fit in 64 "
     "bits"},
    {A("-e", "8G", "-P", "2000000000"), 2000000000, false,
     "h5perf: -e '8G': a dataset of 8GB x 2000000000 processes does not fit in 64 bits"},
    {A("-e", "4G", "-d", "2147483647"), 2, false,
     "h5perf: -d '2147483647': a file of 2147483647 datasets of 8GB each (2 processes) does "
     "not fit in 64 bits"},
    {A("-e", "4G", "-d", "1073741823", "-F", "2"), 2, false,
     "h5perf: -F '2': 2 files of 8589934584GB each (2 processes) do not fit in 64 bits"},
    {A("-e", "4G", "-d", "1073741823", "-F", "2", "-A", "posix"), 1, false, OK},
    {A("-e", "4G", "-d", "1073741823", "-F", "2"), 1, false,
     "h5perf: -e '4G': transfer size 2GB (the default -x, half of -e) moves pieces of 2GB "
     "through MPI-IO, above its limit of 2147483647 bytes per call; use smaller sizes or give "
     "-A without mpiio (it is in the default)"},
    {A("--api=MPIIO,posix", "-e", "8G", "-x", "4G", "-X", "4G", "-B", "4G"), 1, false,
     "h5perf: -x '4G': transfer size 4GB moves pieces of 4GB through MPI-IO, above its limit "
     "of 2147483647 bytes per call; use smaller sizes or leave mpiio out of --api "
     "'MPIIO,posix'"},
    {A("-e", "4G", "-B", "1M", "-I"), 1, false, OK},
    /* 2D (docs/original.md §5.2) */
    {A("-B", "2", "-e", "4", "-p", "3", "-P", "3", "-x", "12", "-X", "12"), 3, true, OK},
    {A("-B", "4", "-e", "4", "-x", "4", "-X", "4"), 2, true, OK},
    {A("-e", "4", "-x", "8", "-B", "2"), 2, true, OK},
    {A("-e", "4", "-x", "16", "-X", "16", "-B", "2", "-p", "3"), 3, true,
     "h5perf: -x '16': the dataset side 12 (-e '4' x 3 processes) is not a multiple of the "
     "transfer size 16"},
    {A("-e", "3", "-B", "2", "-x", "2"), 2, true,
     "h5perf: -B '2': the bytes per process 3 (-e '3') are not a multiple of the block size 2"},
    {A("-e", "4G"), 2, true,
     "h5perf: -e '4G': a 2D dataset of (4GB x 2 processes)^2 bytes does not fit in 64 bits"},
};

/* MPI_Dims_create's grids, for the session (none of these cases needs
 * one). */
static void test_dims(int nprocs, int ndims, int *dims)
{
    for (int d = 0; d < ndims; d++)
        dims[d] = d == 0 ? nprocs : 1;
}

static void test_validate(void)
{
    for (size_t i = 0; i < sizeof validate_cases / sizeof validate_cases[0]; i++) {
        const struct validate_case *c = &validate_cases[i];
        struct config cfg;
        struct cli_msg msg;
        struct cli_warnings w;
        CHECK_I64(parse(c->args, &cfg, &msg), 0);
        guide_edit(&cfg)->geometry_2d = c->two_d;
        CHECK_I64(config_finish(&cfg, c->world, &w, &msg), 0);
        struct session session;
        int rc = session_build_input(&session, &cfg, NULL, 0, test_dims, &msg);
        session_release(&session);
        if (rc != (c->msg ? -1 : 0))
            fprintf(stderr, "validate case %zu: %s\n", i, msg.line);
        CHECK_I64(rc, c->msg ? -1 : 0);
        if (c->msg != NULL) {
            CHECK_STR(msg.line, c->msg);
            check_line_shape(msg.line);
        }
    }
}

/* ---- help_print ---- */

/* ---- options that do not apply, walked over the table ---- */

/* A value each kind of value takes; a row of a new kind needs one here. */
static const char *example_value(const struct opt_row *row)
{
    static const struct {
        const char *kind, *value;
    } examples[] = {
        {"a size", "4K"},
        {"a whole number", "2"},
        {"a list of sizes", "512"},
        {"1, 2, 4 or 8", "4"},
        {"a list of layouts", "shared"},
        {"the process grid", "1"},
        {"the array's dimensions", "64"},
        {"a distribution", "uniform"},
        {"a file name", "out.txt"},
        {"a file name ending in .json or .csv", "out.json"},
        {"a list of APIs", "posix"},
        {"a list of debug items", "1"},
        {"a list of drivers", "mpio"},
        {"a number or full", "1"},
        {"a chunk shape", "4"},
        {"sync or async", "async"},
        {"phase or once", "once"},
        {"keep or drop", "drop"},
    };
    if (!row->value_kind || row->value_optional) /* a flag; its value only with '=' */
        return NULL;
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        if (strcmp(examples[i].kind, row->value_kind) == 0)
            return examples[i].value;
    return "";
}

static bool pattern_takes(const struct pattern_desc *p, const struct opt_row *row)
{
    if (opt_is_core(row) || opt_api_owner(row) >= 0)
        return true;
    for (int i = 0; p->rows[i]; i++)
        if (p->rows[i] == row)
            return true;
    return false;
}

/* "--pattern KEY [-A API] NAME [VALUE]": parsed, then refused by
 * config_finish with a line starting with want and holding also. */
static void check_refused(const char *key, const char *api, const struct opt_row *row,
                          const char *want, const char *also)
{
    const char *name = row->long_name;
    const char *value = example_value(row);
    const char *args[MAX_ARGS + 1] = {"--pattern", key};
    int n = 2;
    struct config cfg;
    struct cli_msg msg;
    struct cli_warnings w;

    if (api) {
        args[n++] = "-A";
        args[n++] = api;
    }
    args[n++] = name;
    if (value)
        args[n++] = value;
    args[n] = NULL;
    if (value && value[0] == '\0') {
        fprintf(stderr, "test_cli: no example value of '%s' for %s\n", row->value_kind, name);
        CHECK(false);
        return;
    }
    if (parse(args, &cfg, &msg) != 0) {
        fprintf(stderr, "test_cli: %s %s: %s\n", name, value ? value : "", msg.line);
        CHECK(false);
        return;
    }
    CHECK_I64(config_finish(&cfg, 4, &w, &msg), -1);
    if (strncmp(msg.line, want, strlen(want)) != 0 || !strstr(msg.line, also)) {
        fprintf(stderr, "test_cli: --pattern %s %s: want '%s...', got '%s'\n", key, name, want,
                msg.line);
        CHECK(false);
    }
}

/* Every row a pattern does not take is refused with it, naming the option;
 * every row of some APIs is refused when -A selects none of them. */
static void test_not_applicable(void)
{
    const struct opt_row *row;
    int pattern_refusals = 0, api_refusals = 0;
    char want[160];

    for (int i = 0; (row = opt_row_at(i)); i++) {
        const struct pattern_desc *taker = NULL;
        for (int p = 0; p < pattern_count; p++) {
            const struct pattern_desc *pat = pattern_table[p];
            if (pattern_takes(pat, row)) {
                taker = taker ? taker : pat;
                continue;
            }
            snprintf(want, sizeof want, "h5perf: %s: applies to ", row->long_name);
            check_refused(pat->key, NULL, row, want, "");
            pattern_refusals++;
        }
        /* A build whose HDF5 lacks what the row asks refuses it as it
         * parses (tests/unit/test_api_options.c). */
        if (!row->apis || !taker ||
            (strcmp(row->long_name, "--hdf5.multi-dataset") == 0 && !hdf5_built_multi_dataset()))
            continue;
        for (int a = 0; a < API_COUNT; a++) {
            if (row->apis & API_BIT(a))
                continue;
            snprintf(want, sizeof want, "h5perf: %s: applies to ", row->long_name);
            check_refused(taker->key, api_desc((enum api_id)a)->key, row, want, " only, but -A '");
            api_refusals++;
            break;
        }
    }
    CHECK(pattern_refusals > 20);
    CHECK(api_refusals >= 1);
}

static void test_help(void)
{
    char text[32768], line[256];
    FILE *f = tmpfile();
    size_t n;
    int lines = 0, long_lines = 0;

    CHECK(f != NULL);
    if (f == NULL)
        return;
    help_print(f);
    rewind(f);
    while (fgets(line, sizeof line, f) != NULL) {
        lines++;
        if (strlen(line) > 80) /* 79 columns and the newline */
            long_lines++;
    }
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    CHECK(lines > 40);
    CHECK_I64(long_lines, 0);
    CHECK(strncmp(text, "usage: mpiexec -n N h5perf [options]\n", 37) == 0);
    /* every row of the table, as its term ("-e, --num-bytes=S") */
    const struct opt_row *row;
    for (int i = 0; (row = opt_row_at(i)); i++) {
        char term[96];
        opt_term(row, term, sizeof term);
        CHECK(strstr(text, term) != NULL);
    }
    const char *words[] = {"-h, --help",
                           "-c, --chunk",
                           "-C, --collective",
                           "-g, --geometry",
                           "-I, --interleaved",
                           "-m, --mpi-posix",
                           "-w, --write-only",
                           "--overwrite",
                           "HDF5_NOCLEANUP",
                           "HDF5_MPI_INFO",
                           "HDF5_PARAPREFIX",
                           "[256K; 8K with -g]",
                           "128+n"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        CHECK(strstr(text, words[i]) != NULL);
}

/* Does the help item of the option spelled term hold word, the item's
 * lines joined by blanks? */
static bool help_offers(const char *term, const char *word)
{
    struct help_item it;
    for (int i = 0; help_item_at(i, &it) == 0; i++) {
        if (it.kind != HELP_OPTION || strcmp(it.term, term) != 0)
            continue;
        for (char *p = it.text; *p; p++)
            *p = *p == '\n' ? ' ' : *p;
        return strstr(it.text, word) != NULL;
    }
    fprintf(stderr, "test_cli: no help item '%s'\n", term);
    return false;
}

/* The options whose values are the rows of a table offer every row in
 * --help (and so in the man page), whatever the table holds: the
 * patterns, the APIs, the layouts, HDF5's drivers; the refusals of an
 * unknown layout or driver list every one too. */
static void test_help_offers_every_choice(void)
{
    for (int p = 0; p < pattern_count; p++) {
        if (!help_offers("--pattern=P", pattern_table[p]->key)) {
            fprintf(stderr, "test_cli: --pattern's help lacks '%s'\n", pattern_table[p]->key);
            CHECK(false);
        }
    }
    for (int a = 0; a < API_COUNT; a++)
        CHECK(help_offers("-A, --api=LIST", api_descs[a].key));
    for (int l = 0; l < LAYOUT_COUNT; l++)
        CHECK(help_offers("--layout=LIST", layout_name(l)));
    CHECK(help_offers("--hdf5.driver=LIST", "mpio (MPI-IO)"));
    CHECK(help_offers("--hdf5.driver=LIST", "subfiling (shared files"));
    CHECK(help_offers("--format=F", "text (the original's layout), json or csv"));
    CHECK(help_offers("--repeat=MODE", "new (the file created anew) or overwrite (the same"));

    struct config cfg;
    struct cli_msg msg;
    const char *layouts[] = {"--pattern", "block", "--layout", "tiles", NULL};
    CHECK(parse(layouts, &cfg, &msg) != 0);
    for (int l = 0; l < LAYOUT_COUNT; l++)
        CHECK(strstr(msg.line, layout_name(l)) != NULL);
    const char *drivers[] = {"--hdf5.driver", "foo", NULL};
    CHECK(parse(drivers, &cfg, &msg) != 0);
    CHECK_STR(msg.line, "h5perf: --hdf5.driver 'foo': unknown driver 'foo'; expected a "
                        "comma-separated list of mpio, subfiling");
}

int main(void)
{
    test_parse_ok();
    test_parse_spelled();
    test_parse_errors();
    test_parse_shapes();
    test_env_cases();
    test_env_limits();
    test_finish();
    test_validate();
    test_not_applicable();
    test_help();
    test_help_offers_every_choice();
    return check_done("test_cli");
}
