/* map_e3sm.h: E3SM-IO's decomposition maps in their netCDF and HDF5 forms
 * (docs/map.md, "E3SM-IO's map files"), read on process 0 through the
 * functions setup lends (pattern.h, struct pattern_files): their header
 * and counts, and the whole map into a builder. Pure: every byte comes
 * through those functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/map.h"
#include "pattern/map_e3sm.h"

#define E3SM_WHY 512

/* A dimension's length: netCDF's, or the HDF5 form's attribute "-DIM_name"
 * (how E3SM-IO's HDF5 driver keeps dimensions). Returns 0, 1 (absent) or
 * -1 with why. */
static int e3sm_dim(const struct pattern_files *f, enum pattern_file_kind kind, const char *name,
                    int64_t *len, char *why, size_t wlen)
{
    if (kind == PATTERN_FILE_NETCDF)
        return f->dim(f->ctx, name, len, why, wlen);
    char att[64];
    int n = 0;
    snprintf(att, sizeof att, "-DIM_%s", name);
    int rc = f->att(f->ctx, att, len, 1, &n, why, wlen);
    if (rc == 0 && n != 1) {
        snprintf(why, wlen, "its attribute '%s' has %d values, not 1", att, n);
        return -1;
    }
    return rc;
}

/* The whole 1D variable name of n values into *out (malloc'd); optional:
 * absent gives 1. Returns 0, 1 or -1 with why. */
static int e3sm_var(const struct pattern_files *f, const char *name, int64_t n, bool optional,
                    int64_t **out, char *why, size_t wlen)
{
    char lib[E3SM_WHY];
    int64_t len = 0;
    *out = NULL;
    int rc = f->var(f->ctx, name, &len, lib, sizeof lib);
    if (rc == 1 && optional)
        return 1;
    if (rc == 1) {
        snprintf(why, wlen, "is not an E3SM-IO decomposition map: it has no variable '%s'", name);
        return -1;
    }
    if (rc == 0 && len != n) {
        snprintf(why, wlen, "its variable '%s' has %lld values, not %lld", name, (long long)len,
                 (long long)n);
        return -1;
    }
    *out = rc == 0 ? malloc((size_t)(n > 0 ? n : 1) * sizeof **out) : NULL;
    if (rc == 0 && !*out)
        snprintf(lib, sizeof lib, "out of memory");
    if (rc == 0 && *out && f->var_read(f->ctx, name, *out, n, lib, sizeof lib) == 0)
        return 0;
    free(*out);
    *out = NULL;
    snprintf(why, wlen, "its variable '%s' cannot be read: %s", name, lib);
    return -1;
}

