/* The trace pattern's pure parts (docs/trace.md): the text format's exact
 * refusals; random traces parsed, divided as setup sends them and adopted
 * by each process, which holds every file's and process's figures and its
 * own calls alone, grouped by file in recorded order; and each process's
 * plan: the prepare phase writes its reads, the replay makes its calls
 * (after their gaps) at the file's base plus OFFSET through a flat file,
 * in recorded order, and at OFFSET of the file's variable through HDF5
 * and PnetCDF, within its buffer, and fill and verify agree. Pure: no
 * MPI. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "rnd.h"
#include "pattern/trace.h"

/* The text's refusal for a run of run_procs processes ("" when taken). */
static const char *parse_text(const char *text, int run_procs)
{
    static char why[1024];
    unsigned char *bytes = NULL;
    size_t len = 0;
    why[0] = '\0';
    if (trace_text_parse(text, strlen(text), run_procs, NULL, &bytes, &len, why, sizeof why) == 0)
        why[0] = '\0';
    free(bytes);
    return why;
}

#define HEAD "processes 2\nlevel posix\nfile 0 /a\n"

static void check_text_refusals(void)
{
    static const struct {
        const char *text, *why;
    } cases[] = {
        {HEAD "0 0 write 0 10 0.1 0.2\n", ""},
        {"# c\n\n" HEAD "0 0 read 5 1 0.000001 1.123456789\n", ""},
        {"level posix\n", "line 1: 'level posix': expected 'processes N' first, N from 1 to "
                          "1048576"},
        {"processes 0\n", "line 1: 'processes 0': expected 'processes N' first, N from 1 to "
                          "1048576"},
        {"processes 3\n", "line 1: is a trace for 3 processes, and the run has 2; start 3 "
                          "(mpiexec -n), with -p and -P left out or 3"},
        {"processes 2\nfile 0 /a\n", "line 2: 'file 0 /a': expected 'level posix' or 'level "
                                     "mpiio' after 'processes N'"},
        {"processes 2\nlevel posix\nprocesses 2\n", "line 3: 'processes 2': a second "
                                                    "'processes' line"},
        {HEAD "level mpiio\n", "line 4: 'level mpiio': a second 'level' line"},
        {"processes 2\nlevel posix\nfile 1 /a\n",
         "line 3: 'file 1 /a': expected 'file 0 PATH' (files from 0, in order)"},
        {"processes 2\nlevel posix\nfile 0\n",
         "line 3: 'file 0': expected 'file 0 PATH' (files from 0, in order)"},
        {"processes 2\nlevel posix\n0 0 write 0 1 0.1 0.1\n",
         "line 3: '0 0 write 0 1 0.1 0.1': a call before any 'file K PATH' line"},
        {HEAD "0 0 write 0 1 0.1 0.1\nfile 1 /b\n",
         "line 5: 'file 1 /b': a file line after a call (the files come before the calls)"},
        {HEAD "0 0 write 0 1 0.1\n", "line 4: '0 0 write 0 1 0.1': a call of 6 fields, not 7 (a "
                                     "trace cut short?)"},
        {HEAD "0 0 write 0 1 0.1 0.1 x\n",
         "line 4: '0 0 write 0 1 0.1 0.1 x': expected a call 'P K write|read OFFSET LENGTH GAP "
         "DURATION' (one blank between fields; GAP and DURATION seconds as 0.000123)"},
        {HEAD "0 0  write 0 1 0.1 0.1\n",
         "line 4: '0 0  write 0 1 0.1 0.1': expected a call 'P K write|read OFFSET LENGTH GAP "
         "DURATION' (one blank between fields; GAP and DURATION seconds as 0.000123)"},
        {HEAD "0 0 write 0 1 .1 0.1\n",
         "line 4: '0 0 write 0 1 .1 0.1': expected a call 'P K write|read OFFSET LENGTH GAP "
         "DURATION' (one blank between fields; GAP and DURATION seconds as 0.000123)"},
        {HEAD "0 0 write 0 1 0.1234567890 0.1\n",
         "line 4: '0 0 write 0 1 0.1234567890 0.1': expected a call 'P K write|read OFFSET "
         "LENGTH GAP DURATION' (one blank between fields; GAP and DURATION seconds as "
         "0.000123)"},
        {HEAD "0 0 append 0 1 0.1 0.1\n",
         "line 4: '0 0 append 0 1 0.1 0.1': expected a call 'P K write|read OFFSET LENGTH GAP "
         "DURATION' (one blank between fields; GAP and DURATION seconds as 0.000123)"},
        {HEAD "2 0 write 0 1 0.1 0.1\n", "line 4: '2': the trace is for processes 2 (0 to 1)"},
        {HEAD "0 1 write 0 1 0.1 0.1\n",
         "line 4: '0 1 write 0 1 0.1 0.1': file 1 is not declared (the files are 0 to 0)"},
        {HEAD "0 0 write 0 0 0.1 0.1\n",
         "line 4: '0 0 write 0 0 0.1 0.1': LENGTH 0 (a call moves 1 byte or more)"},
        {HEAD "0 0 write 9223372036854775806 1 0.1 0.1\n", ""},
        {HEAD "0 0 write 9223372036854775807 1 0.1 0.1\n",
         "line 4: '0 0 write 9223372036854775807 1 0.1 0.1': OFFSET + LENGTH passes 2^63 - 1 (the "
         "largest file size)"},
        {HEAD "0 0 write 99999999999999999999 1 0.1 0.1\n",
         "line 4: '0 0 write 99999999999999999999 1 0.1 0.1': OFFSET + LENGTH passes 2^63 - 1 (the "
         "largest file size)"},
        {HEAD "1 0 write 0 1 0.1 0.1\n0 0 write 0 1 0.1 0.1\n",
         "line 5: process 0's call comes after process 1's (a process's calls are on "
         "consecutive lines, processes in increasing order)"},
        {"", "ends at line 0 before 'processes N' (docs/trace.md)"},
        {"processes 2\n", "ends at line 1 before 'level posix' or 'level mpiio' (docs/trace.md)"},
        {"processes 2\nlevel mpiio\n", "ends at line 2 before 'file 0 PATH' (docs/trace.md)"},
        {HEAD, "ends at line 3 before a call (docs/trace.md)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_STR(parse_text(cases[i].text, 2), cases[i].why);
    /* Without the run's count (0), any count is taken. */
    CHECK_STR(parse_text("processes 3\nlevel posix\nfile 0 /a\n2 0 read 0 1 0.1 0.1\n", 0), "");
}

struct call {
    int p, k;
    bool write;
    int64_t off, len;
    double gap;
};

#define MAX_CALLS 64

/* The steps of each phase and variable of plan against the calls of
 * process p (in recorded order): each I/O step at the file's base plus
 * OFFSET in a flat file, with a pause of its gap before it in the replay;
 * through a flat API (flat) one variable of every call in recorded order,
 * else one per file, its slabs at OFFSET of it. */
static void check_plan(const struct plan *pl, const struct trace_input *in, const struct call *c,
                       int n, int p, bool flat)
{
    unsigned char *buf = malloc((size_t)pl->buffer_bytes);
    bool reads = false;
    for (int i = 0; i < n; i++)
        reads |= !c[i].write;
    CHECK_I64(pl->nphases, reads ? 2 : 1);
    CHECK_I64(pl->nvars, flat ? 1 : in->nfiles);
    for (int ph = 0; ph < pl->nphases; ph++) {
        bool replay = ph == pl->nphases - 1;
        pl->ops->fill(pl, ph, 0, buf, false);
        for (int v = 0; v < pl->nvars; v++) {
            struct plan_access acc;
            plan_access(pl, ph, v, &acc);
            int64_t k = 0;
            for (int i = 0; i < n; i++) {
                if (c[i].p != p || (!flat && c[i].k != v) || (!replay && c[i].write))
                    continue;
                struct plan_step s;
                if (replay) {
                    plan_step(pl, ph, v, k++, &s);
                    CHECK(s.kind == PLAN_STEP_COMPUTE && s.seconds == c[i].gap);
                }
                plan_step(pl, ph, v, k++, &s);
                CHECK(s.kind == PLAN_STEP_IO && s.write == (c[i].write || !replay));
                int64_t off = 0, len = 0, base = in->files[c[i].k].base;
                plan_step_run(&s, 0, &off, &len);
                CHECK_I64(off, base + c[i].off);
                CHECK_I64(len, c[i].len);
                CHECK_I64(plan_slabs(&s)->start[0], (flat ? base : 0) + c[i].off);
                CHECK_I64(plan_slabs(&s)->block[0], c[i].len);
                CHECK(s.mem_off >= 0 && s.mem_off + s.bytes <= pl->buffer_bytes);
                if (s.write)
                    continue;
                /* What the write of these bytes writes reads back as it. */
                int64_t bad = 0;
                unsigned char want = 0, got = 0;
                memcpy(buf + s.mem_off, buf + trace_phase_of(c[i].k, c[i].off), (size_t)s.bytes);
                CHECK_I64(pl->ops->verify(pl, ph, &s, buf, &bad, &want, &got), 0);
                pl->ops->fill(pl, ph, v, buf, true);
                CHECK_I64(pl->ops->verify(pl, ph, &s, buf, &bad, &want, &got), s.bytes);
            }
            CHECK_I64(acc.nsteps, k);
        }
    }
    free(buf);
}

/* A random trace of up to 5 processes and 3 files, as text, parsed,
 * divided and adopted by each process. */
static void check_random_trace(void)
{
    int nprocs = 1 + (int)rnd(5), nfiles = 1 + (int)rnd(3), n = (int)rnd(MAX_CALLS);
    struct call c[MAX_CALLS];
    char *text = malloc(8192);
    int at = snprintf(text, 8192, "processes %d\nlevel posix\n", nprocs);
    for (int k = 0; k < nfiles; k++)
        at += snprintf(text + at, 8192 - (size_t)at, "file %d /f %d\n", k, k);
    for (int i = 0; i < n; i++) {
        c[i] = (struct call){.p = (int)rnd(nprocs),
                             .k = (int)rnd(nfiles),
                             .write = rnd(2) == 0,
                             .off = rnd(100000),
                             .len = 1 + rnd(70000),
                             .gap = 0.25 * (double)rnd(4)};
    }
    for (int i = 1; i < n; i++) /* processes in increasing order */
        for (int j = i; j > 0 && c[j - 1].p > c[j].p; j--) {
            struct call t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    for (int i = 0; i < n; i++)
        at += snprintf(text + at, 8192 - (size_t)at, "%d %d %s %lld %lld %.2f 0.001\n", c[i].p,
                       c[i].k, c[i].write ? "write" : "read", (long long)c[i].off,
                       (long long)c[i].len, c[i].gap);
    char why[1024];
    unsigned char *bytes = NULL;
    size_t len = 0;
    int rc = trace_text_parse(text, (size_t)at, nprocs, NULL, &bytes, &len, why, sizeof why);
    free(text);
    if (n == 0) {
        CHECK(rc < 0 && strstr(why, "before a call") != NULL); /* no call: refused */
        return;
    }
    CHECK(rc == 0);
    if (rc < 0)
        return;
    size_t common = 0, ends[8];
    CHECK(trace_input_parts(bytes, len, nprocs, &common, ends) == 0);
    CHECK(nprocs == 1 || trace_input_parts(bytes, len, nprocs - 1, &common, ends) < 0);
    /* A process past the trace's receives the common part alone. */
    CHECK(trace_input_parts(bytes, len, nprocs + 1, &common, ends) == 0);
    CHECK_I64((int64_t)ends[nprocs], (int64_t)ends[nprocs - 1]);
    CHECK(trace_input_parts(bytes, len, nprocs, &common, ends) == 0);
    struct config cfg;
    struct cli_msg m;
    memset(&cfg, 0, sizeof cfg);
    for (int p = 0; p < nprocs; p++) {
        size_t from = p ? ends[p - 1] : common, own = ends[p] - from;
        unsigned char *part = malloc(common + own + 1);
        memcpy(part, bytes, common);
        memcpy(part + common, bytes + from, own);
        void *v = NULL;
        CHECK(trace_adopt(&cfg, p, part, common + own, &v, &m) == 0);
        free(part);
        const struct trace_input *in = v;
        if (!in)
            continue;
        CHECK_I64(in->nprocs, nprocs);
        CHECK_I64(in->nfiles, nfiles);
        CHECK_I64(in->rank, p);
        int64_t base = 0;
        for (int k = 0; k < nfiles; k++) {
            int64_t size = 0, mine = 0;
            for (int i = 0; i < n; i++)
                if (c[i].k == k) {
                    size = c[i].off + c[i].len > size ? c[i].off + c[i].len : size;
                    mine += c[i].p == p;
                }
            CHECK_I64(in->files[k].size, size);
            CHECK_I64(in->files[k].base, base);
            CHECK_I64(in->first[k + 1] - in->first[k], mine);
            base += size > 0 ? size : 1;
            /* Its calls of file k, in recorded order. */
            int64_t j = in->first[k];
            for (int i = 0; i < n; i++)
                if (c[i].k == k && c[i].p == p) {
                    CHECK_I64(in->calls[j].offset, c[i].off);
                    CHECK_I64(in->calls[j].length, c[i].len);
                    CHECK(in->calls[j].write == c[i].write);
                    j++;
                }
        }
        struct run_point pt;
        memset(&pt, 0, sizeof pt);
        pt.nprocs = nprocs;
        pt.input = in;
        struct plan pl;
        for (int flat = 0; flat < 2; flat++) {
            pt.api = flat ? API_POSIX : API_PHDF5;
            CHECK(pattern_trace.plan(&cfg, &pt, p, 0, &pl) == 0);
            check_plan(&pl, in, c, n, p, flat);
        }
        /* Another process's plan is not made from this part. */
        CHECK(nprocs == 1 || pattern_trace.plan(&cfg, &pt, (p + 1) % nprocs, 0, &pl) < 0);
        trace_input_release(v);
    }
    free(bytes);
}

/* --trace-gather and --trace-align (docs/trace.md, "Transformations") on
 * one process's calls: the calls as adopted, their gaps (a gathered
 * call's the sum of its calls'), the replay's figures and the recorded
 * ones. */
static void check_reshape(void)
{
    static const char text[] = "processes 1\nlevel posix\nfile 0 /a\n"
                               "0 0 write 0 1000 0.000100 0.000010\n"
                               "0 0 write 1000 1000 0.000200 0.000020\n"
                               "0 0 write 2000 3000 0.000300 0.000030\n"
                               "0 0 read 5000 10 0.000400 0.000040\n";
    static const struct {
        struct trace_reshape how;
        int n;
        int64_t off[3], len[3];
        double gap[3];
        int64_t size;
    } cases[] = {
        {{0, 0}, 4, {0}, {0}, {0}, 5010},
        {{4096, 0}, 3, {0, 2000, 5000}, {2000, 3000, 10}, {0.0003, 0.0003, 0.0004}, 5010},
        {{4096, 4096}, 3, {0, 0, 4096}, {4096, 8192, 4096}, {0.0003, 0.0003, 0.0004}, 8192},
        {{0, 3}, 4, {0}, {0}, {0}, 5010},
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        char why[256];
        unsigned char *bytes = NULL;
        size_t len = 0;
        CHECK(trace_text_parse(text, strlen(text), 1, &cases[t].how, &bytes, &len, why,
                               sizeof why) == 0);
        struct config cfg;
        struct cli_msg m;
        void *v = NULL;
        memset(&cfg, 0, sizeof cfg);
        CHECK(trace_adopt(&cfg, 0, bytes, len, &v, &m) == 0);
        free(bytes);
        const struct trace_input *in = v;
        if (!in)
            continue;
        CHECK_I64(in->procs[0].calls, cases[t].n);
        CHECK_I64(in->files[0].size, cases[t].size);
        CHECK_I64(in->files[0].calls[1], 3);
        CHECK_I64(in->files[0].bytes[1], 5000);
        CHECK_I64(in->files[0].moved_calls[1], cases[t].n - 1);
        for (int i = 0; cases[t].len[0] && i < cases[t].n; i++) {
            CHECK_I64(in->calls[i].offset, cases[t].off[i]);
            CHECK_I64(in->calls[i].length, cases[t].len[i]);
            CHECK(fabs(in->calls[i].gap - cases[t].gap[i]) < 1e-9);
        }
        trace_input_release(v);
    }
}

int main(void)
{
    check_text_refusals();
    check_reshape();
    for (int i = 0; i < 500; i++)
        check_random_trace();
    return check_done("test_trace");
}
