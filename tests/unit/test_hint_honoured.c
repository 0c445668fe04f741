/* Which MPI-IO hints the advisor keeps as candidates
 * (src/workload/hint_honoured.c, docs/advisor.md "Hints honoured"), from
 * given facts: the library, OMPI_MCA_io, what a scratch file's hints read
 * back as, and the file system. Pure: no MPI. */
#include <stdbool.h>

#include "check.h"
#include "workload/hint_honoured.h"

static bool kept(const struct hint_facts *f, const char *key, const char **why)
{
    *why = NULL;
    return hint_honoured(f, key, why);
}

int main(void)
{
    const char *why = NULL;
    /* OMPI_MCA_io: unset and lists naming ompio pick ompio; an exclusion
     * list picks it unless it excludes it. */
    CHECK(hint_io_is_ompio(NULL));
    CHECK(hint_io_is_ompio(""));
    CHECK(hint_io_is_ompio("ompio"));
    CHECK(hint_io_is_ompio("^romio321"));
    CHECK(!hint_io_is_ompio("romio321"));
    CHECK(!hint_io_is_ompio("^ompio"));

    /* Open MPI reports every key back (the made-up one too): no evidence.
     * Under ompio ROMIO's keys go, others stay; striping only on Lustre or
     * GPFS. */
    struct hint_facts ompi = {.open_mpi = true,
                              .probed = true,
                              .echoes_unknown = true,
                              .returned = "romio_cb_write;striping_factor;x_y;"};
    CHECK(!kept(&ompi, "romio_cb_write", &why) && why && strstr(why, "ompio"));
    CHECK(!kept(&ompi, "cb_nodes", &why) && why && strstr(why, "ompio"));
    CHECK(!kept(&ompi, "ind_rd_buffer_size", &why));
    CHECK(kept(&ompi, "x_y", &why) && why == NULL);
    CHECK(!kept(&ompi, "striping_factor", &why) && why && strstr(why, "Lustre"));
    ompi.striping_fs = true;
    CHECK(kept(&ompi, "striping_factor", &why));
    ompi.io = "romio321";
    CHECK(kept(&ompi, "romio_cb_write", &why));
    CHECK(kept(&ompi, "cb_nodes", &why));

    /* A library that reports only what it knows (MPICH's ROMIO): a key is
     * kept only if it came back; the ompio rule is Open MPI's alone. */
    struct hint_facts romio = {.probed = true, .returned = "cb_buffer_size;romio_cb_write;"};
    CHECK(kept(&romio, "romio_cb_write", &why));
    CHECK(!kept(&romio, "romio_cb_read", &why) && why && strstr(why, "MPI_File_get_info"));
    CHECK(!kept(&romio, "romio_cb", &why));
    CHECK(kept(&romio, "cb_buffer_size", &why));
    CHECK(!kept(&romio, "striping_unit", &why) && why && strstr(why, "Lustre"));

    /* No scratch file (its directory missing): nothing is known of the
     * keys, only the file system and the component rules apply. */
    struct hint_facts none = {.returned = ""};
    CHECK(kept(&none, "romio_cb_read", &why));
    CHECK(!kept(&none, "striping_unit", &why));
    return check_done("hint_honoured");
}
