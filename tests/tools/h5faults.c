/* Test shim (LD_PRELOAD) that makes one HDF5 call fail on one process
 * (lib_fault.h chooses it): H5Pcreate, H5Pset_chunk, H5Pset_fill_time,
 * H5Pset_alignment, H5Screate_simple or H5Sselect_hyperslab returns its
 * failure without calling the library, "injected fault" on HDF5's error
 * stack, as a library short of memory would fail a local call before the
 * collective one that uses it (H5Fcreate, H5Dcreate2, H5Dwrite). Every
 * other call goes to the library. */
#define _GNU_SOURCE
#include <hdf5.h>

#include "lib_fault.h"

/* Pushes the fault on the stack, as the library pushes its own. */
static void h5faults_push(const char *name)
{
    H5Epush2(H5E_DEFAULT, __FILE__, name, __LINE__, H5E_ERR_CLS, H5E_ARGS, H5E_BADVALUE,
             "injected fault");
}

hid_t H5Pcreate(hid_t cls)
{
    static long calls;
    if (lib_fault("H5Pcreate", &calls)) {
        h5faults_push("H5Pcreate");
        return H5I_INVALID_HID;
    }
    hid_t (*real)(hid_t) = (hid_t(*)(hid_t))lib_fault_real("H5Pcreate");
    return real(cls);
}

herr_t H5Pset_chunk(hid_t plist, int ndims, const hsize_t dim[])
{
    static long calls;
    if (lib_fault("H5Pset_chunk", &calls)) {
        h5faults_push("H5Pset_chunk");
        return -1;
    }
    herr_t (*real)(hid_t, int, const hsize_t *) =
        (herr_t(*)(hid_t, int, const hsize_t *))lib_fault_real("H5Pset_chunk");
    return real(plist, ndims, dim);
}

herr_t H5Pset_fill_time(hid_t plist, H5D_fill_time_t fill_time)
{
    static long calls;
    if (lib_fault("H5Pset_fill_time", &calls)) {
        h5faults_push("H5Pset_fill_time");
        return -1;
    }
    herr_t (*real)(hid_t, H5D_fill_time_t) =
        (herr_t(*)(hid_t, H5D_fill_time_t))lib_fault_real("H5Pset_fill_time");
    return real(plist, fill_time);
}

herr_t H5Pset_alignment(hid_t fapl, hsize_t threshold, hsize_t alignment)
{
    static long calls;
    if (lib_fault("H5Pset_alignment", &calls)) {
        h5faults_push("H5Pset_alignment");
        return -1;
    }
    herr_t (*real)(hid_t, hsize_t, hsize_t) =
        (herr_t(*)(hid_t, hsize_t, hsize_t))lib_fault_real("H5Pset_alignment");
    return real(fapl, threshold, alignment);
}

hid_t H5Screate_simple(int rank, const hsize_t dims[], const hsize_t maxdims[])
{
    static long calls;
    if (lib_fault("H5Screate_simple", &calls)) {
        h5faults_push("H5Screate_simple");
        return H5I_INVALID_HID;
    }
    hid_t (*real)(int, const hsize_t *, const hsize_t *) =
        (hid_t(*)(int, const hsize_t *, const hsize_t *))lib_fault_real("H5Screate_simple");
    return real(rank, dims, maxdims);
}

herr_t H5Sselect_hyperslab(hid_t space, H5S_seloper_t op, const hsize_t start[],
                           const hsize_t stride[], const hsize_t count[], const hsize_t block[])
{
    static long calls;
    if (lib_fault("H5Sselect_hyperslab", &calls)) {
        h5faults_push("H5Sselect_hyperslab");
        return -1;
    }
    herr_t (*real)(hid_t, H5S_seloper_t, const hsize_t *, const hsize_t *, const hsize_t *,
                   const hsize_t *) =
        (herr_t(*)(hid_t, H5S_seloper_t, const hsize_t *, const hsize_t *, const hsize_t *,
                   const hsize_t *))lib_fault_real("H5Sselect_hyperslab");
    return real(space, op, start, stride, count, block);
}
