/* The progress lines of progress.h. The estimate weighs every iteration by
 * the bytes it moves; open and close costs make it optimistic for the
 * smallest runs, which are also the shortest. */
#include "engine/progress.h"

#include <mpi.h>

#include "cli/sweep.h"
#include "pattern/pattern.h"
#include "report/text.h"

/* Bytes one iteration moves per phase at (P, X): files x datasets x size. */
static double progress_bytes(const struct config *cfg, int nprocs, int64_t xfer)
{
    struct pattern_params pp = sweep_pattern_params(cfg, nprocs, xfer);
    struct pattern pt;
    if (pattern_init(&pt, &pp, 0, 0, NULL) < 0)
        return 0.0;
    return (double)cfg->num_files * cfg->num_dsets * (double)pt.dset_bytes;
}

static int progress_phases(const struct config *cfg)
{
    return cfg->write_only || cfg->read_only ? 1 : 2;
}

void progress_init(struct progress *p, const struct config *cfg, bool on, FILE *out)
{
    *p = (struct progress){
        .out = on ? out : NULL, .start = MPI_Wtime(), .phases = progress_phases(cfg)};
    if (!p->out)
        return;
    int apis = 0;
    for (int a = 0; a < API_COUNT; a++)
        apis += (cfg->apis & API_BIT(a)) != 0;
    for (int n = sweep_procs_first(cfg); n != 0; n = sweep_procs_next(cfg, n))
        for (int64_t x = sweep_xfer_first(cfg); x != 0; x = sweep_xfer_next(cfg, x))
            p->total += progress_bytes(cfg, n, x) * apis * cfg->iterations;
    p->total *= p->phases;
}

void progress_begin(struct progress *p, int nprocs, int64_t xfer, enum api_id api, int iteration,
                    int iterations)
{
    if (!p->out)
        return;
    char size[32];
    text_size(size, sizeof size, xfer);
    double share = p->total > 0 ? p->done / p->total : 0.0;
    fprintf(p->out,
            "h5perf: progress: %d process%s, transfer size %s, %s, iteration %d of %d: %.0f%% "
            "done",
            nprocs, nprocs == 1 ? "" : "es", size, api_desc(api)->key, iteration, iterations,
            100.0 * share);
    if (p->done > 0 && p->total > p->done) {
        double left = (MPI_Wtime() - p->start) * (p->total - p->done) / p->done;
        if (left < 10)
            fprintf(p->out, ", about %.1f s left", left);
        else if (left < 600)
            fprintf(p->out, ", about %.0f s left", left);
        else
            fprintf(p->out, ", about %.0f min left", left / 60);
    }
    fputc('\n', p->out);
    fflush(p->out);
}

void progress_add(struct progress *p, int64_t bytes)
{
    if (p->out)
        p->done += (double)bytes * p->phases;
}

void progress_end(struct progress *p)
{
    if (!p->out)
        return;
    fprintf(p->out, "h5perf: progress: done in %.1f s\n", MPI_Wtime() - p->start);
    fflush(p->out);
}
