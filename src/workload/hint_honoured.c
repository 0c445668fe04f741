/* Whether an MPI-IO hint can act in this launch (docs/advisor.md, "Hints
 * honoured"). Pure. */
#include "workload/hint_honoured.h"

#include <string.h>

bool hint_io_is_ompio(const char *io)
{
    if (!io || !io[0])
        return true;
    const char *named = strstr(io, "ompio");
    return io[0] == '^' ? named == NULL : named != NULL;
}

/* Is key in list ("a;b;")? */
static bool hint_listed(const char *list, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = list; p && *p;) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        if (len == n && strncmp(p, key, n) == 0)
            return true;
        p = semi ? semi + 1 : p + len;
    }
    return false;
}

/* ROMIO's own keys: its collective buffering, data sieving and
 * independent-I/O settings. */
static bool hint_is_romio(const char *key)
{
    return strncmp(key, "romio_", 6) == 0 || strncmp(key, "cb_", 3) == 0 ||
           strncmp(key, "ind_", 4) == 0;
}

bool hint_honoured(const struct hint_facts *f, const char *key, const char **why)
{
    if (strncmp(key, "striping_", 9) == 0 && !f->striping_fs) {
        *why = "the directory is on neither Lustre nor GPFS, where striping hints act";
        return false;
    }
    if (f->open_mpi && hint_is_romio(key) && hint_io_is_ompio(f->io)) {
        *why = "Open MPI's ompio, this launch's MPI-IO component, does not read ROMIO's hints "
               "(OMPI_MCA_io=romio321 selects ROMIO)";
        return false;
    }
    if (f->probed && !f->echoes_unknown && !hint_listed(f->returned, key)) {
        *why = "this MPI-IO did not report it back for a scratch file (MPI_File_get_info)";
        return false;
    }
    return true;
}
