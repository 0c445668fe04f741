/* MPI-IO's own options (--mpiio.*, docs/mpiio.md) and the variants they
 * choose: a call per variable and step, and with --mpiio.joined step k of
 * every variable of a file in one call through one file view joining the
 * variables' parts (a flag that chooses a variant and nothing else: the
 * backend reads the run point's variant); --mpiio.atomic, MPI-IO's atomic
 * mode on every file (read by the backend, backend/mpiio.c, in the
 * settings it is handed). Pure. */
#ifndef H5PERF_MPIIO_OPTIONS_H
#define H5PERF_MPIIO_OPTIONS_H

#include <stdbool.h>

#include "api/api.h"

/* MPI-IO's own settings (--mpiio.*), one field per row of mpiio_options.c,
 * which store them in the configuration's MPI-IO api_settings. Known to
 * these two files only. */
struct mpiio_settings {
    int joined;  /* --mpiio.joined: enum opt_join */
    bool atomic; /* --mpiio.atomic: MPI_File_set_atomicity(fh, 1) after each open */
};

static inline const struct mpiio_settings *mpiio_settings_of(const struct api_settings *s)
{
    return (const struct mpiio_settings *)(const void *)s->own.bytes;
}

/* Variant v of MPI-IO (api/api.h). */
enum mpiio_variant { MPIIO_PLAIN = 0, MPIIO_JOINED, MPIIO_VARIANT_COUNT };

/* Its row the advisor offers as a choice (docs/advisor.md, "Choices"). */
extern const struct opt_row mpiio_joined_row;

#endif
