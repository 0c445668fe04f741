/* Test shim (LD_PRELOAD) that records, without touching h5perf's code,
 * which MPI-IO data calls a process made, through MPI's profiling
 * interface (each call counted, then made as PMPI_File_...): at exit it
 * writes to $H5PERF_CALLS_LOG.<pid> one line per kind of call it saw,
 *   MPI_File_write_at_all <calls>, MPI_File_read_at <calls>, ...
 *                                 the transfers (write/read, explicit
 *                                 offset or view's pointer, independent
 *                                 or _all)
 *   MPI_File_iwrite_at <calls>, MPI_File_iread_at <calls>
 *                                 the nonblocking transfers started
 *   MPI_Wait <calls>              the requests completed (the madbench
 *                                 pattern's asynchronous mode)
 *   MPI_File_set_view <calls>     the views set
 *   MPI_File_set_atomicity <calls>
 *                                 the calls that turned atomic mode on
 *                                 (flag true; --mpiio.atomic)
 *   MPI_Allreduce <calls>, MPI_Barrier <calls>
 *                                 the process's agreements and barriers
 *                                 (h5perf's and its libraries'),
 *   MPI_Barrier/part <calls>      those of its barriers on a communicator
 *                                 of fewer processes than MPI_COMM_WORLD
 *                                 (the madbench pattern's gangs), and
 *   MPI_File_open/dev/null <calls>
 *                                 the opens of /dev/null (the MPI-IO
 *                                 library's start), where
 *                                 H5PERF_CALLS_ALL is set
 * so that tests/mpi/mpiio_joined.py can tell a call per variable from
 * every variable's step moved in one call (docs/mpiio.md, "Joined
 * calls"), tests/mpi/pnetcdf.py that h5perf's agreements do not grow
 * with the variables of a joined phase (docs/design.md, "Moving every
 * variable in one call"), and tests/mpi/madbench_gangs.py which barriers
 * are a gang's (docs/madbench.md, "Gangs"). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls_log.h"

enum {
    MC_WRITE,
    MC_WRITE_ALL,
    MC_WRITE_AT,
    MC_WRITE_AT_ALL,
    MC_READ,
    MC_READ_ALL,
    MC_READ_AT,
    MC_READ_AT_ALL,
    MC_SET_VIEW,
    MC_SET_ATOMICITY,
    MC_IWRITE_AT,
    MC_IREAD_AT,
    MC_WAIT,
    MC_ALLREDUCE,
    MC_BARRIER,
    MC_BARRIER_PART,
    MC_OPEN_DEVNULL,
    MC_KINDS
};
static const char *const call_names[MC_KINDS] = {"MPI_File_write",
                                                 "MPI_File_write_all",
                                                 "MPI_File_write_at",
                                                 "MPI_File_write_at_all",
                                                 "MPI_File_read",
                                                 "MPI_File_read_all",
                                                 "MPI_File_read_at",
                                                 "MPI_File_read_at_all",
                                                 "MPI_File_set_view",
                                                 "MPI_File_set_atomicity",
                                                 "MPI_File_iwrite_at",
                                                 "MPI_File_iread_at",
                                                 "MPI_Wait",
                                                 "MPI_Allreduce",
                                                 "MPI_Barrier",
                                                 "MPI_Barrier/part",
                                                 "MPI_File_open/dev/null"};
static long calls[MC_KINDS];

__attribute__((destructor)) static void calls_write(void)
{
    FILE *f = calls_log_open();
    if (!f)
        return;
    int kinds = getenv("H5PERF_CALLS_ALL") ? MC_KINDS : MC_ALLREDUCE;
    for (int k = 0; k < kinds; k++)
        if (calls[k])
            fprintf(f, "%s %ld\n", call_names[k], calls[k]);
    fclose(f);
}

#define MOVE(NAME, KIND, BUF)                                                                      \
    int MPI_File_##NAME(MPI_File fh, BUF buf, int count, MPI_Datatype type, MPI_Status *st)        \
    {                                                                                              \
        calls[KIND]++;                                                                             \
        return PMPI_File_##NAME(fh, buf, count, type, st);                                         \
    }
#define MOVE_AT(NAME, KIND, BUF)                                                                   \
    int MPI_File_##NAME(MPI_File fh, MPI_Offset off, BUF buf, int count, MPI_Datatype type,        \
                        MPI_Status *st)                                                            \
    {                                                                                              \
        calls[KIND]++;                                                                             \
        return PMPI_File_##NAME(fh, off, buf, count, type, st);                                    \
    }

MOVE(write, MC_WRITE, const void *)
MOVE(write_all, MC_WRITE_ALL, const void *)
MOVE(read, MC_READ, void *)
MOVE(read_all, MC_READ_ALL, void *)
MOVE_AT(write_at, MC_WRITE_AT, const void *)
MOVE_AT(write_at_all, MC_WRITE_AT_ALL, const void *)
MOVE_AT(read_at, MC_READ_AT, void *)
MOVE_AT(read_at_all, MC_READ_AT_ALL, void *)

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char *datarep, MPI_Info info)
{
    calls[MC_SET_VIEW]++;
    return PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
}

int MPI_File_set_atomicity(MPI_File fh, int flag)
{
    if (flag)
        calls[MC_SET_ATOMICITY]++;
    return PMPI_File_set_atomicity(fh, flag);
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset off, const void *buf, int count, MPI_Datatype type,
                       MPI_Request *req)
{
    calls[MC_IWRITE_AT]++;
    return PMPI_File_iwrite_at(fh, off, buf, count, type, req);
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset off, void *buf, int count, MPI_Datatype type,
                      MPI_Request *req)
{
    calls[MC_IREAD_AT]++;
    return PMPI_File_iread_at(fh, off, buf, count, type, req);
}

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
    calls[MC_WAIT]++;
    return PMPI_Wait(req, st);
}

int MPI_Allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    calls[MC_ALLREDUCE]++;
    return PMPI_Allreduce(in, out, count, type, op, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    int n = 0, world = 0;
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_size(MPI_COMM_WORLD, &world);
    calls[MC_BARRIER]++;
    calls[MC_BARRIER_PART] += n < world;
    return PMPI_Barrier(comm);
}

int MPI_File_open(MPI_Comm comm, const char *name, int mode, MPI_Info info, MPI_File *fh)
{
    if (strcmp(name, "/dev/null") == 0)
        calls[MC_OPEN_DEVNULL]++;
    return PMPI_File_open(comm, name, mode, info, fh);
}
