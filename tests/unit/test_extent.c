/* Unit tests of HDF5's model of its files (api/file_model.h) of the guide's files as
 * its pattern measures them: the flat size, and the HDF5 file's end with
 * alignment against the ends HDF5 1.10.8, 1.14.5 and 2.0.0 were measured to
 * reach (1 process, -e 8K, -a 1M: docs/differences.md, "HDF5 alignment"):
 * the lower bound never above, the upper bound never below, for each
 * version. */
#include <stdint.h>

#include "check.h"
#include "cli/cli.h"
#include "api/file_model.h"
#include "pattern/pattern.h"
#include "options/options.h"
#include "pattern/guide_options.h"

#define MIB (INT64_C(1) << 20)

/* A finished config of h5perf <args> started with one process. */
static void config_of(struct config *cfg, const char *const *args)
{
    const char *argv[24] = {"h5perf"};
    int argc = 1;
    while (args[argc - 1] && argc < 23) {
        argv[argc] = args[argc - 1];
        argc++;
    }
    struct cli_msg msg;
    struct cli_warnings w;
    config_init(cfg);
    CHECK(opt_parse(argc, (char *const *)argv, cfg, &msg) == 0);
    CHECK(config_finish(cfg, 1, &w, &msg) == 0);
}

/* The guide's measures of its largest transfer size at nprocs. */
static struct pattern_measure measure_of(const struct config *cfg, int nprocs)
{
    struct pattern_measure m;
    struct run_point p = {
        .nprocs = nprocs, .api = API_PHDF5, .xfer = guide_of(cfg)->xfer_max, .layout = -1};
    pattern_of(cfg)->measure(cfg, &p, &m, NULL);
    return m;
}

static int64_t extent_hdf5_of(const struct config *cfg, int nprocs, bool upper)
{
    struct pattern_measure m = measure_of(cfg, nprocs);
    struct extent_file f = {m.nvars, m.var_bytes, m.max_chunk};
    return hdf5_model.extent(&f, cfg->align, cfg->threshold, upper);
}

/* The versions measured (h5perf -w -A phdf5): 1.14.5 writes what 1.10.8
 * does (two chunked datasets: 16 MiB + 2048 measured again with 1.10.8,
 * whose column keeps its first measurement); 2.0.0, whose default file
 * format is 1.8's (superblock 2), ends smaller files with -T below 1024:
 * its metadata takes fewer aligned blocks. tests/mpi/layouts_1d.py checks
 * the bounds against the HDF5 a build links. */
enum { V1_10_8, V1_14_5, V2_0_0, NVERSIONS };

struct measured {
    const char *args[14];
    int64_t end[NVERSIONS]; /* the file's size each HDF5 wrote */
};

static const struct measured measured[] = {
    {{"-a", "1M", "-T", "1", "-d", "1", "-e", "8K", NULL},
     {6 * MIB + 328, 6 * MIB + 328, 3 * MIB + 8192}},
    {{"-a", "1M", "-T", "1", "-d", "3", "-e", "8K", NULL},
     {10 * MIB + 8192, 10 * MIB + 8192, 7 * MIB + 8192}},
    {{"-a", "1M", "-T", "1", "-d", "5", "-e", "8K", NULL},
     {14 * MIB + 8192, 14 * MIB + 8192, 11 * MIB + 8192}},
    {{"-a", "1M", "-T", "64", "-d", "3", "-e", "8K", NULL},
     {9 * MIB + 8192, 9 * MIB + 8192, 7 * MIB + 8192}},
    {{"-a", "1M", "-T", "1024", "-d", "3", "-e", "8K", NULL},
     {3 * MIB + 8192, 3 * MIB + 8192, 3 * MIB + 8192}},
    {{"-a", "1M", "-T", "4096", "-d", "3", "-e", "8K", NULL},
     {3 * MIB + 8192, 3 * MIB + 8192, 3 * MIB + 8192}},
    {{"-a", "1M", "-T", "1", "-d", "1", "-e", "8K", "-c", "-B", "2K", NULL},
     {10 * MIB + 328, 10 * MIB + 328, 7 * MIB + 2048}},
    {{"-a", "1M", "-T", "1", "-d", "2", "-e", "8K", "-c", "-B", "2K", NULL},
     {16 * MIB + 8192, 16 * MIB + 2048, 13 * MIB + 2048}},
    {{"-a", "1M", "-T", "1", "-d", "1", "-e", "8K", "-g", "-c", "-B", "2K", NULL},
     {70 * MIB + 328, 70 * MIB + 328, 68 * MIB}},
    {{"-a", "1M", "-T", "1", "-d", "1", "-e", "4M", NULL}, {9 * MIB + 328, 9 * MIB + 328, 7 * MIB}},
};

/* Files written by HDF5 1.10.8 (MPI-IO driver, 1 process, contiguous
 * unless a chunk is given, no fill): {datasets, bytes each, chunk bytes,
 * --hdf5.metadata-block-size (0: HDF5's)} and the file's size; the model's
 * end is never below it (docs/hdf5.md, "Limits"). */
