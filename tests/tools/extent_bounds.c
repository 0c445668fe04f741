/* Prints the bounds HDF5's model of its files (api/file_model.h) puts on the end
 * of the HDF5 data file of h5perf's own arguments started with one process,
 * "LOWER UPPER", for the MPI case that checks them against the files the
 * HDF5 this build links writes (tests/mpi/layouts_1d.py). The file is the
 * one the session's first HDF5 run point writes, as its pattern measures it.
 * Pure: no MPI, no HDF5. */
#include <inttypes.h>
#include <stdio.h>

#include "api/api.h"
#include "cli/cli.h"
#include "session/session.h"
#include "options/options.h"

/* One process: every grid is 1 x 1 x 1. */
static void one_process_dims(int nprocs, int ndims, int *dims)
{
    (void)nprocs;
    for (int d = 0; d < ndims; d++)
        dims[d] = 1;
}

int main(int argc, char **argv)
{
    struct config cfg;
    struct cli_msg msg;
    struct cli_warnings w;
    struct session s;
    config_init(&cfg);
    if (opt_parse(argc, argv, &cfg, &msg) != 0 || config_finish(&cfg, 1, &w, &msg) != 0 ||
        session_build_input(&s, &cfg, NULL, 0, one_process_dims, &msg) != 0) {
        fprintf(stderr, "%s\n", msg.line);
        return 2;
    }
    int rc = 2;
    for (int i = 0; i < s.npoints; i++) {
        const struct pattern_measure *m = &s.points[i].m;
        if (s.points[i].p.api != API_PHDF5)
            continue;
        struct extent_file f = {m->nvars, m->var_bytes, m->max_chunk};
        printf("%" PRId64 " %" PRId64 "\n", hdf5_model.extent(&f, cfg.align, cfg.threshold, false),
               hdf5_model.extent(&f, cfg.align, cfg.threshold, true));
        rc = 0;
        break;
    }
    if (rc != 0)
        fprintf(stderr, "extent_bounds: no HDF5 run point (give -A phdf5)\n");
    session_release(&s);
    return rc;
}