/* The decomposition's array: attribute Dk.dims, 1 to 3 lengths. */
static int e3sm_array(const struct pattern_files *f, int k, struct map_builder *b, char *why,
                      size_t wlen)
{
    char name[32], lib[E3SM_WHY];
    int64_t dims[4] = {0, 0, 0, 0};
    int n = 0;
    snprintf(name, sizeof name, "D%d.dims", k);
    int rc = f->att(f->ctx, name, dims, 4, &n, lib, sizeof lib);
    if (rc != 0) {
        snprintf(why, wlen, "%s", rc == 1 ? "" : lib);
        if (rc == 1)
            snprintf(why, wlen, "is not an E3SM-IO decomposition map: it has no attribute '%s'",
                     name);
        else
            snprintf(why, wlen, "its attribute '%s' cannot be read: %s", name, lib);
        return -1;
    }
    if (n < 1 || n > MODEL_MAX_DIMS) {
        snprintf(why, wlen, "D%d: an array of %d dimensions; h5perf takes 1 to %d", k, n,
                 MODEL_MAX_DIMS);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (dims[i] < 1) {
            snprintf(why, wlen, "D%d: dimension %d of its array is %lld; it must be 1 or more", k,
                     i + 1, (long long)dims[i]);
            return -1;
        }
    if (model_product(n, dims) < 0) {
        snprintf(why, wlen, "D%d: its array's elements do not fit in 64 bits", k);
        return -1;
    }
    return map_builder_decomp(b, n, dims, why, wlen);
}

/* Each process's runs: its part of Dk.offsets and Dk.lengths (nreqs[p]
 * of them), of which the first fill_starts[p] are written; the others are
 * the parts no process writes (docs/map.md). */
static int e3sm_runs(struct map_builder *b, const int64_t *nreqs, const int64_t *fill,
                     const int64_t *off, const int64_t *len, char *why, size_t wlen)
{
    int64_t seg = 0;
    for (int p = 0; p < b->nprocs; p++) {
        int64_t writes = fill ? fill[p] : nreqs[p];
        for (int64_t i = 0; i < writes; i++) {
            struct map_entry e = {.proc = p, .run = true, .origin = i};
            e.start[0] = off[seg + i];
            e.count[0] = len[seg + i];
            if (map_builder_add(b, &e, why, wlen) < 0)
                return -1;
        }
        seg += nreqs[p];
    }
    return 0;
}

int map_e3sm_counts(const struct pattern_files *f, int k, struct map_builder *b, int64_t **nreqs,
                    int64_t **fill, int64_t *total, char *why, size_t wlen)
{
    char name[32];
    *nreqs = *fill = NULL;
    *total = 0;
    if (e3sm_array(f, k, b, why, wlen) < 0)
        return -1;
    snprintf(name, sizeof name, "D%d.nreqs", k);
    int rc = e3sm_var(f, name, b->nprocs, false, nreqs, why, wlen);
    for (int p = 0; rc == 0 && p < b->nprocs; p++) {
        /* Each run is a box or more of the process's plan, which keeps at
         * most MAP_MAX_PIECES: checked before the runs are read. */
        if ((*nreqs)[p] < 0 || (*nreqs)[p] > MAP_MAX_PIECES) {
            snprintf(why, wlen,
                     "D%d: process %d's number of runs %lld is out of range (0 to %d, what "
                     "h5perf plans)",
                     k, p, (long long)(*nreqs)[p], MAP_MAX_PIECES);
            rc = -1;
        }
        *total += rc == 0 ? (*nreqs)[p] : 0;
    }
    snprintf(name, sizeof name, "D%d.fill_starts", k);
    if (rc == 0 && e3sm_var(f, name, b->nprocs, true, fill, why, wlen) < 0)
        rc = -1;
    for (int p = 0; rc == 0 && *fill && p < b->nprocs; p++)
        if ((*fill)[p] < 0 || (*fill)[p] > (*nreqs)[p]) {
            snprintf(why, wlen, "D%d: process %d's fill_starts %lld is outside 0 to its %lld runs",
                     k, p, (long long)(*fill)[p], (long long)(*nreqs)[p]);
            rc = -1;
        }
    if (rc < 0) {
        free(*nreqs);
        free(*fill);
        *nreqs = *fill = NULL;
    }
    return rc;
}

/* Decomposition k (from 1): its array and runs, its offsets and lengths
 * read whole. */
static int e3sm_decomp(const struct pattern_files *f, int k, struct map_builder *b, char *why,
                       size_t wlen)
{
    char name[32];
    int64_t *nreqs = NULL, *fill = NULL, *off = NULL, *len = NULL, total = 0;
    int rc = map_e3sm_counts(f, k, b, &nreqs, &fill, &total, why, wlen);
    /* Its offsets and lengths, 8 bytes each, counted before they are read. */
    int64_t pairs = 2 * (int64_t)sizeof *off * (total > 0 ? total : 1);
    if (rc == 0)
        rc = map_builder_take(b, pairs, why, wlen);
    snprintf(name, sizeof name, "D%d.offsets", k);
    if (rc == 0)
        rc = e3sm_var(f, name, total, false, &off, why, wlen);
    snprintf(name, sizeof name, "D%d.lengths", k);
    if (rc == 0)
        rc = e3sm_var(f, name, total, false, &len, why, wlen);
    if (rc == 0)
        rc = e3sm_runs(b, nreqs, fill, off, len, why, wlen);
    if (!b->over)
        map_builder_give(b, pairs);
    free(nreqs);
    free(fill);
    free(off);
    free(len);
    return rc;
}

int map_e3sm_length(const struct pattern_files *f, const char *name, int64_t n, char *why,
                    size_t wlen)
{
    char lib[E3SM_WHY];
    int64_t len = 0;
    int rc = f->var(f->ctx, name, &len, lib, sizeof lib);
    if (rc == 1)
        snprintf(why, wlen, "is not an E3SM-IO decomposition map: it has no variable '%s'", name);
    else if (rc < 0)
        snprintf(why, wlen, "its variable '%s' cannot be read: %s", name, lib);
    else if (len != n)
        snprintf(why, wlen, "its variable '%s' has %lld values, not %lld", name, (long long)len,
                 (long long)n);
    return rc == 0 && len == n ? 0 : -1;
}

int map_e3sm_head(const struct pattern_files *files, enum pattern_file_kind kind,
                  struct map_builder *b, int *ndecomps, char *why, size_t wlen)
{
    char lib[E3SM_WHY];
    int64_t n = 0, procs = 0;
    const char *dims[2] = {"num_decomp", "decomp_nprocs"};
    int64_t *vals[2] = {&n, &procs};
    for (int i = 0; i < 2; i++) {
        int rc = e3sm_dim(files, kind, dims[i], vals[i], lib, sizeof lib);
        if (rc == 1)
            snprintf(why, wlen, "is not an E3SM-IO decomposition map: it has no dimension '%s'",
                     dims[i]);
        else if (rc < 0)
            snprintf(why, wlen, "its dimension '%s' cannot be read: %s", dims[i], lib);
        if (rc != 0)
            return -1;
    }
    if (n < 1 || n > MAP_MAX_DECOMPS || procs < 1 || procs > MAP_MAX_PROCS) {
        snprintf(why, wlen,
                 "declares %lld decompositions for %lld processes; h5perf takes 1 to %d "
                 "decompositions, 1 to %d processes",
                 (long long)n, (long long)procs, MAP_MAX_DECOMPS, MAP_MAX_PROCS);
        return -1;
    }
    *ndecomps = (int)n;
    return map_builder_procs(b, procs, why, wlen);
}

int map_e3sm_read(const struct pattern_files *files, enum pattern_file_kind kind,
                  struct map_builder *b, char *why, size_t wlen)
{
    int n = 0;
    if (map_e3sm_head(files, kind, b, &n, why, wlen) < 0)
        return -1;
    for (int k = 1; k <= n; k++)
        if (e3sm_decomp(files, k, b, why, wlen) < 0)
            return -1;
    return 0;
}
