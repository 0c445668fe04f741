/* What the PnetCDF backend's files share (pnetcdf.c, pnetcdf_file.c).
 * Internal to the backend. */
#ifndef H5PERF_PNETCDF_H
#define H5PERF_PNETCDF_H

#include <pnetcdf.h>

#include "backend/backend.h"

/* The file's type of variable v and the memory type of its elements
 * (docs/pnetcdf.md). */
nc_type pncdf_type(const struct plan_var *v, MPI_Datatype *mem);

/* backend_ops.check_source and .written_end of PnetCDF (pnetcdf_file.c):
 * local, each opens the file alone. */
int pncdf_check_source(const char *path, const struct plan *plan, char *why, size_t len);
int64_t pncdf_written_end(const char *path, char *why, size_t len);

#endif
