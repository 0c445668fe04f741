/* agree_all() and agree_report() (agree.h). Collective only; never aborts. */
#include "engine/agree.h"

#include <string.h>

#include "engine/sink.h"

bool agree_all(MPI_Comm comm, bool ok)
{
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
    return all != 0;
}

void agree_report(MPI_Comm comm, const struct err *e, int world_rank, FILE *out, char **kept)
{
    char line[ERR_LINE_MAX + 2] = "";
    if (e->set) {
        err_format(e, world_rank, line, sizeof line - 1);
        size_t n = strlen(line);
        line[n] = '\n';
        line[n + 1] = '\0';
    }
    sink_gather(comm, line, out, kept);
}
