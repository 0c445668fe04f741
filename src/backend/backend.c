/* The static table of I/O backends, one slot per API in run order, and its
 * start-up check. New APIs are added here (behind #ifdef if optional). */
#include "backend/backend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct backend_ops *const backend_table[API_COUNT] = {
    [API_POSIX] = &backend_posix,
    [API_MPIIO] = &backend_mpiio,
    [API_PHDF5] = &backend_phdf5,
#ifdef H5PERF_HAVE_PNETCDF
    [API_PNETCDF] = &backend_pnetcdf,
#endif
};

const struct backend_ops *backend_get(enum api_id api)
{
    if ((int)api < 0 || api >= API_COUNT)
        return NULL;
    return backend_table[api];
}

bool backend_all_ready(MPI_Comm comm, bool ok)
{
    int mine = ok ? 1 : 0, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm) != MPI_SUCCESS)
        return false;
    return all != 0;
}

/* A backend of one of the table's APIs belongs in that API's slot; a test
 * backend, with a descriptor of its own, may stand in any. */
static bool backend_in_slot(const struct api_desc *d, int slot)
{
    for (int i = 0; i < API_COUNT; i++)
        if (d == api_desc((enum api_id)i))
            return i == slot;
    return d != NULL;
}

int backend_check_table(const struct backend_ops *const table[API_COUNT])
{
    for (int i = 0; i < API_COUNT; i++) {
        const struct backend_ops *b = table[i];
        if (!b)
            continue;
        if (!backend_in_slot(b->desc, i) || !b->open || !b->var_begin || !b->transfer ||
            !b->var_end || !b->close || !b->check_source || !b->check || !b->version)
            return -1;
        /* A variant that joins variables needs the call that does (the
         * variants of the backend's own API, as the engine reads them). */
        for (int v = 0; api_variant(b->desc->id, v); v++)
            if (api_variant(b->desc->id, v)->joins_vars && !b->transfer_vars)
                return -1;
    }
    return 0;
}

int backend_check_none(const struct backend_settings *set, const struct plan *plan,
                       const struct pattern_measure *m, char *why, size_t len)
{
    (void)set, (void)plan, (void)m, (void)why, (void)len;
    return 0;
}

int backend_replaceable(const struct stat *st, bool owner, char *why, size_t why_len)
{
    if (!S_ISREG(st->st_mode))
        snprintf(why, why_len, "exists and is not a regular file (a symbolic link?)");
    else if (st->st_nlink > 1)
        snprintf(why, why_len, "has %ju hard links (other names share its data)",
                 (uintmax_t)st->st_nlink);
    else if (owner && st->st_uid != geteuid())
        snprintf(why, why_len, "belongs to user %ju, not to the user running h5perf (%ju)",
                 (uintmax_t)st->st_uid, (uintmax_t)geteuid());
    else
        return 0;
    return -1;
}

int backend_check_flat(const char *path, const struct plan *plan, char *why, size_t len)
{
    struct stat st;
    int64_t need = plan->flat_bytes;
    if (stat(path, &st) < 0) {
        snprintf(why, len, "%s", strerror(errno));
        return -1;
    }
    if ((int64_t)st.st_size < need) {
        snprintf(why, len, "holds %lld bytes, fewer than the %lld this run reads",
                 (long long)st.st_size, (long long)need);
        return -1;
    }
    /* An application pattern's file is its variables' arrays, nothing
     * more: a larger one holds another array, whose elements would be
     * misplaced. */
    if (plan->exact_source && (int64_t)st.st_size != need) {
        snprintf(why, len, "holds %lld bytes, not the %lld of the array this run reads",
                 (long long)st.st_size, (long long)need);
        return -1;
    }
    return 0;
}
