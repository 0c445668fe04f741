/* The MPI-IO backend's datatypes of a plan's runs (backend/mpiio.c):
 * the filetype of one step's runs, and the joined variant's filetype and
 * memory type of several variables' steps (docs/mpiio.md, "Joined calls").
 * Local; builds types and nothing else: no view, no transfer. */
#include "backend/mpiio_types.h"

#include <stdlib.h>

/* One model_runs as a datatype of bytes whose displacements are
 * relative to base: count[1] runs of len, stride[1] apart, repeated
 * count[0] times stride[0] apart. */
static int mpiio_runs_type(const struct model_runs *r, int64_t base, MPI_Datatype *out)
{
    MPI_Datatype row = MPI_DATATYPE_NULL, rows = MPI_DATATYPE_NULL;
    int rc = MPI_Type_create_hvector((int)r->count[1], (int)r->len, (MPI_Aint)r->stride[1],
                                     MPI_BYTE, &row);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_hvector((int)r->count[0], 1, (MPI_Aint)r->stride[0], row, &rows);
    if (rc == MPI_SUCCESS) {
        int one = 1;
        MPI_Aint disp = (MPI_Aint)(r->disp - base);
        rc = MPI_Type_create_struct(1, &one, &disp, &rows, out);
    }
    if (row != MPI_DATATYPE_NULL)
        MPI_Type_free(&row);
    if (rows != MPI_DATATYPE_NULL)
        MPI_Type_free(&rows);
    return rc;
}

/* Whether each of the n runs is one contiguous range of bytes. */
static bool mpiio_runs_plain(const struct model_runs *runs, int n)
{
    for (int i = 0; i < n; i++)
        if (runs[i].count[0] != 1 || runs[i].count[1] != 1)
            return false;
    return true;
}

/* n contiguous runs as one indexed type of bytes (what PnetCDF builds for
 * the runs of its requests): one level for the library to flatten, where
 * a struct of n vectors has three per run. */
static int mpiio_plain_type(const struct model_runs *runs, int n, int64_t base, MPI_Datatype *out)
{
    int *lens = calloc((size_t)n, sizeof *lens);
    MPI_Aint *at = calloc((size_t)n, sizeof *at);
    int rc = lens && at ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        lens[i] = (int)runs[i].len;
        at[i] = (MPI_Aint)(runs[i].disp - base);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_hindexed(n, lens, at, MPI_BYTE, out);
    free(lens);
    free(at);
    return rc;
}

/* The filetype of n runs, one after another in the file, displacements
 * relative to base (the first run's). */
int mpiio_runs_types(const struct model_runs *runs, int n, int64_t base, MPI_Datatype *out)
{
    if (n == 1)
        return mpiio_runs_type(&runs[0], base, out);
    if (mpiio_runs_plain(runs, n))
        return mpiio_plain_type(runs, n, base, out);
    MPI_Datatype *types = calloc((size_t)n, sizeof *types);
    int *ones = calloc((size_t)n, sizeof *ones);
    MPI_Aint *zeros = calloc((size_t)n, sizeof *zeros);
    int rc = types && ones && zeros ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    /* Every entry, so that a failure part-way frees only types made. */
    for (int i = 0; types && i < n; i++)
        types[i] = MPI_DATATYPE_NULL;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        ones[i] = 1;
        rc = mpiio_runs_type(&runs[i], base, &types[i]);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_struct(n, ones, zeros, types, out);
    for (int i = 0; types && i < n; i++)
        if (types[i] != MPI_DATATYPE_NULL)
            MPI_Type_free(&types[i]);
    free(types);
    free(ones);
    free(zeros);
    return rc;
}

/* The byte just past the last run of step s (its runs in file order). */
static int64_t mpiio_step_end(const struct plan_step *s)
{
    int64_t end = 0;
    for (int i = 0; i < s->nruns; i++) {
        const struct model_runs *r = &plan_runs(s)[i];
        if (r->count[0] > 0 && r->count[1] > 0 && r->len > 0) {
            int64_t e = r->disp + (r->count[0] - 1) * r->stride[0] +
                        (r->count[1] - 1) * r->stride[1] + r->len;
            end = e > end ? e : end;
        }
    }
    return end;
}

int mpiio_joined_types(const struct plan_step *steps, int n, void *const *bufs,
                       MPI_Datatype *filetype, MPI_Datatype *memtype, int64_t *disp, int64_t *bytes)
{
    MPI_Datatype *types = calloc((size_t)n, sizeof *types);
    int *ones = calloc((size_t)n, sizeof *ones), *lens = calloc((size_t)n, sizeof *lens);
    MPI_Aint *zeros = calloc((size_t)n, sizeof *zeros), *at = calloc((size_t)n, sizeof *at);
    int rc = types && ones && lens && zeros && at ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    int m = 0;
    int64_t end = 0;
    *disp = *bytes = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        const struct plan_step *s = &steps[i];
        if (s->nruns == 0 || s->bytes == 0)
            continue;
        if (m == 0)
            *disp = plan_runs(s)[0].disp;
        if (plan_runs(s)[0].disp < end)
            rc = MPI_ERR_TYPE;
        else
            rc = mpiio_runs_types(plan_runs(s), s->nruns, *disp, &types[m]);
        end = mpiio_step_end(s);
        ones[m] = 1;
        lens[m] = (int)s->bytes;
        at[m] = (MPI_Aint)((const unsigned char *)bufs[i] - (const unsigned char *)bufs[0]);
        *bytes += s->bytes;
        m += rc == MPI_SUCCESS;
    }
    /* Nothing to move: the default view, and a call of no element (ROMIO
     * 3.2.1 freed an invalid pointer in the next MPI_File_set_view after a
     * view of empty types: tests/mpi/mpiio_joined.py's map). */
    if (rc == MPI_SUCCESS && m == 0)
        *filetype = *memtype = MPI_BYTE;
    else if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_struct(m, ones, zeros, types, filetype);
    if (rc == MPI_SUCCESS && m > 0)
        rc = MPI_Type_commit(filetype);
    if (rc == MPI_SUCCESS && m > 0)
        rc = MPI_Type_create_hindexed(m, lens, at, MPI_BYTE, memtype);
    if (rc == MPI_SUCCESS && m > 0)
        rc = MPI_Type_commit(memtype);
    for (int i = 0; types && i < m; i++)
        MPI_Type_free(&types[i]);
    free(types);
    free(ones);
    free(lens);
    free(zeros);
    free(at);
    return rc;
}
