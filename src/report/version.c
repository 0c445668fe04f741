/* report_version(): --version's lines from the run context's versions, the
 * fields the JSON writer (json.c) records as h5perf_version, h5perf_commit,
 * build, hdf5_version, mpi_library, mpi_version and api_versions. It only
 * writes to the stream it is given. */
#include "report/version.h"

int report_version(FILE *out, const struct run_context *c)
{
    fprintf(out, "h5perf %s\n", c->version);
    fprintf(out, "commit: %s\n", c->commit);
    fprintf(out, "build: %s; %s; %s\n", c->build_type, c->compiler, c->c_flags);
    fprintf(out, "hdf5: %s\n", c->hdf5_version);
    fprintf(out, "mpi: %s (MPI %s)\n", c->mpi_library, c->mpi_version);
    fprintf(out, "apis:");
    for (int a = 0; a < API_COUNT; a++)
        if (api_built((enum api_id)a))
            fprintf(out, " %s", api_descs[a].key);
    fprintf(out, "\n");
    for (int a = 0; a < API_COUNT; a++)
        if (c->api_versions[a][0])
            fprintf(out, "%s: %s\n", api_descs[a].key, c->api_versions[a]);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
