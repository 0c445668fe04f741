/* The MPI-IO backend's datatypes of a plan's runs (backend/mpiio.c):
 * local, they build types and set nothing. Each returns an MPI status;
 * a type it made before failing is left in its output for the caller to
 * free (the outputs are MPI_DATATYPE_NULL before). */
#ifndef H5PERF_MPIIO_TYPES_H
#define H5PERF_MPIIO_TYPES_H

#include <mpi.h>
#include <stdint.h>

#include "plan/plan.h"

/* The filetype of n runs, one after another in the file, displacements
 * relative to base (the first run's); not committed. */
int mpiio_runs_types(const struct model_runs *runs, int n, int64_t base, MPI_Datatype *out);

/* The joined view's types of the n steps (each of another variable):
 * *filetype each step's runs at its place, displacements relative to
 * *disp, the first run's; *memtype each step's bytes at its buffer
 * (bufs[i]), relative to bufs[0]; both committed, or MPI_BYTE both when no
 * step moves a byte (*bytes, their sum, 0). A view's displacements must
 * not go back: the variables' steps follow one another in the file, else
 * MPI_ERR_TYPE. */
int mpiio_joined_types(const struct plan_step *steps, int n, void *const *bufs,
                       MPI_Datatype *filetype, MPI_Datatype *memtype, int64_t *disp,
                       int64_t *bytes);

#endif
