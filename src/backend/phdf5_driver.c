/* The HDF5 backend's file drivers (docs/hdf5.md): MPI-IO, or subfiling
 * (HDF5 1.14 and newer built with it), which stores the file as a stub
 * and subfiles striped by its I/O concentrators, named after the stub's
 * inode. The subfiling driver takes its I/O concentrators per host, and
 * gives the stripe size precedence, from its environment; h5perf's
 * options, where given, are set there too. Must not print, time or exit. */
#include "backend/phdf5.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "api/hdf5_options.h"

#ifdef H5_HAVE_SUBFILING_VFD
#include <H5FDsubfiling.h>

/* Sets variable name to a whole number (an option given). */
static int phdf5_setenv(const char *name, int64_t v)
{
    char text[32];
    snprintf(text, sizeof text, "%" PRId64, v);
    return setenv(name, text, 1);
}

static int phdf5_subfiling(struct backend_file *f, const struct backend_ctx *ctx, struct err *e)
{
    const struct hdf5_settings *h = phdf5_settings(ctx->set);
    H5FD_subfiling_config_t cfg;
    if ((h->ioc_per_node > 0 && phdf5_setenv(H5FD_SUBFILING_IOC_PER_NODE, h->ioc_per_node) != 0) ||
        (h->stripe > 0 && phdf5_setenv(H5FD_SUBFILING_STRIPE_SIZE, h->stripe) != 0))
        return err_set(e, "HDF5", "file access properties", f->path, -1, -1,
                       "cannot set the subfiling driver's environment");
    /* The defaults first (with the IOC driver's own property list, which
     * is ours to close), then the stripe given. */
    if (H5Pset_mpi_params(f->fapl, ctx->comm, ctx->info) < 0 ||
        H5Pget_fapl_subfiling(f->fapl, &cfg) < 0)
        return phdf5_fail(f, "subfiling properties", e);
    if (h->stripe > 0)
        cfg.shared_cfg.stripe_size = h->stripe;
    herr_t rc = H5Pset_fapl_subfiling(f->fapl, &cfg);
    if (rc < 0)
        phdf5_fail(f, "subfiling properties", e);
    if (cfg.ioc_fapl_id >= 0)
        H5Pclose(cfg.ioc_fapl_id);
    f->subfiled = rc >= 0;
    return rc < 0 ? -1 : 0;
}
#endif

int phdf5_driver(struct backend_file *f, const struct backend_ctx *ctx, struct err *e)
{
    if (hdf5_variant_driver(ctx->set->variant) == HDF5_DRIVER_SUBFILING) {
#ifdef H5_HAVE_SUBFILING_VFD
        return phdf5_subfiling(f, ctx, e);
#else
        return err_set(e, "HDF5", "file access properties", f->path, -1, -1,
                       "this HDF5 has no subfiling driver (validation missed it)");
#endif
    }
    if (H5Pset_fapl_mpio(f->fapl, ctx->comm, ctx->info) < 0)
        return phdf5_fail(f, "file access properties", e);
    return 0;
}

/* HDF5_DRIVER_SUBFILING's files beside the stub: <name>.subfile_<inode>_
 * <i>_of_<n> and <name>.subfile_<inode>.config (H5FDsubfiling.h). */
void phdf5_side_name(struct backend_file *f, char *buf, size_t len)
{
    struct stat st;
    buf[0] = '\0';
    if (f->subfiled && stat(f->path, &st) == 0)
        snprintf(buf, len, ".subfile_%ju", (uintmax_t)st.st_ino);
}

int phdf5_driver_check(const struct backend_settings *set, char *why, size_t len)
{
    static const char *const elsewhere[] = {"H5FD_SUBFILING_SUBFILE_PREFIX",
                                            "H5FD_SUBFILING_CONFIG_FILE_PREFIX"};
    if (hdf5_variant_driver(set->variant) != HDF5_DRIVER_SUBFILING)
        return 0;
    for (size_t i = 0; i < sizeof elsewhere / sizeof elsewhere[0]; i++) {
        const char *v = getenv(elsewhere[i]);
        if (v && *v) {
            snprintf(why, len,
                     "%s puts the subfiling driver's files outside the data files' directory, "
                     "where h5perf would not remove them; unset it",
                     elsewhere[i]);
            return BACKEND_REFUSED;
        }
    }
    return 0;
}
