/* h5perf: a parallel I/O benchmark for POSIX, MPI-IO, parallel HDF5 and
 * PnetCDF. The program is h5perf_program() on h5perf's own backends. */
#include <stddef.h>

#include "program.h"

int main(int argc, char **argv)
{
    return h5perf_program(argc, argv, NULL);
}
