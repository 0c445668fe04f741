/* Test tool: writes a decomposition map in E3SM-IO's HDF5 form (docs/map.md,
 * "E3SM-IO's map files") from lines on standard input, with nothing shared
 * with h5perf's code:
 *   dim NAME LEN        the root attribute "-DIM_NAME", one hsize_t
 *   att NAME V1 V2 ...  a root attribute of 32-bit integers
 *   var NAME V1 V2 ...  a 1D dataset of 32-bit integers (none: 0 elements)
 * Usage: h5map FILE < description. Exit 0, or 1 with a message. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define H5MAP_LINE (1 << 22)

static int h5map_values(char *rest, int **vals)
{
    int n = 0, cap = 16;
    *vals = malloc((size_t)cap * sizeof **vals);
    for (char *tok = strtok(rest, " \t\n"); tok && *vals; tok = strtok(NULL, " \t\n")) {
        if (n == cap) {
            cap *= 2;
            int *grown = realloc(*vals, (size_t)cap * sizeof *grown);
            if (!grown)
                return -1;
            *vals = grown;
        }
        (*vals)[n++] = atoi(tok);
    }
    return *vals ? n : -1;
}

static int h5map_line(hid_t f, char *line)
{
    char kind[8], name[256];
    int used = 0;
    if (sscanf(line, "%7s %255s %n", kind, name, &used) < 2)
        return 0;
    if (strcmp(kind, "dim") == 0) {
        hsize_t len = (hsize_t)strtoull(line + used, NULL, 10);
        char att[300];
        snprintf(att, sizeof att, "-DIM_%s", name);
        hid_t s = H5Screate(H5S_SCALAR);
        hid_t a = H5Acreate2(f, att, H5T_NATIVE_HSIZE, s, H5P_DEFAULT, H5P_DEFAULT);
        int rc = a >= 0 && H5Awrite(a, H5T_NATIVE_HSIZE, &len) >= 0 ? 0 : -1;
        H5Aclose(a);
        H5Sclose(s);
        return rc;
    }
    int *vals = NULL, n = h5map_values(line + used, &vals);
    hsize_t dims = (hsize_t)(n > 0 ? n : 0);
    hid_t s = n >= 0 ? H5Screate_simple(1, &dims, NULL) : -1;
    int rc = -1;
    if (s >= 0 && strcmp(kind, "att") == 0) {
        hid_t a = H5Acreate2(f, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT);
        rc = a >= 0 && H5Awrite(a, H5T_NATIVE_INT, vals) >= 0 ? 0 : -1;
        H5Aclose(a);
    } else if (s >= 0 && strcmp(kind, "var") == 0) {
        hid_t d = H5Dcreate2(f, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = d >= 0 && (n == 0 ||
                        H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, vals) >= 0)
                 ? 0
                 : -1;
        H5Dclose(d);
    }
    if (s >= 0)
        H5Sclose(s);
    free(vals);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: h5map FILE < description\n");
        return 1;
    }
    hid_t f = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    char *line = malloc(H5MAP_LINE);
    int rc = f >= 0 && line ? 0 : -1;
    while (rc == 0 && fgets(line, H5MAP_LINE, stdin))
        rc = h5map_line(f, line);
    free(line);
    if (f >= 0 && H5Fclose(f) < 0)
        rc = -1;
    if (rc != 0)
        fprintf(stderr, "h5map: writing '%s' failed\n", argv[1]);
    return rc == 0 ? 0 : 1;
}
