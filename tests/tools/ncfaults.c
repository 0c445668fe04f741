/* Test shim (LD_PRELOAD) that makes one local call of the PnetCDF backend
 * fail on one process (lib_fault.h chooses it), as a library short of
 * memory would before the collective call that follows: ncmpi_def_dim or
 * ncmpi_def_var returns NC_ENOMEM without calling the library (before
 * ncmpi_enddef; not in PnetCDF's safe mode, whose definitions are
 * collective themselves), MPI_Info_set returns MPI_ERR_INFO (the hints
 * before ncmpi_create). Every other call goes to the library. */
#define _GNU_SOURCE
#include <pnetcdf.h>

#include "lib_fault.h"

int ncmpi_def_dim(int ncid, const char *name, MPI_Offset len, int *idp)
{
    static long calls;
    if (lib_fault("ncmpi_def_dim", &calls))
        return NC_ENOMEM;
    int (*real)(int, const char *, MPI_Offset, int *) =
        (int (*)(int, const char *, MPI_Offset, int *))lib_fault_real("ncmpi_def_dim");
    return real(ncid, name, len, idp);
}

int ncmpi_def_var(int ncid, const char *name, nc_type type, int ndims, const int *dimids,
                  int *varidp)
{
    static long calls;
    if (lib_fault("ncmpi_def_var", &calls))
        return NC_ENOMEM;
    int (*real)(int, const char *, nc_type, int, const int *, int *) = (int (*)(
        int, const char *, nc_type, int, const int *, int *))lib_fault_real("ncmpi_def_var");
    return real(ncid, name, type, ndims, dimids, varidp);
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    static long calls;
    if (lib_fault("MPI_Info_set", &calls))
        return MPI_ERR_INFO;
    return PMPI_Info_set(info, key, value);
}
