/* Prints the bounds extent_hdf5() (cli/extent.h) puts on the end of the HDF5
 * data file of h5perf's own arguments started with one process, "LOWER
 * UPPER", for the MPI case that checks them against the files the HDF5 this
 * build links writes (tests/mpi/layouts_1d.py). Pure: no MPI, no HDF5. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/extent.h"

int main(int argc, char **argv)
{
    struct config cfg;
    struct cli_msg msg;
    struct cli_warnings w;
    config_init(&cfg);
    if (opt_parse(argc, argv, &cfg, &msg) != 0 || config_finish(&cfg, 1, &w, &msg) != 0) {
        fprintf(stderr, "%s\n", msg.line);
        return 2;
    }
    printf("%" PRId64 " %" PRId64 "\n", extent_hdf5(&cfg, 1, false), extent_hdf5(&cfg, 1, true));
    return 0;
}
