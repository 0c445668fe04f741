/* Test shim (LD_PRELOAD) that makes parallel HDF5 really fall back from
 * collective I/O, without touching h5perf's code: on the MPI rank
 * $H5PERF_CONVERT_RANK (Open MPI's OMPI_COMM_WORLD_RANK or MPICH's
 * PMI_RANK), H5Dwrite and H5Dread of unsigned chars pass signed chars as
 * the memory type instead. HDF5 then needs a datatype conversion on that
 * process and does independent I/O on every process (docs/results.md,
 * "actual_io_mode"); the bytes h5perf writes (rank + 1) convert to
 * themselves, so the data still verifies. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

typedef herr_t (*h5d_write_fn)(hid_t, hid_t, hid_t, hid_t, hid_t, const void *);
typedef herr_t (*h5d_read_fn)(hid_t, hid_t, hid_t, hid_t, hid_t, void *);

static int convert_rank(void)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    if (!r)
        r = getenv("PMI_RANK");
    return r ? atoi(r) : -1;
}

/* The memory type to pass: signed chars for unsigned ones on the chosen
 * rank, else the caller's. */
static hid_t convert_type(hid_t type)
{
    const char *want = getenv("H5PERF_CONVERT_RANK");
    if (!want || atoi(want) != convert_rank() || H5Tequal(type, H5T_NATIVE_UCHAR) <= 0)
        return type;
    return H5T_NATIVE_SCHAR;
}

static void *convert_real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

herr_t H5Dwrite(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space, hid_t dxpl,
                const void *buf)
{
    h5d_write_fn real;
    void *sym = convert_real("H5Dwrite");
    memcpy(&real, &sym, sizeof real);
    return real(dset, convert_type(mem_type), mem_space, file_space, dxpl, buf);
}

herr_t H5Dread(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space, hid_t dxpl, void *buf)
{
    h5d_read_fn real;
    void *sym = convert_real("H5Dread");
    memcpy(&real, &sym, sizeof real);
    return real(dset, convert_type(mem_type), mem_space, file_space, dxpl, buf);
}