static const struct {
    struct extent_file f;
    int64_t meta_block, size;
} written[] = {
    {{1, MIB, 0}, 0, 1050624},
    {{3, MIB, 0}, 0, 3147776},
    {{3, MIB, 0}, 1024 * MIB, 1076887552},
    {{5, MIB, 0}, 0, 5246976},
    {{6, MIB, 0}, 0, 6295552},
    {{8, MIB, 0}, 0, 8392704},
    {{20, MIB, 0}, 0, 20981760},
    {{50, MIB, 0}, 0, 52451328},
    {{100, MIB, 0}, 0, 104899328},
    {{100, MIB, 0}, 4096, 104898560},
    {{1000, 1024, 0}, 0, 1414400},
    {{8, 4096, 0}, 0, 38968},
    {{30, 32768, 0}, 0, 995328},
    {{30, 32768, 16384}, 0, 1072976},
};

/* The libraries' own limits without alignment: HDF5's file end with its
 * metadata blocks, PnetCDF's largest variable and file end. */
static void check_own_limits(void)
{
    for (size_t i = 0; i < sizeof written / sizeof written[0]; i++)
        CHECK(hdf5_file_end(&written[i].f, written[i].meta_block) >= written[i].size);
    /* One block of 1 GiB holds the metadata of 3 datasets, before them. */
    CHECK_I64(hdf5_file_end(&(struct extent_file){3, MIB, 0}, 1024 * MIB), 1027 * MIB);
    /* Measured: 2^62 bytes after 2 KiB fit; from 2^63 - 2048 on, H5Fclose
     * fails (the bound, 4 KiB for one dataset, refuses 2 KiB before). */
    CHECK(hdf5_file_end(&(struct extent_file){1, INT64_C(1) << 62, 0}, 0) > 0);
    CHECK_I64(hdf5_file_end(&(struct extent_file){1, INT64_MAX - 4096, 0}, 0), INT64_MAX);
    CHECK_I64(hdf5_file_end(&(struct extent_file){1, INT64_MAX - 2047, 0}, 0), -1);
    CHECK_I64(hdf5_file_end(&(struct extent_file){1, 1, 0}, INT64_MAX), -1);
    CHECK_I64(hdf5_file_end(&(struct extent_file){1, 1, 0}, INT64_C(1) << 62),
              (INT64_C(1) << 62) + 1);
    /* PnetCDF 1.12.3 defines a variable of 2^63 - 4 bytes, not 2^63 - 3;
     * the header before it (512 bytes for one variable) ends it beyond. */
    CHECK_I64(PNETCDF_MAX_VAR_BYTES, INT64_MAX - 3);
    CHECK_I64(pnetcdf_file_end(&(struct extent_file){1, INT64_MAX - 2, 0}), -1);
    CHECK_I64(pnetcdf_file_end(&(struct extent_file){1, INT64_MAX - 3, 0}), -1);
    CHECK_I64(pnetcdf_file_end(&(struct extent_file){1, INT64_C(1) << 62, 0}),
              (INT64_C(1) << 62) + 1536);
    CHECK_I64(pnetcdf_file_end(&(struct extent_file){2, 5, 0}), 1536 + 16);
    CHECK_I64(pnetcdf_file_end(&(struct extent_file){2, INT64_C(1) << 62, 0}), -1);
}

int main(void)
{
    struct config cfg;
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        config_of(&cfg, measured[i].args);
        int64_t lo = extent_hdf5_of(&cfg, 1, false), hi = extent_hdf5_of(&cfg, 1, true);
        for (int v = 0; v < NVERSIONS; v++) {
            int64_t end = measured[i].end[v];
            CHECK(lo > 0 && lo <= end);
            CHECK(hi >= end);
            if (!(lo > 0 && lo <= end && hi >= end))
                fprintf(stderr,
                        "  case %zu, version %d: lower %" PRId64 ", upper %" PRId64
                        ", measured %" PRId64 "\n",
                        i, v, lo, hi, end);
        }
    }
    /* Exact values of the model. */
    config_of(&cfg, (const char *[]){"-a", "1M", "-T", "4096", "-d", "3", "-e", "8K", NULL});
    CHECK_I64(extent_hdf5_of(&cfg, 1, false), 3 * MIB + 8192);
    CHECK_I64(extent_hdf5_of(&cfg, 1, true), 3 * MIB + 8192 + 65536);
    CHECK_I64(extent_hdf5_of(&cfg, 2, false), 3 * MIB + 16384);
    config_of(&cfg, (const char *[]){"-a", "1M", "-T", "1", "-d", "1", "-e", "8K", NULL});
    CHECK_I64(extent_hdf5_of(&cfg, 1, true), 7 * MIB);
    /* Without alignment, or data below -T: the data bytes, as flat files. */
    config_of(&cfg, (const char *[]){"-d", "3", "-e", "8K", NULL});
    CHECK_I64(extent_hdf5_of(&cfg, 2, true), 3 * 16384);
    CHECK_I64(measure_of(&cfg, 2).flat_bytes, 3 * 16384);
    config_of(&cfg, (const char *[]){"-a", "1M", "-T", "16K", "-d", "3", "-e", "8K", NULL});
    CHECK_I64(extent_hdf5_of(&cfg, 1, true), 3 * 8192);
    /* Beyond 64 bits. */
    config_of(&cfg, (const char *[]){"-a", "2305843009213693952", "-T", "1", NULL});
    CHECK_I64(extent_hdf5_of(&cfg, 1, true), -1);
    CHECK(extent_hdf5_of(&cfg, 1, false) > 0);
    config_of(&cfg, (const char *[]){"-a", "1152921504606846976", "-T", "1", NULL});
    CHECK_I64(extent_hdf5_of(&cfg, 1, true), 7 * INT64_C(1152921504606846976));
    check_own_limits();
    return check_done("test_extent");
}
