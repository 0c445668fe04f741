/* HDF5's own rows of the option table (cli/option.h), named --hdf5.NAME
 * as IOR names its backends' options, and the variants of the HDF5 API
 * they choose (api/api.h, docs/hdf5.md): each --hdf5.driver in turn, each
 * with one call per variable and, with --hdf5.multi-dataset, one call for
 * every variable of a file. Pure. */
#include "api/hdf5_options.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/option.h"

_Static_assert(sizeof(struct hdf5_settings) <= API_SETTINGS_BYTES, "api/api.h: API_SETTINGS_BYTES");

#ifndef H5PERF_HDF5_VERSION
#define H5PERF_HDF5_VERSION "unknown"
#endif

bool hdf5_built_subfiling(void)
{
#ifdef H5PERF_HDF5_SUBFILING
    return true;
#else
    return false;
#endif
}

bool hdf5_built_multi_dataset(void)
{
#ifdef H5PERF_HDF5_MULTI_DATASET
    return true;
#else
    return false;
#endif
}

static const char *const hdf5_driver_names[HDF5_DRIVER_COUNT] = {"mpio", "subfiling"};
/* What each is, in --hdf5.driver's help. */
static const char *const hdf5_driver_glosses[HDF5_DRIVER_COUNT] = {
    "(MPI-IO)", "(shared files stored as subfiles by I/O concentrators; HDF5 1.14 or newer)"};

/* The drivers' names, each with its gloss when glossed, into buf. */
static void hdf5_driver_list(char *buf, size_t len, bool glossed)
{
    buf[0] = '\0';
    for (int d = 0; d < HDF5_DRIVER_COUNT; d++)
        opt_list_add(buf, len, d, HDF5_DRIVER_COUNT, hdf5_driver_names[d],
                     glossed ? hdf5_driver_glosses[d] : NULL, ", ");
}

static void hdf5_driver_choices(char *buf, size_t len)
{
    hdf5_driver_list(buf, len, true);
}

/* Variant driver + 2 * multi: its label and report name; a file per
 * process runs the MPI-IO driver (subfiling serves shared files); the
 * subfiling driver's I/O concentrators are threads. */
static const struct api_variant hdf5_variants[2 * HDF5_DRIVER_COUNT] = {
    {NULL, "PHDF5 (w/MPI-IO driver)", 0, false, false, NULL, false},
    {"subfiled", "PHDF5 (w/subfiling driver)", 0, false, true, ".subfile", false},
    {"multi-dataset", "PHDF5 (w/MPI-IO driver, multi-dataset)", 2, true, false, NULL, false},
    {"subfiled, multi-dataset", "PHDF5 (w/subfiling driver, multi-dataset)", 2, true, true,
     ".subfile", false},
};

/* --hdf5.driver: a comma-separated list of drivers, any case; each one
 * this build's HDF5 has. */
