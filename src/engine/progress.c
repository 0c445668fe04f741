/* The progress lines of progress.h. The estimate weighs every iteration by
 * the bytes it moves; open and close costs make it optimistic for the
 * smallest runs, which are also the shortest. */
#include "engine/progress.h"

#include <mpi.h>

static int progress_phases(const struct config *cfg)
{
    return cfg->write_only || cfg->read_only ? 1 : 2;
}

void progress_init(struct progress *p, const struct session *s, bool on, FILE *out)
{
    *p = (struct progress){
        .out = on ? out : NULL, .start = MPI_Wtime(), .phases = progress_phases(s->cfg)};
    if (!p->out)
        return;
    /* Bytes one iteration moves per phase: files x datasets x size. */
    for (int i = 0; i < s->npoints; i++)
        p->total += (double)s->points[i].m.phase_bytes * s->cfg->iterations;
    p->total *= p->phases;
}

void progress_begin(struct progress *p, const struct session_point *sp, int iteration,
                    int iterations)
{
    if (!p->out)
        return;
    const struct run_point *pt = &sp->p;
    double share = p->total > 0 ? p->done / p->total : 0.0;
    fprintf(p->out, "h5perf: progress: %d process%s, %s, %s, iteration %d of %d: %.0f%% done",
            pt->nprocs, pt->nprocs == 1 ? "" : "es", sp->label, api_desc(pt->api)->key, iteration,
            iterations, 100.0 * share);
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
