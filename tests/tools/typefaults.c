/* Test shim (LD_PRELOAD) that makes MPI datatype constructors fail, through
 * the MPI profiling interface, as a library short of memory would: on rank
 * $H5PERF_TYPE_FAULT_RANK of MPI_COMM_WORLD, every call of the constructor
 * $H5PERF_TYPE_FAULT names ("contiguous": MPI_Type_contiguous, "hvector":
 * MPI_Type_create_hvector, "hindexed": MPI_Type_create_hindexed) returns
 * MPI_ERR_TYPE without making a type.
 * Every other call goes to the library (PMPI_). Set it on the ranks only
 * (mpiexec ... env LD_PRELOAD=...), not on mpiexec. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int type_fault(const char *name)
{
    const char *which = getenv("H5PERF_TYPE_FAULT");
    const char *rank = getenv("H5PERF_TYPE_FAULT_RANK");
    int me = -1;
    if (!which || !rank || strcmp(which, name) != 0)
        return 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    return me == atoi(rank);
}

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (type_fault("contiguous")) {
        *newtype = MPI_DATATYPE_NULL;
        return MPI_ERR_TYPE;
    }
    return PMPI_Type_contiguous(count, oldtype, newtype);
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    if (type_fault("hvector")) {
        *newtype = MPI_DATATYPE_NULL;
        return MPI_ERR_TYPE;
    }
    return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

int MPI_Type_create_hindexed(int count, const int lens[], const MPI_Aint displs[],
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (type_fault("hindexed")) {
        *newtype = MPI_DATATYPE_NULL;
        return MPI_ERR_TYPE;
    }
    return PMPI_Type_create_hindexed(count, lens, displs, oldtype, newtype);
}
