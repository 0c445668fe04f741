/* --advise's check of the search's MPI-IO hints (docs/advisor.md, "Hints
 * honoured"): what the MPI library keeps of a scratch file's hints, its
 * MPI-IO component and the data directory's file system decide which
 * hints are candidates. The baseline's hints are the application's and
 * stay as they are. */
#include "advisor/advise_hints.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "workload/hint_honoured.h"

#define ADVISE_PROBE_KEY "h5perf_no_such_hint"
#define ADVISE_LUSTRE    0x0bd00bd0UL
#define ADVISE_GPFS      0x47504653UL

/* Rank 0: the scratch file's hints as the library reports them, and the
 * directory's file system, into f (returned: room for len bytes). */
static void advise_hints_probe(const struct run *run, const struct workload *w,
                               struct hint_facts *f, char *returned, size_t len)
{
    /* The quiet runs write under HDF5_PARAPREFIX (names.h): the same file
     * system. */
    const char *dir = run->cfg.paraprefix && run->cfg.paraprefix[0] ? run->cfg.paraprefix : ".";
    char path[SETUP_PATH_MAX + 64];
    size_t dl = strlen(dir);
    snprintf(path, sizeof path, "%s%s.h5perf-hints-%ld", dir, dir[dl - 1] != '/' ? "/" : "",
             (long)getpid());
    MPI_Info info;
    MPI_Info_create(&info);
    for (int h = 0; h < w->search.nhints; h++)
        if (w->search.hints[h].n > 0)
            MPI_Info_set(info, w->search.hints[h].key, w->search.hints[h].values[0]);
    MPI_Info_set(info, ADVISE_PROBE_KEY, "1");
    MPI_File fh;
    int mode = MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE;
    returned[0] = '\0';
    if (MPI_File_open(MPI_COMM_SELF, path, mode, info, &fh) == MPI_SUCCESS) {
        MPI_Info got;
        int nkeys = 0;
        if (MPI_File_get_info(fh, &got) == MPI_SUCCESS) {
            f->probed = true;
            MPI_Info_get_nkeys(got, &nkeys);
            size_t at = 0;
            for (int k = 0; k < nkeys; k++) {
                char key[MPI_MAX_INFO_KEY + 1];
                MPI_Info_get_nthkey(got, k, key);
                if (strcmp(key, ADVISE_PROBE_KEY) == 0)
                    f->echoes_unknown = true;
                int n = snprintf(returned + at, len - at, "%s;", key);
                if (n > 0 && (size_t)n < len - at)
                    at += (size_t)n;
            }
            MPI_Info_free(&got);
        }
        MPI_File_close(&fh);
    }
    MPI_Info_free(&info);
#ifdef __linux__
    struct statfs sf;
    if (statfs(dir, &sf) == 0) {
        unsigned long magic = (unsigned long)sf.f_type & 0xffffffffUL;
        f->striping_fs = magic == ADVISE_LUSTRE || magic == ADVISE_GPFS;
    }
#endif
}

/* Rank 0: key added to the keys left out for reason why. */
static void advise_hints_note(struct advise_hints_left *left, const char *key, const char *why)
{
    int i = 0;
    while (i < left->n && left->why[i] != why)
        i++;
    if (i == left->n) {
        if (left->n == (int)(sizeof left->why / sizeof left->why[0]))
            return;
        left->why[left->n++] = why;
        left->keys[i][0] = '\0';
    }
    size_t at = strlen(left->keys[i]);
    snprintf(left->keys[i] + at, sizeof left->keys[i] - at, "%s%s", at ? ", " : "", key);
}

void advise_hints_filter(const struct run *run, struct workload *w, struct advise_hints_left *left)
{
    int drop[WORKLOAD_MAX_HINTS] = {0};
    left->n = 0;
    if (run->world_rank == 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING], returned[4096];
        int vlen = 0;
        MPI_Get_library_version(version, &vlen);
        struct hint_facts f = {.open_mpi = strstr(version, "Open MPI") != NULL,
                               .io = getenv("OMPI_MCA_io"),
                               .returned = returned};
        advise_hints_probe(run, w, &f, returned, sizeof returned);
        for (int h = 0; h < w->search.nhints; h++) {
            const char *why = NULL;
            if (!hint_honoured(&f, w->search.hints[h].key, &why)) {
                drop[h] = 1;
                advise_hints_note(left, w->search.hints[h].key, why);
            }
        }
    }
    MPI_Bcast(drop, WORKLOAD_MAX_HINTS, MPI_INT, 0, MPI_COMM_WORLD);
    int kept = 0;
    for (int h = 0; h < w->search.nhints; h++)
        if (!drop[h])
            w->search.hints[kept++] = w->search.hints[h];
    w->search.nhints = kept;
}
