/* Independent reader for tests: prints an HDF5 dataset's layout, dimensions
 * and bytes, read serially through the default (sec2) driver with nothing
 * shared with h5perf's code. Output:
 *   layout contiguous|chunked <c0> [<c1>]
 *   dims <d0> [<d1>]
 *   data <decimal bytes separated by spaces>
 * With a third argument "values", when the dataset is filled, its own
 * type and its elements:
 *   fill never|alloc|ifset
 *   type <integer|float|other> <size> <unsigned|signed> <le|be>
 *   values <decimal elements separated by spaces>
 * (a float's value is its bit pattern, read without conversion, as an
 * unsigned little-endian integer of its size).
 * Usage: h5read FILE DATASET [values]. Or h5read FILE --list: every
 * object under the root, one "group NAME" or "dataset NAME" line each, in
 * name order. With --subfiling first (an HDF5 built with the subfiling
 * driver), FILE is opened through HDF5's subfiling driver instead, as one
 * MPI process (it reads the subfiles through their configuration file).
 * Exit 0, or 1 with a message on stderr. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
    fprintf(stderr, "h5read: %s failed\n", what);
    return 1;
}

static void print_layout(hid_t dset)
{
    hid_t dcpl = H5Dget_create_plist(dset);
    if (H5Pget_layout(dcpl) == H5D_CHUNKED) {
        hsize_t c[H5S_MAX_RANK];
        int n = H5Pget_chunk(dcpl, H5S_MAX_RANK, c);
        printf("layout chunked");
        for (int i = 0; i < n; i++)
            printf(" %llu", (unsigned long long)c[i]);
        printf("\n");
    } else {
        printf("layout %s\n", H5Pget_layout(dcpl) == H5D_CONTIGUOUS ? "contiguous" : "other");
    }
    H5Pclose(dcpl);
}

/* The dataset's type, then its elements read as unsigned little-endian
 * integers of its own size (floats: their bits, in the file's order). */
static int print_values(hid_t dset, hsize_t total)
{
    hid_t dcpl = H5Dget_create_plist(dset);
    H5D_fill_time_t when = H5D_FILL_TIME_ERROR;
    H5Pget_fill_time(dcpl, &when);
    H5Pclose(dcpl);
    printf("fill %s\n", when == H5D_FILL_TIME_NEVER   ? "never"
                        : when == H5D_FILL_TIME_ALLOC ? "alloc"
                        : when == H5D_FILL_TIME_IFSET ? "ifset"
                                                      : "unknown");
    hid_t type = H5Dget_type(dset);
    size_t size = H5Tget_size(type);
    int integer = H5Tget_class(type) == H5T_INTEGER, fp = H5Tget_class(type) == H5T_FLOAT;
    printf("type %s %zu %s %s\n",
           integer ? "integer"
           : fp    ? "float"
                   : "other",
           size, integer && H5Tget_sign(type) == H5T_SGN_NONE ? "unsigned" : "signed",
           H5Tget_order(type) == H5T_ORDER_LE ? "le" : "be");
    hid_t mem = fp          ? type /* the file's own type: no conversion */
                : size == 1 ? H5T_STD_U8LE
                : size == 2 ? H5T_STD_U16LE
                : size == 4 ? H5T_STD_U32LE
                            : H5T_STD_U64LE;
    unsigned char *buf = malloc(total ? total * size : 1);
    int ok = (integer || fp) && size <= 8 && buf &&
             H5Dread(dset, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
    H5Tclose(type);
    if (!ok)
        return -1;
    printf("values");
    for (hsize_t i = 0; i < total; i++) {
        unsigned long long v = 0;
        for (size_t k = size; k-- > 0;)
            v = v << 8 | buf[i * size + k];
        printf(" %llu", v);
    }
    printf("\n");
    free(buf);
    return 0;
}

static herr_t list_one(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    (void)info, (void)data;
    hid_t obj = H5Oopen(group, name, H5P_DEFAULT);
    if (obj < 0)
        return -1;
    H5I_type_t t = H5Iget_type(obj);
    printf("%s %s\n", t == H5I_GROUP ? "group" : t == H5I_DATASET ? "dataset" : "other", name);
    H5Oclose(obj);
    return 0;
}

/* The file access properties: the default driver, or with --subfiling
 * (argv[1], then dropped) the subfiling driver on one MPI process. */
static hid_t file_access(int *argc, char ***argv)
{
    if (*argc < 2 || strcmp((*argv)[1], "--subfiling") != 0)
        return H5P_DEFAULT;
    (*argv)[1] = (*argv)[0];
    ++*argv;
    --*argc;
#ifdef H5_HAVE_SUBFILING_VFD
    int provided;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (provided != MPI_THREAD_MULTIPLE || fapl < 0 ||
        H5Pset_mpi_params(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) < 0 ||
        H5Pset_fapl_subfiling(fapl, NULL) < 0)
        return H5I_INVALID_HID;
    return fapl;
#else
    return H5I_INVALID_HID;
#endif
}

/* Ends MPI where --subfiling started it. */
static int done(int status)
{
    int on = 0;
    MPI_Initialized(&on);
    if (on) {
        H5close();
        MPI_Finalize();
    }
    return status;
}

int main(int argc, char **argv)
{
    hid_t fapl = file_access(&argc, &argv);
    if (fapl < 0)
        return done(fail("the subfiling driver"));
    if (argc == 3 && strcmp(argv[2], "--list") == 0) {
        hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, fapl);
        if (file < 0)
            return fail("H5Fopen");
        if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, list_one, NULL) < 0)
            return fail("H5Lvisit");
        H5Fclose(file);
        return done(0);
    }
    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "values") == 0)) {
        fprintf(stderr, "usage: h5read FILE DATASET [values]\n");
        return 2;
    }
    hid_t file = H5Fopen(argv[1], H5F_ACC_RDONLY, fapl);
    if (file < 0)
        return done(fail("H5Fopen"));
    hid_t dset = H5Dopen2(file, argv[2], H5P_DEFAULT);
    if (dset < 0)
        return fail("H5Dopen2");
    print_layout(dset);
    hid_t space = H5Dget_space(dset);
    hsize_t dims[H5S_MAX_RANK];
    int nd = H5Sget_simple_extent_dims(space, dims, NULL);
    hsize_t total = 1;
    printf("dims");
    for (int i = 0; i < nd; i++) {
        printf(" %llu", (unsigned long long)dims[i]);
        total *= dims[i];
    }
    printf("\n");
    if (argc == 4) {
        int rc = print_values(dset, total) < 0 ? fail("H5Dread (values)") : 0;
        H5Dclose(dset);
        H5Fclose(file);
        return done(rc);
    }
    unsigned char *buf = malloc(total ? total : 1);
    if (!buf || H5Dread(dset, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
        return fail("H5Dread");
    printf("data");
    for (hsize_t i = 0; i < total; i++)
        printf(" %u", buf[i]);
    printf("\n");
    free(buf);
    H5Sclose(space);
    H5Dclose(dset);
    H5Fclose(file);
    return done(0);
}
