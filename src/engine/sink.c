/* sink_gather(): lengths then texts gathered to process 0, written in rank
 * order. Collective; no other output path may write per-rank text. */
#include "engine/sink.h"

#include <stdlib.h>
#include <string.h>

int sink_gather(MPI_Comm comm, const char *text, FILE *out, char **kept)
{
    if (kept)
        *kept = NULL;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t n = text ? strlen(text) : 0;
    int len = n > (size_t)(1 << 30) ? 1 << 30 : (int)n;
    int *lens = NULL, *displs = NULL, ok = 1;
    char *all = NULL;
    if (rank == 0) {
        lens = calloc((size_t)size, sizeof *lens);
        displs = calloc((size_t)size, sizeof *displs);
        ok = lens && displs;
    }
    MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, comm);
    if (rank == 0 && ok) {
        long long total = 0;
        for (int i = 0; i < size; i++) {
            displs[i] = (int)total;
            total += lens[i];
        }
        ok = total < (1LL << 31) && (all = malloc((size_t)total + 1)) != NULL;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
    /* Never a silent loss: the texts may be a failure's lines. */
    if (!ok && rank == 0)
        fprintf(stderr, "h5perf: out of memory for the lines of %d processes; they are lost\n",
                size);
    if (ok) {
        MPI_Gatherv(text ? text : "", len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, comm);
        if (rank == 0 && out) {
            for (int i = 0; i < size; i++)
                fwrite(all + displs[i], 1, (size_t)lens[i], out);
            fflush(out);
        }
        if (rank == 0 && kept) {
            /* The texts are contiguous in rank order: terminate and hand over. */
            all[displs[size - 1] + lens[size - 1]] = '\0';
            *kept = all;
            all = NULL;
        }
    }
    free(all);
    free(lens);
    free(displs);
    return ok ? 0 : -1;
}
