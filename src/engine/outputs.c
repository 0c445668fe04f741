/* outputs_finish(): see outputs.h. The writers format; this file only
 * chooses the streams, closes them and turns a write error into a failure. */
#include "engine/outputs.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "engine/context.h"
#include "exit_status.h"
#include "report/csv.h"
#include "report/json.h"
#include "pattern/pattern.h"
#include "options/options.h"

static int outputs_document(FILE *f, enum report_format format, const struct config *cfg,
                            const struct run_context *ctx, const struct results_log *log)
{
    struct report_settings rs;
    config_report_settings(cfg, &rs);
    if (format == FORMAT_JSON) {
        struct json_parts parts;
        config_json_parts(cfg, &parts);
        return json_write(f, &rs, &parts, ctx, log);
    }
    if (format == FORMAT_CSV)
        return csv_write(f, &rs, log);
    return 0;
}

/* Flushes and (unless stdout) closes f; false, with errno, if anything
 * written to it was lost. */
static bool outputs_close(FILE *f, bool ok)
{
    int saved = errno;
    ok = fflush(f) == 0 && !ferror(f) && ok;
    if (!ok)
        saved = errno;
    if (f != stdout && fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    errno = saved;
    return ok;
}

static void outputs_complain(const char *what, const char *name)
{
    fprintf(stderr, "h5perf: cannot write the %s to %s%s%s: %s\n", what, name ? "'" : "",
            name ? name : "standard output", name ? "'" : "", strerror(errno));
}

int outputs_finish(struct run *run, struct run_context *ctx, const struct results_log *log,
                   int status)
{
    const struct config *c = &run->cfg;
    int bad = 0;
    if (run->world_rank == 0) {
        context_end(ctx, status);
        const struct pattern_report *rep = run->session.pattern->report;
        if (run->report && rep->footer)
            rep->footer(run->report, c, log);
        bool ok = outputs_document(run->out, c->format, c, ctx, log) == 0;
        if (!outputs_close(run->out, ok)) {
            outputs_complain(c->format == FORMAT_TEXT ? "report" : "results", c->output);
            bad = 1;
        }
        if (run->results) {
            ok = outputs_document(run->results, c->results_format, c, ctx, log) == 0;
            if (!outputs_close(run->results, ok)) {
                outputs_complain("results", c->results);
                bad = 1;
            }
        }
        run->out = run->report = run->results = NULL;
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad && status == EXIT_OK ? EXIT_RUN_FAILED : status;
}
