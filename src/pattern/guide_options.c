/* The guide's rows of the option table (cli/option.h): its sizes, its
 * geometry and storage, its datasets and files, each one option of its
 * own settings (guide_options.h), and the options only its runs take
 * (--direct, --read-shift, --overhead; the core's, guide_options.h says
 * why). Pure. */
#include "cli/option.h"
#include "pattern/guide.h"
#include "pattern/guide_options.h"
#include "base/jsonw.h"

_Static_assert(sizeof(struct guide_settings) <= PATTERN_SETTINGS_BYTES,
               "cli/config.h: PATTERN_SETTINGS_BYTES");

const struct pattern_settings *guide_own(const struct config *c)
{
    return pattern_settings_of(c, &pattern_guide);
}

const struct guide_settings *guide_of(const struct config *c)
{
    return guide_settings_of(guide_own(c));
}

struct guide_settings *guide_edit(struct config *c)
{
    return guide_settings_edit(pattern_settings_edit(c, &pattern_guide));
}

const char *guide_spelled(const struct config *c, const struct opt_row *row)
{
    return pattern_row_spelled(guide_own(c), &pattern_guide, row);
}

const char *guide_raw(const struct config *c, const struct opt_row *row)
{
    return pattern_row_raw(guide_own(c), &pattern_guide, row);
}

static void guide_json_geometry(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct guide_settings *s = src;
    jsonw_key_string(w, r->json_key, s->geometry_2d ? "2d" : "1d");
}

static void guide_json_layout(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct guide_settings *s = src;
    jsonw_key_string(w, r->json_key, s->interleaved ? "interleaved" : "contiguous");
}

static void guide_json_storage(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct guide_settings *s = src;
    jsonw_key_string(w, r->json_key, s->chunk ? "chunked" : "contiguous");
}

const struct opt_row guide_bytes_row =
    OPT_PATTERN_SIZE(struct guide_settings, "--num-bytes", bytes, .short_name = "-e",
                     .help = "bytes per process per dataset; with -g the\n"
                             "dataset is a square of side -e x processes",
                     .dflt = "[256K; 8K with -g]", .json_key = "bytes_per_process");
const struct opt_row guide_min_xfer_row = OPT_PATTERN_SIZE(
    struct guide_settings, "--min-xfer-size", xfer_min, .short_name = "-x",
    .help = "smallest transfer size", .dflt = "[half of -e]", .json_key = "min_xfer_size");
const struct opt_row guide_max_xfer_row =
    OPT_PATTERN_SIZE(struct guide_settings, "--max-xfer-size", xfer_max, .short_name = "-X",
                     .help = "largest transfer size", .dflt = "[-e]", .json_key = "max_xfer_size");
const struct opt_row guide_block_row =
    OPT_PATTERN_SIZE(struct guide_settings, "--block-size", block, .short_name = "-B",
                     .help = "block size, a divisor of every transfer size", .dflt = "[half of -e]",
                     .json_key = "block_size");
const struct opt_row guide_interleaved_row =
    OPT_PATTERN_FLAG(struct guide_settings, "--interleaved", interleaved, .short_name = "-I",
                     .help = "interleaved blocks of the processes", .dflt = "[contiguous]",
                     .json_key = "layout", .json = guide_json_layout);
const struct opt_row guide_chunk_row =
    OPT_PATTERN_FLAG(struct guide_settings, "--chunk", chunk, .short_name = "-c",
                     .help = "chunked HDF5 datasets of -B bytes", .dflt = "[contiguous]",
                     .json_key = "storage", .json = guide_json_storage);
const struct opt_row guide_geometry_row =
    OPT_PATTERN_FLAG(struct guide_settings, "--geometry", geometry_2d, .short_name = "-g",
                     .help = "2D geometry: square datasets of side -e times\n"
                             "the processes, blocks of -B x -B, transfer\n"
                             "buffers of -B x transfer size (-I: transfer\n"
                             "size x -B); -c stores -B x -B chunks",
                     .dflt = "[1D]", .json_key = "geometry", .json = guide_json_geometry);
const struct opt_row guide_dsets_row =
    OPT_PATTERN_COUNT(struct guide_settings, "--num-dsets", num_dsets, .short_name = "-d",
                      .help = "datasets per file", .dflt = "[1]", .json_key = "num_dsets");
const struct opt_row guide_files_row =
    OPT_PATTERN_COUNT(struct guide_settings, "--num-files", num_files, .short_name = "-F",
                      .help = "files per run", .dflt = "[1]", .json_key = "num_files");
static const struct opt_row guide_direct =
    OPT_FLAG(OPT_DIRECT, NULL, "--direct", direct,
             .help = "POSIX with O_DIRECT, bypassing the page cache;\n"
                     "-e and -B must be multiples of 4K",
             .apis = API_BIT(API_POSIX),
             .apis_hint = "for MPI-IO give your library's direct I/O hints in HDF5_MPI_INFO",
             .json_key = "direct", .json_everywhere = true);
static const struct opt_row guide_read_shift =
    OPT_COUNT(OPT_READ_SHIFT, NULL, "--read-shift", read_shift,
              .help = "process r reads the data process (r+N) mod P\n"
                      "wrote, so that with processes on several hosts\n"
                      "reads do not come from the writer's cache",
              .json_key = "read_shift", .json_everywhere = true);
static const struct opt_row guide_overhead =
    OPT_FLAG(OPT_OVERHEAD, NULL, "--overhead", overhead,
             .help = "end the text report with the throughput ratios\n"
                     "HDF5/MPI-IO and MPI-IO/POSIX",
             .json_key = "overhead", .json_everywhere = true);

const struct opt_row *const guide_rows[] = {
    &guide_bytes_row,
    &guide_min_xfer_row,
    &guide_max_xfer_row,
    &guide_block_row,
    &guide_interleaved_row,
    &guide_chunk_row,
    &guide_geometry_row,
    &guide_dsets_row,
    &guide_files_row,
    &guide_direct,
    &guide_read_shift,
    &guide_overhead,
    NULL,
};