static int hdf5_driver_option(void *dest, const struct opt_row *row, const char *spelled,
                              const char *value, struct cli_msg *msg)
{
    (void)row;
    struct hdf5_settings *h = dest;
    unsigned bits = 0;
    for (const char *s = value;;) {
        size_t len = strcspn(s, ",");
        int d = -1;
        for (int k = 0; k < HDF5_DRIVER_COUNT && d < 0 && len > 0; k++) {
            size_t i = 0;
            while (i < len && tolower((unsigned char)s[i]) == hdf5_driver_names[k][i])
                i++;
            d = i == len && hdf5_driver_names[k][i] == '\0' ? k : -1;
        }
        if (d < 0) {
            char names[128];
            hdf5_driver_list(names, sizeof names, false);
            return cli_fail(msg,
                            "h5perf: %s '%s': %s driver '%.*s'; expected a comma-separated "
                            "list of %s",
                            spelled, value, len ? "unknown" : "empty", (int)len, s, names);
        }
        if (d == HDF5_DRIVER_SUBFILING && !hdf5_built_subfiling())
            return cli_fail(msg,
                            "h5perf: %s '%s': the HDF5 of this build (%s) has no subfiling "
                            "driver (HDF5 1.14 or newer built with it: docs/install.md)",
                            spelled, value, H5PERF_HDF5_VERSION);
        bits |= 1u << d;
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    h->drivers = bits;
    return 0;
}

static int hdf5_multi_option(void *dest, const struct opt_row *row, const char *spelled,
                             const char *value, struct cli_msg *msg)
{
    if (!hdf5_built_multi_dataset())
        return cli_fail(msg,
                        "h5perf: %s: the HDF5 of this build (%s) has no multi-dataset I/O "
                        "(H5Dwrite_multi, HDF5 1.14 or newer)",
                        spelled, H5PERF_HDF5_VERSION);
    return opt_join_parse(dest, row, spelled, value, msg);
}

void hdf5_drivers_text(const struct api_settings *s, char *buf, size_t len)
{
    static const char *const words[HDF5_DRIVER_COUNT] = {"MPI-IO driver", "subfiling driver"};
    const struct hdf5_settings *h = hdf5_settings_of(s);
    unsigned bits = h->drivers ? h->drivers : 1u << HDF5_DRIVER_MPIO;
    size_t used = 0;
    buf[0] = '\0';
    for (int d = 0; d < HDF5_DRIVER_COUNT && used < len; d++)
        if (bits >> d & 1u)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", words[d]);
}

static void hdf5_json_drivers(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct hdf5_settings *h = src;
    unsigned bits = h->drivers ? h->drivers : 1u << HDF5_DRIVER_MPIO;
    jsonw_key(w, r->json_key);
    jsonw_array(w);
    for (int d = 0; d < HDF5_DRIVER_COUNT; d++)
        if (bits >> d & 1u)
            jsonw_string(w, hdf5_driver_names[d]);
    jsonw_end(w);
}

/* A size or count not given is HDF5's own (or its environment's): null. */
static void hdf5_json_unset(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const char *field = (const char *)src + r->field;
    int64_t v = r->type == OPT_T_SIZE ? *(const int64_t *)(const void *)field
                                      : *(const int *)(const void *)field;
    jsonw_key(w, r->json_key);
    if (v > 0)
        jsonw_int(w, v);
    else
        jsonw_null(w);
}

static const struct opt_row hdf5_driver_row = OPT_API_OTHER(
    "--hdf5.driver", "LIST", "a list of drivers", hdf5_driver_option,
    .help = "HDF5's file drivers, comma-separated, each in turn:", .choices = hdf5_driver_choices,
    .dflt = "[mpio]", .apis = API_BIT(API_PHDF5), .json_key = "hdf5_driver",
    .json = hdf5_json_drivers, .json_everywhere = true);
static const struct opt_row hdf5_stripe_row = OPT_API_SIZE(
    struct hdf5_settings, "--hdf5.subfiling-stripe", stripe,
    .help = "the subfiling driver's stripe: bytes of the\n"
            "file in one subfile before the next",
    .dflt = "[HDF5's: 32M]", .apis = API_BIT(API_PHDF5), .json_key = "hdf5_subfiling_stripe",
    .json = hdf5_json_unset, .json_everywhere = true);
static const struct opt_row hdf5_ioc_row = OPT_API_COUNT(
    struct hdf5_settings, "--hdf5.ioc-per-node", ioc_per_node,
    .help = "the subfiling driver's I/O concentrators per\n"
            "host, each with a subfile",
    .dflt = "[HDF5's: 1]", .apis = API_BIT(API_PHDF5), .json_key = "hdf5_ioc_per_node",
    .json = hdf5_json_unset, .json_everywhere = true);
/* A joining option (OPT_API_JOIN) whose parser first asks whether this
 * build's HDF5 has the calls. */
static const struct opt_row hdf5_multi_row = OPT_API_OTHER(
    "--hdf5.multi-dataset", "only", "only or no value", hdf5_multi_option,
    .field = OPT_FIELD_OF(struct hdf5_settings, int, multi_dataset), .value_optional = true,
    .help = "also move every variable of a file in one call\n"
            "(H5Dwrite_multi, H5Dread_multi; HDF5 1.14 or\n"
            "newer), beside one call per variable; =only:\n"
            "the multi-dataset calls alone",
    .apis = API_BIT(API_PHDF5), .json_key = "hdf5_multi_dataset", .json = opt_join_json,
    .json_everywhere = true);

/* The advisor's choices of HDF5's metadata (docs/advisor.md, "Choices"). */
static const struct opt_advice hdf5_coll_metadata_advice = {
    .baseline_key = "collective_metadata",
    .search_key = "collective_metadata",
    .kind = OPT_ADVICE_FLAG,
    .nsearch = 2,
    .search = {0, 1},
    .needs = OPT_ADVICE_NEEDS_SHARED,
    .why = "collective metadata acts among the processes of a file"};
static const struct opt_advice hdf5_meta_block_advice = {.baseline_key = "metadata_block_size",
                                                         .search_key = "metadata_block_sizes",
                                                         .kind = OPT_ADVICE_SIZE,
                                                         .dflt = 2048,
                                                         .nsearch = 1,
                                                         .search = {2048}};

const struct opt_row hdf5_coll_metadata_row = OPT_API_FLAG(
    struct hdf5_settings, "--hdf5.collective-metadata", coll_metadata,
    .help = "collective metadata operations: the processes\n"
            "read metadata together and write it in one\n"
            "collective call (H5Pset_all_coll_metadata_ops,\n"
            "H5Pset_coll_metadata_write)",
    .dflt = "[independent]", .apis = API_BIT(API_PHDF5), .json_key = "hdf5_collective_metadata",
    .json_everywhere = true, .advice = &hdf5_coll_metadata_advice);
const struct opt_row hdf5_meta_block_row = OPT_API_SIZE(
    struct hdf5_settings, "--hdf5.metadata-block-size", meta_block,
    .help = "bytes HDF5 sets aside at a time for small\n"
            "metadata (H5Pset_meta_block_size)",
    .dflt = "[HDF5's: 2K]", .apis = API_BIT(API_PHDF5), .json_key = "hdf5_metadata_block_size",
    .json = hdf5_json_unset, .json_everywhere = true, .advice = &hdf5_meta_block_advice);

static const struct opt_row *const hdf5_rows[] = {
    &hdf5_driver_row,        &hdf5_stripe_row,     &hdf5_ioc_row, &hdf5_multi_row,
    &hdf5_coll_metadata_row, &hdf5_meta_block_row, NULL,
};

/* HDF5's calls of the advisor's recommendation (docs/advisor.md, "The
 * answer"): the file access, transfer and dataset creation properties
 * its settings set, its own rows' among them. */
static void hdf5_advice_calls(const struct api_advice_in *in, char *buf, size_t len)
{
    size_t at = 0;
    api_addf(buf, len, &at, "H5Pset_fapl_mpio(fapl, comm, info)%s",
             in->hints ? " with the hints in info" : "");
    if (in->collective)
        api_addf(buf, len, &at, "; H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE)");
    if (in->align)
        api_addf(buf, len, &at, "; H5Pset_alignment(fapl, %s, %s)",
                 in->threshold ? in->threshold : "1", in->align);
    const char *mb = in->own(in->ctx, &hdf5_meta_block_row);
    if (in->own(in->ctx, &hdf5_coll_metadata_row))
        api_addf(buf, len, &at,
                 "; H5Pset_all_coll_metadata_ops(fapl, true); "
                 "H5Pset_coll_metadata_write(fapl, true)");
    if (mb)
        api_addf(buf, len, &at, "; H5Pset_meta_block_size(fapl, %s)", mb);
    if (in->chunked)
        api_addf(buf, len, &at, "; H5Pset_chunk(dcpl, rank, %s)",
                 in->chunk_shape ? in->chunk_shape : "each process's block");
    api_addf(buf, len, &at, "; H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER)");
}

const struct api_advice hdf5_advice = {.calls = hdf5_advice_calls, .words = NULL};

/* HDF5's metadata settings, for the reports' headers (hdf5_headers):
 * "collective operations, block size 65536 bytes" ("independent",
 * "HDF5's" for what was not given). True when --hdf5.collective-metadata
 * or --hdf5.metadata-block-size was given. */
static bool hdf5_metadata_text(const struct api_settings *s, char *buf, size_t len)
{
    const struct hdf5_settings *h = hdf5_settings_of(s);
    char size[32] = "HDF5's";
    if (h->meta_block > 0)
        snprintf(size, sizeof size, "%" PRId64 " bytes", h->meta_block);
    snprintf(buf, len, "%s operations, block size %s",
             h->coll_metadata ? "collective" : "independent", size);
    return h->coll_metadata || h->meta_block > 0;
}

/* The reports' header lines of HDF5's options. The drivers' line ("VFL
 * used for HDF5 I/O", hdf5_drivers_text) is the original h5perf's, which
 * the guide's report always prints (docs/original.md §7.1). */
/* --hdf5.multi-dataset's: which calls run, and that the multi-dataset
 * run beside the default one follows it in the same processes (docs/
 * hdf5.md). */
static bool hdf5_calls_text(const struct api_settings *s, char *buf, size_t len)
{
    return opt_join_text(hdf5_settings_of(s)->multi_dataset, "one per variable", "multi-dataset",
                         "the first run", hdf5_multi_row.long_name, buf, len);
}

static const struct api_header hdf5_headers[] = {
    {"HDF5 metadata", hdf5_metadata_text},
    {"HDF5 calls", hdf5_calls_text},
    {NULL, NULL},
};

/* Each driver asked for (mpio when none), with one call per variable and,
 * with --hdf5.multi-dataset, with one call for all (=only: that alone). */
static unsigned hdf5_chosen(const struct api_settings *s)
{
    const struct hdf5_settings *h = hdf5_settings_of(s);
    unsigned drivers = h->drivers ? h->drivers : 1u << HDF5_DRIVER_MPIO;
    return opt_join_mask(h->multi_dataset, drivers, drivers << HDF5_DRIVER_COUNT);
}

/* How row was given (NULL: not), and its value as typed. */
static const char *hdf5_spelled(const struct api_settings *s, const struct opt_row *row)
{
    return api_row_spelled(s, API_PHDF5, row);
}

static const char *hdf5_raw(const struct api_settings *s, const struct opt_row *row)
{
    return api_row_raw(s, API_PHDF5, row);
}

/* After these, --stonewall with --hdf5.multi-dataset is refused by the
 * rule of every variant that joins variables (api_opts.joins_row,
 * options/finish.c). */
static int hdf5_finish(const struct api_settings *s, const struct api_core *core, struct cli_msg *m)
{
    bool subfiling = hdf5_settings_of(s)->drivers >> HDF5_DRIVER_SUBFILING & 1u;
    const struct opt_row *sub[] = {&hdf5_stripe_row, &hdf5_ioc_row};
    for (size_t i = 0; i < sizeof sub / sizeof sub[0] && !subfiling; i++)
        if (hdf5_spelled(s, sub[i]))
            return cli_fail(m,
                            "h5perf: %s: applies to the subfiling driver only; give "
                            "--hdf5.driver subfiling (or mpio,subfiling)",
                            hdf5_spelled(s, sub[i]));
    /* HDF5 (1.14, 2.0) carries out collective requests through this driver
     * independently, and fails those of derived datatypes (chunked
     * datasets read collectively). */
    if (subfiling && core->collective)
        return cli_fail(m,
                        "h5perf: %s: HDF5's subfiling driver does no collective I/O (it fails "
                        "collective requests of several pieces); give %s without subfiling, or "
                        "leave out %s",
                        core->collective_name, hdf5_spelled(s, &hdf5_driver_row),
                        core->collective_name);
    if (subfiling && core->read_only)
        return cli_fail(m,
                        "h5perf: %s: cannot be combined with %s '%s' (h5perf cannot check a "
                        "kept subfiled file before it reads it)",
                        core->read_only_name, hdf5_spelled(s, &hdf5_driver_row),
                        hdf5_raw(s, &hdf5_driver_row));
    return 0;
}

/* A file HDF5 cannot carry (docs/hdf5.md, "Limits"): with its metadata
 * blocks the file must end at or below the largest MPI-IO offset, or
 * H5Fclose fails (MPI_File_set_size) after the whole run. When the blocks
 * alone are to blame (the file fits with HDF5's own), the line names
 * --hdf5.metadata-block-size and the largest that fits: one block then
 * holds all the metadata. */
static int hdf5_check_file(const struct api_settings *s, const struct extent_file *f, int nprocs,
                           const char *lead, const char *tail, struct cli_msg *m)
{
    int64_t meta_block = hdf5_settings_of(s)->meta_block;
    if (hdf5_file_end(f, meta_block) >= 0)
        return 0;
    char size[32], block[192];
    cli_bytes(size, sizeof size, f->var_bytes);
    const char *sets = f->nvars == 1 ? "" : "s", *procs = nprocs == 1 ? "" : "es";
    if (meta_block > 0 && hdf5_file_end(f, 0) >= 0) {
        int64_t most = API_MAX_FILE_END - f->nvars * f->var_bytes;
        return cli_fail(m,
                        "h5perf: %s '%s': HDF5 places the data of %d dataset%s of %s (%d "
                        "process%s) after a metadata block of that size, and the file would end "
                        "beyond %" PRId64 " bytes, the largest MPI-IO file offset; give at most "
                        "%" PRId64 ", or %s",
                        hdf5_spelled(s, &hdf5_meta_block_row), hdf5_raw(s, &hdf5_meta_block_row),
                        f->nvars, sets, size, nprocs, procs, API_MAX_FILE_END, most, tail);
    }
    if (meta_block > 0)
        snprintf(block, sizeof block, "%s '%s'", hdf5_spelled(s, &hdf5_meta_block_row),
                 hdf5_raw(s, &hdf5_meta_block_row));
    else
        snprintf(block, sizeof block, "2048 bytes, HDF5's default");
    return cli_fail(m,
                    "h5perf: %s: HDF5 places %d dataset%s of %s (%d process%s) after its first "
                    "metadata block (%s) and its other metadata in more, and the file would end "
                    "beyond %" PRId64 " bytes, the largest MPI-IO file offset; give smaller "
                    "sizes, or %s",
                    lead, f->nvars, sets, size, nprocs, procs, block, API_MAX_FILE_END, tail);
}

static void hdf5_json_run(struct jsonw *w, int v)
{
    jsonw_object(w);
    jsonw_key_string(w, "driver", hdf5_driver_names[hdf5_variant_driver(v)]);
    jsonw_key_bool(w, "multi_dataset", hdf5_variant_multi(v));
    jsonw_end(w);
}

const struct api_opts hdf5_opts = {
    .prefix = "hdf5",
    .help_heading = "HDF5 (-A phdf5) takes",
    .rows = hdf5_rows,
    .variants = hdf5_variants,
    .nvariants = (int)(sizeof hdf5_variants / sizeof hdf5_variants[0]),
    .chosen = hdf5_chosen,
    .finish = hdf5_finish,
    .check_file = hdf5_check_file,
    .json_run = hdf5_json_run,
    .headers = hdf5_headers,
    .threads_row = &hdf5_driver_row,
    .joins_row = &hdf5_multi_row,
    .joins_how = "a multi-dataset call moves them together",
};
