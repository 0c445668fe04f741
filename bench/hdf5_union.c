/* bench/hdf5_union: what a union of many hyperslabs costs HDF5, the
 * selection of a map pattern's call (docs/map.md, "HDF5's unions"). For n
 * runs of len elements, every fourth run of a 1D dataset of doubles (a
 * cyclic map), it builds the file selection three ways and writes the n *
 * len doubles through it, on one process with the default driver:
 *
 *   or      H5Sselect_hyperslab(H5S_SELECT_OR) run after run (h5perf before)
 *   merge   runs OR'd 16 at a time, those unions merged pairwise with
 *           H5Scombine_select (h5perf's phdf5_union())
 *   points  H5Sselect_elements of every element
 *
 * The methods alternate within each repetition (rotated); each line of
 * output is one sample: "n len method build_s write_s". Usage:
 * hdf5_union FILE REPS N,N,... LEN,LEN,... [MAX_OR_RUNS]: the or method
 * only up to MAX_OR_RUNS runs (default 10000; it is quadratic). */
#include <hdf5.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LEAF 16

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static hid_t merged(hid_t space, const hsize_t *start, const hsize_t *count, size_t lo, size_t hi)
{
    if (hi - lo > LEAF) {
        size_t mid = lo + (hi - lo) / 2;
        hid_t a = merged(space, start, count, lo, mid), b = merged(space, start, count, mid, hi);
        hid_t u = H5Scombine_select(a, H5S_SELECT_OR, b);
        H5Sclose(a);
        H5Sclose(b);
        return u;
    }
    hid_t u = H5Scopy(space);
    for (size_t i = lo; i < hi; i++)
        H5Sselect_hyperslab(u, i > lo ? H5S_SELECT_OR : H5S_SELECT_SET, &start[i], NULL,
                            &count[i], NULL);
    return u;
}

static hid_t select_runs(int method, hid_t space, const hsize_t *start, const hsize_t *count,
                         size_t n, hsize_t len)
{
    if (method == 1)
        return merged(space, start, count, 0, n);
    hid_t s = H5Scopy(space);
    if (method == 0) {
        for (size_t i = 0; i < n; i++)
            H5Sselect_hyperslab(s, i ? H5S_SELECT_OR : H5S_SELECT_SET, &start[i], NULL, &count[i],
                                NULL);
        return s;
    }
    hsize_t *coord = malloc(n * len * sizeof *coord);
    for (size_t i = 0; coord && i < n; i++)
        for (hsize_t j = 0; j < len; j++)
            coord[i * len + j] = start[i] + j;
    if (!coord || H5Sselect_elements(s, H5S_SELECT_SET, n * len, coord) < 0) {
        H5Sclose(s);
        s = H5I_INVALID_HID;
    }
    free(coord);
    return s;
}

/* One sample: build the selection, then write through it. */
static int sample(const char *path, int method, size_t n, hsize_t len)
{
    static const char *names[] = {"or", "merge", "points"};
    hsize_t dims = (hsize_t)n * len * 4, m = (hsize_t)n * len;
    hsize_t *start = malloc(n * sizeof *start), *count = malloc(n * sizeof *count);
    double *buf = calloc(m, sizeof *buf);
    if (!start || !count || !buf)
        return -1;
    for (size_t i = 0; i < n; i++) {
        start[i] = i * 4 * len;
        count[i] = len;
    }
    hid_t space = H5Screate_simple(1, &dims, NULL), mem = H5Screate_simple(1, &m, NULL);
    double t0 = now();
    hid_t sel = select_runs(method, space, start, count, n, len);
    double t1 = now();
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t d = H5Dcreate2(f, "d", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double t2 = now();
    herr_t rc = sel >= 0 ? H5Dwrite(d, H5T_NATIVE_DOUBLE, mem, sel, H5P_DEFAULT, buf) : -1;
    double t3 = now();
    bool ok = rc >= 0 && H5Sget_select_npoints(sel) == (hssize_t)m;
    H5Dclose(d);
    H5Fclose(f);
    H5Sclose(sel);
    H5Sclose(space);
    H5Sclose(mem);
    free(start);
    free(count);
    free(buf);
    if (!ok)
        return -1;
    printf("%zu %llu %s %.6f %.6f\n", n, (unsigned long long)len, names[method], t1 - t0, t3 - t2);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: hdf5_union FILE REPS N,N,... LEN,LEN,... [MAX_OR_RUNS]\n");
        return 2;
    }
    int reps = atoi(argv[2]);
    size_t max_or = argc > 5 ? (size_t)atol(argv[5]) : 10000;
    for (int r = 0; r < reps; r++)
        for (char *ns = argv[3]; *ns;) {
            size_t n = (size_t)strtoul(ns, &ns, 10);
            ns += *ns == ',';
            for (char *ls = argv[4]; *ls;) {
                hsize_t len = (hsize_t)strtoull(ls, &ls, 10);
                ls += *ls == ',';
                for (int k = 0; k < 3; k++) {
                    int method = (k + r) % 3;
                    if (method == 0 && n > max_or)
                        continue;
                    if (sample(argv[1], method, n, len) < 0) {
                        fprintf(stderr, "hdf5_union: n=%zu len=%llu failed\n", n,
                                (unsigned long long)len);
                        return 1;
                    }
                }
            }
        }
    remove(argv[1]);
    return 0;
}
