/* setup_run(): the validation pipeline. Parse errors are detected on every
 * process; the lowest failing process's line reaches rank 0, which prints it.
 * File-system checks (prefix, probe, existing files, -o) run on rank 0 and are
 * broadcast. Only the probe file is ever created here, and removed at once. */
#include "engine/setup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend.h"
#include "cli/cli.h"
#include "cli/option.h"
#include "api/file_model.h"
#include "cli/sweep.h"
#include "engine/agree.h"
#include "engine/check.h"
#include "engine/context.h"
#include "engine/files.h"
#include "engine/input.h"
#include "engine/fsize.h"
#include "engine/memory.h"
#include "options/options.h"
#include "engine/names.h"
#include "engine/setup_files.h"
#include "engine/tsc.h"
#include "exit_status.h"
#include "report/version.h"

/* Collective: agrees on `ok`; if not, the line of the lowest failing process
 * is printed by world rank 0. Returns true if every process was ok. */
static bool setup_agree(const struct run *run, bool ok, const char *line)
{
    int mine = ok ? run->world_size : run->world_rank, first = 0;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == run->world_size)
        return true;
    char buf[sizeof(struct cli_msg)] = "";
    if (first != 0 && run->world_rank == first)
        MPI_Send(line, (int)strlen(line) + 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
    if (run->world_rank == 0) {
        if (first != 0)
            MPI_Recv(buf, (int)sizeof buf, MPI_CHAR, first, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (run->refusal)
            snprintf(run->refusal->line, sizeof run->refusal->line, "%s", first != 0 ? buf : line);
        else
            fprintf(stderr, "%s\n", first != 0 ? buf : line);
        fflush(stderr);
    }
    return false;
}

/* The timers' clock until setup_choose_clock(), and where the counter is
 * not one. */
static double setup_clock(void)
{
    return MPI_Wtime();
}

/* Collective over MPI_COMM_WORLD: the timers' clock (docs/measuring.md,
 * "The clock"), the same kind on every process: the time-stamp counter
 * where every process can use it, else MPI_Wtime. */
static void setup_choose_clock(struct run *run)
{
    double hz = 0;
    double (*tsc)(void) = tsc_clock_setup(MPI_Wtime, &hz);
    int mine = tsc != NULL, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    run->clock = all ? tsc : setup_clock;
    run->clock_name = all ? "tsc" : "MPI_Wtime";
    run->clock_hz = all ? hz : 0;
}

/* MPI_Dims_create for the session (which cannot call MPI). */
static void setup_dims(int nprocs, int ndims, int *dims)
{
    for (int d = 0; d < ndims; d++)
        dims[d] = 0;
    MPI_Dims_create(nprocs, ndims, dims);
}

/* Local: a variant that needs threads (HDF5's subfiling driver) where MPI
 * was initialised without MPI_THREAD_MULTIPLE (h5perf_threads()). */
static int setup_threads(const struct config *c, struct cli_msg *m)
{
    static const char *const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                         "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    int a = api_need_threads(c->apis, c->api), provided = MPI_THREAD_SINGLE;
    if (a < 0)
        return 0;
    MPI_Query_thread(&provided);
    if (provided == MPI_THREAD_MULTIPLE)
        return 0;
    const struct opt_row *row = api_desc((enum api_id)a)->opts->threads_row;
    const char *level = provided == MPI_THREAD_SERIALIZED ? levels[2]
                        : provided == MPI_THREAD_FUNNELED ? levels[1]
                                                          : levels[0];
    return cli_fail(m,
                    "h5perf: %s '%s': needs MPI initialised with MPI_THREAD_MULTIPLE, which this "
                    "MPI library does not provide (it gives %s)",
                    opt_spelled(c, row), opt_raw(c, row), level);
}

/* Local: command line and environment to a finished config. */
static int setup_parse(struct run *run, int argc, char **argv, struct cli_msg *m,
                       struct cli_warnings *w)
{
    config_init(&run->cfg);
    if (env_parse(&run->cfg, getenv("HDF5_MPI_INFO"), getenv("HDF5_NOCLEANUP"),
                  getenv("HDF5_PARAPREFIX"), MPI_MAX_INFO_KEY, MPI_MAX_INFO_VAL, m) < 0)
        return -1;
    if (opt_parse(argc, argv, &run->cfg, m) < 0)
        return -1;
    if (run->cfg.help || run->cfg.version || run->cfg.advise)
        return 0;
    if (config_finish(&run->cfg, run->world_size, w, m) < 0)
        return -1;
    return setup_threads(&run->cfg, m);
}

/* Collective: the pattern's input from outside the command line (pattern.h,
 * load), read by process 0 alone and sent to every process in *bytes
 * (malloc'd; NULL for a pattern without one): whole, or its common part
 * and the process's own (input_send()), or streamed by load() part by
 * part (input_stream_lend(), input_receive()). Returns true on every
 * process if every process has it; else m holds its refusal (process
 * 0's, or a process's that could not take its part). */
static bool setup_input(const struct run *run, unsigned char **bytes, size_t *len,
                        struct cli_msg *m)
{
    const struct pattern_desc *pd = pattern_of(&run->cfg);
    *bytes = NULL;
    *len = 0;
    if (!pd->load)
        return true;
    /* {the bytes (-1: process 0 failed), whether they were streamed} */
    int64_t head[2] = {-1, 0};
    if (run->world_rank == 0) {
        struct pattern_files files;
        struct input_ctx ctx;
        char where[MEMORY_WHERE_MAX] = "";
        input_files(&files, &ctx);
        /* A pattern whose input divides may stream it (pattern.h). */
        if (pd->input_parts)
            input_stream_lend(&files, &ctx, MPI_COMM_WORLD);
        /* Process 0's reading is counted against what it has, before it
         * reads (docs/differences.md, "Memory"). */
        if (!run->cfg.no_memory_check) {
            files.memory = memory_for_reading(where, sizeof where);
            files.memory_where = where;
        }
        bool ok = pd->load(&run->cfg, &files, bytes, len, m) == 0;
        if (input_stream_end(&ctx, ok, bytes, len))
            return ok;
        if (ok)
            head[0] = (int64_t)*len;
    }
    MPI_Bcast(head, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (head[0] < 0)
        return false;
    if (head[1])
        return input_receive(MPI_COMM_WORLD, head[0], pd->title, bytes, len, m);
    return input_send(pd, MPI_COMM_WORLD, head[0], bytes, len, m);
}

/* Collective: the run plan, on the pattern's input, checked by the
 * pattern and the backends on every process; warnings of runs that
 * will take long into w. */
static bool setup_session(struct run *run, struct cli_msg *m, struct cli_warnings *w)
{
    unsigned char *bytes = NULL;
    size_t len = 0;
    bool ok = setup_input(run, &bytes, &len, m);
    if (!setup_agree(run, ok, m->line)) {
        free(bytes);
        return false;
    }
    /* A pattern whose input divides (pattern.h, input_parts) adopts this
     * process's part. */
    int part = pattern_of(&run->cfg)->input_parts ? run->world_rank : -1;
    ok = session_build_part(&run->session, &run->cfg, bytes, len, part, run->world_rank, setup_dims,
                            m) == 0 &&
         engine_check(&run->session, run->world_rank, m) == 0;
    if (ok)
        engine_warn_slow(&run->session, w);
    free(bytes);
    return setup_agree(run, ok, m->line);
}

/* True if the two streams are one regular file (-o x.json --results x.json,
 * or stdout redirected to the results file); /dev/null may be both. */
static bool setup_same_file(FILE *a, FILE *b)
{
    struct stat sa, sb;
    return fstat(fileno(a), &sa) == 0 && fstat(fileno(b), &sb) == 0 && S_ISREG(sa.st_mode) &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Rank 0: opens path for writing without emptying it yet, so that a run
 * refused afterwards leaves an existing file as it was; *created tells
 * whether the file is new (so that a failure can remove it). */
static FILE *setup_create(const char *path, bool *created)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    *created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_WRONLY | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
        int e = errno;
        close(fd);
        if (*created)
            unlink(path);
        *created = false;
        errno = e;
    }
    return f;
}

/* Rank 0, once the run is accepted: an existing regular file is replaced
 * (emptied), as a shell's > would. */
static int setup_replace(FILE *f)
{
    struct stat st;
    if (!f || f == stdout || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0)
        return 0;
    return ftruncate(fileno(f), 0);
}

/* The --results file is the report too (-o, or standard output). */
static int setup_results_clash(const struct config *c, struct cli_msg *m)
{
    return cli_fail(m,
                    "h5perf: %s '%s': is also the report (%s); give the results a file "
                    "of their own",
                    c->spelled[OPT_RESULTS], c->results,
                    c->output ? c->spelled[OPT_OUTPUT] : "standard output");
}

/* Rank 0: the report stream (stdout or -o) and the --results file; two
 * names of one file are refused before either is created. */
static int setup_open_outputs(struct run *run, struct cli_msg *m)
{
    const struct config *c = &run->cfg;
    if (c->output && c->results && names_same_file(c->output, c->results))
        return setup_results_clash(c, m);
    run->out = stdout;
    if (c->output && !(run->out = setup_create(c->output, &run->out_created)))
        return cli_fail(m, "h5perf: %s '%s': cannot create the report file: %s",
                        c->spelled[OPT_OUTPUT], c->output, strerror(errno));
    run->report = c->format == FORMAT_TEXT ? run->out : NULL;
    if (c->results && !(run->results = setup_create(c->results, &run->results_created)))
        return cli_fail(m, "h5perf: %s '%s': cannot create the results file: %s",
                        c->spelled[OPT_RESULTS], c->results, strerror(errno));
    /* Standard output redirected to the results file is only seen here. */
    if (run->results && setup_same_file(run->out, run->results))
        return setup_results_clash(c, m);
    if (setup_replace(run->out) != 0)
        return cli_fail(m, "h5perf: %s '%s': cannot empty the report file: %s",
                        c->spelled[OPT_OUTPUT], c->output, strerror(errno));
    if (setup_replace(run->results) != 0)
        return cli_fail(m, "h5perf: %s '%s': cannot empty the results file: %s",
                        c->spelled[OPT_RESULTS], c->results, strerror(errno));
    return 0;
}

/* Rank 0, after a refusal: closes what it opened and removes what it
 * created. */
static void setup_close_outputs(struct run *run)
{
    const struct config *c = &run->cfg;
    if (run->out && run->out != stdout)
        fclose(run->out);
    if (run->results && run->results != run->out)
        fclose(run->results);
    if (run->results_created && c->results)
        unlink(c->results);
    if (run->out_created && c->output)
        unlink(c->output);
    /* The $USER level this refused run made: empty, since nothing else was
     * created in it. */
    if (run->dir_created)
        rmdir(run->dir);
    run->dir_created = false;
    run->out = run->report = run->results = NULL;
    run->out_created = run->results_created = false;
}

static int setup_info(struct run *run)
{
    run->info = MPI_INFO_NULL;
    if (!run->cfg.info_defined)
        return 0;
    MPI_Info_create(&run->info);
    for (int i = 0; i < run->cfg.info_count; i++)
        MPI_Info_set(run->info, run->cfg.info[i].key, run->cfg.info[i].value);
    return 0;
}

/* -h or --version, printed by rank 0 on standard output. A write that
 * fails (a full disk, a closed standard output) fails the run, with one
 * line, as a report that cannot be written does. Collective. */
static int setup_print_info(const struct run *run)
{
    int status = EXIT_OK;
    if (run->world_rank == 0) {
        errno = 0;
        int rc;
        if (run->cfg.help) {
            help_print(stdout);
            rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
        } else {
            struct run_context c = {0};
            context_versions(&c);
            rc = report_version(stdout, &c);
        }
        if (rc < 0) {
            fprintf(stderr, "h5perf: cannot write the %s to standard output: %s\n",
                    run->cfg.help ? "help" : "version", strerror(errno ? errno : EIO));
            status = EXIT_RUN_FAILED;
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}
int setup_run(struct run *run, int argc, char **argv)
{
    memset(run, 0, sizeof *run);
    run->info = MPI_INFO_NULL;
    run->clock = setup_clock;
    run->clock_name = "MPI_Wtime";
    MPI_Comm_rank(MPI_COMM_WORLD, &run->world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run->world_size);
    struct cli_msg m = {""};
    struct cli_warnings w = {0};
    bool ok = setup_parse(run, argc, argv, &m, &w) == 0;
    if (!setup_agree(run, ok, m.line))
        return EXIT_USAGE;
    if (run->cfg.help || run->cfg.version)
        return setup_print_info(run);
    setup_choose_clock(run);
    if (run->cfg.advise)
        return SETUP_ADVISE;
    if (!setup_session(run, &m, &w))
        return EXIT_USAGE;
    if (run->world_rank == 0)
        for (int i = 0; i < w.count; i++)
            fprintf(stderr, "%s\n", w.line[i]);
    run->warnings = w;
    if (!setup_agree(run, memory_check(run, &m), m.line) ||
        !setup_agree(run, fsize_check_limit(run, &m) == 0, m.line))
        return EXIT_USAGE;
    if (run->world_rank == 0)
        ok = setup_check_files(run, &m) == 0;
    bool agreed = setup_agree(run, ok, m.line);
    /* Every process uses rank 0's directory (a node-local $USER may differ),
     * and checks its own data file names there; then rank 0 opens the
     * outputs, once nothing else can refuse the run. A refusal undoes what
     * rank 0 made: the outputs and the $USER level. */
    if (agreed) {
        MPI_Bcast(run->dir, (int)sizeof run->dir, MPI_CHAR, 0, MPI_COMM_WORLD);
        agreed = setup_agree(run, setup_check_own_files(run, &m) == 0, m.line);
    }
    if (agreed && run->world_rank == 0)
        ok = setup_open_outputs(run, &m) == 0;
    if (agreed)
        agreed = setup_agree(run, ok, m.line);
    if (!agreed) {
        if (run->world_rank == 0)
            setup_close_outputs(run);
        return EXIT_USAGE;
    }
    setup_info(run);
    return -1;
}

int setup_check(struct run *run, int argc, char **argv, struct cli_msg *m)
{
    memset(run, 0, sizeof *run);
    run->info = MPI_INFO_NULL;
    run->clock = setup_clock;
    run->clock_name = "MPI_Wtime";
    run->refusal = m;
    MPI_Comm_rank(MPI_COMM_WORLD, &run->world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run->world_size);
    struct cli_msg mine = {""};
    struct cli_warnings w = {0};
    m->line[0] = '\0';
    bool ok = setup_agree(run, setup_parse(run, argc, argv, &mine, &w) == 0, mine.line) &&
              setup_session(run, &mine, &w) &&
              setup_agree(run, memory_check(run, &mine), mine.line) &&
              setup_agree(run, fsize_check_limit(run, &mine) == 0, mine.line);
    run->warnings = w;
    return ok ? 0 : -1;
}

void setup_release(struct run *run)
{
    if (run->out && run->out != stdout)
        fclose(run->out);
    if (run->results)
        fclose(run->results);
    run->out = run->report = run->results = NULL;
    if (run->info != MPI_INFO_NULL)
        MPI_Info_free(&run->info);
    session_release(&run->session);
}
