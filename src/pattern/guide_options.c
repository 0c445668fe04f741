/* The guide's rows of the option table (cli/option.h): its sizes, its
 * geometry and storage, its datasets and files, and the options only its
 * runs take (--direct, --read-shift, --overhead). Pure. */
#include "cli/option.h"
#include "pattern/guide.h"
#include "base/jsonw.h"

static void guide_json_geometry(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_string(w, r->json_key, c->geometry_2d ? "2d" : "1d");
}

static void guide_json_layout(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_string(w, r->json_key, c->interleaved ? "interleaved" : "contiguous");
}

static void guide_json_storage(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key_string(w, r->json_key, c->chunk ? "chunked" : "contiguous");
}

static const struct opt_row guide_bytes =
    OPT_SIZE(OPT_BYTES, "-e", "--num-bytes", bytes,
             .help = "bytes per process per dataset; with -g the\n"
                     "dataset is a square of side -e x processes",
             .dflt = "[256K; 8K with -g]", .json_key = "bytes_per_process");
static const struct opt_row guide_min_xfer =
    OPT_SIZE(OPT_MIN_XFER, "-x", "--min-xfer-size", xfer_min, .help = "smallest transfer size",
             .dflt = "[half of -e]", .json_key = "min_xfer_size");
static const struct opt_row guide_max_xfer =
    OPT_SIZE(OPT_MAX_XFER, "-X", "--max-xfer-size", xfer_max, .help = "largest transfer size",
             .dflt = "[-e]", .json_key = "max_xfer_size");
static const struct opt_row guide_block = OPT_SIZE(
    OPT_BLOCK, "-B", "--block-size", block, .help = "block size, a divisor of every transfer size",
    .dflt = "[half of -e]", .json_key = "block_size");
static const struct opt_row guide_interleaved =
    OPT_FLAG(OPT_INTERLEAVED, "-I", "--interleaved", interleaved,
             .help = "interleaved blocks of the processes", .dflt = "[contiguous]",
             .json_key = "layout", .json = guide_json_layout);
static const struct opt_row guide_chunk =
    OPT_FLAG(OPT_CHUNK, "-c", "--chunk", chunk, .help = "chunked HDF5 datasets of -B bytes",
             .dflt = "[contiguous]", .json_key = "storage", .json = guide_json_storage);
static const struct opt_row guide_geometry =
    OPT_FLAG(OPT_GEOMETRY, "-g", "--geometry", geometry_2d,
             .help = "2D geometry: square datasets of side -e times\n"
                     "the processes, blocks of -B x -B, transfer\n"
                     "buffers of -B x transfer size (-I: transfer\n"
                     "size x -B); -c stores -B x -B chunks",
             .dflt = "[1D]", .json_key = "geometry", .json = guide_json_geometry);
static const struct opt_row guide_dsets =
    OPT_COUNT(OPT_DSETS, "-d", "--num-dsets", num_dsets, .help = "datasets per file", .dflt = "[1]",
              .json_key = "num_dsets");
static const struct opt_row guide_files =
    OPT_COUNT(OPT_FILES, "-F", "--num-files", num_files, .help = "files per run", .dflt = "[1]",
              .json_key = "num_files");
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
    &guide_bytes,
    &guide_min_xfer,
    &guide_max_xfer,
    &guide_block,
    &guide_interleaved,
    &guide_chunk,
    &guide_geometry,
    &guide_dsets,
    &guide_files,
    &guide_direct,
    &guide_read_shift,
    &guide_overhead,
    NULL,
};
