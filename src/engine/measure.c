/* measure.h: reductions of the stonewall account, the repetitions and the
 * latency histograms; outside every timer. */
#include "engine/measure.h"

#include "engine/agree.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define BYTES_PER_MB 1048576.0

void measure_stonewall(MPI_Comm comm, const struct plan *plan, int phase,
                       const struct phase_deadline *dl, struct stonewall_stat *sw)
{
    int64_t lo, hi;
    double stop;
    MPI_Allreduce(&dl->calls_before, &lo, 1, MPI_INT64_T, MPI_MIN, comm);
    MPI_Allreduce(&dl->calls_before, &hi, 1, MPI_INT64_T, MPI_MAX, comm);
    MPI_Allreduce(&dl->stop_seconds, &stop, 1, MPI_DOUBLE, MPI_MAX, comm);
    /* The data every process had written when the last one stopped: each
     * process's first lo calls. */
    int64_t mine = plan_calls_bytes(plan, phase, &dl->done, lo), all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, comm);
    sw->calls_min += lo;
    sw->calls_max += hi;
    sw->calls += dl->calls;
    sw->bytes += all;
    sw->seconds += stop;
}

void measure_repeat(MPI_Comm comm, double seconds, int64_t bytes, struct repeat_acc *acc)
{
    int rank;
    double slowest = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    if (rank != 0)
        return;
    double mbs = slowest > 0 ? (double)bytes / BYTES_PER_MB / slowest : 0;
    acc->min = acc->count == 0 || mbs < acc->min ? mbs : acc->min;
    acc->max = acc->count == 0 || mbs > acc->max ? mbs : acc->max;
    acc->sum += mbs;
    acc->sq += mbs * mbs;
    acc->count++;
}

void measure_repeat_stat(const struct repeat_acc *acc, struct repeat_stat *out)
{
    memset(out, 0, sizeof *out);
    if (acc->count == 0)
        return;
    out->count = acc->count;
    out->mbs_min = acc->min;
    out->mbs_max = acc->max;
    out->mbs_mean = acc->sum / acc->count;
    double var =
        acc->count > 1 ? (acc->sq - acc->sum * acc->sum / acc->count) / (acc->count - 1) : 0;
    out->mbs_sd = var > 0 ? sqrt(var) : 0;
}

bool measure_latency(MPI_Comm comm, const struct latency_hist *lat, struct api_result *res,
                     struct err *e)
{
    enum { N = 2 * LATENCY_CALLS, CELLS = LATENCY_BUCKETS + 1 };
    int rank;
    MPI_Comm_rank(comm, &rank);
    uint64_t *mine = malloc((size_t)N * CELLS * sizeof *mine);
    uint64_t *sum = rank == 0 ? malloc((size_t)N * CELLS * sizeof *sum) : NULL;
    struct latency_hist *merged = rank == 0 && res ? malloc(sizeof *merged) : NULL;
    uint64_t lo[N], hi[N], lo_all[N], hi_all[N];
    bool ok = mine != NULL && (rank != 0 || sum != NULL) && (!res || merged != NULL);
    if (!ok)
        err_set(e, "h5perf", "merge latency histograms", "", -1, -1, "out of memory");
    if (agree_all(comm, ok)) {
        for (int h = 0; h < N; h++) {
            memcpy(mine + (size_t)h * CELLS, lat[h].count, sizeof lat[h].count);
            mine[(size_t)h * CELLS + LATENCY_BUCKETS] = lat[h].n;
            lo[h] = lat[h].min_ns;
            hi[h] = lat[h].max_ns;
        }
        MPI_Reduce(mine, sum, N * CELLS, MPI_UINT64_T, MPI_SUM, 0, comm);
        MPI_Reduce(lo, lo_all, N, MPI_UINT64_T, MPI_MIN, 0, comm);
        MPI_Reduce(hi, hi_all, N, MPI_UINT64_T, MPI_MAX, 0, comm);
        for (int h = 0; merged && h < N; h++) {
            memcpy(merged->count, sum + (size_t)h * CELLS, sizeof merged->count);
            merged->n = sum[(size_t)h * CELLS + LATENCY_BUCKETS];
            merged->min_ns = lo_all[h];
            merged->max_ns = hi_all[h];
            struct latency_summary *s = &res->latency[h / LATENCY_CALLS][h % LATENCY_CALLS];
            latency_summary_release(s);
            if (latency_summarize(merged, s) < 0 && !e->set)
                err_set(e, "h5perf", "summarize latency histograms", "", -1, -1, "out of memory");
        }
        /* Rank 0's summaries are the last that can fail. */
        ok = !e->set;
        ok = agree_all(comm, ok);
    } else {
        ok = false;
    }
    free(merged);
    free(mine);
    free(sum);
    return ok;
}
