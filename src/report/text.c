/* The legacy text report (docs/original.md §7): parameter header,
 * per-transfer-size lines and the result, time and details blocks of each API,
 * byte for byte as the original h5perf prints them (minus the deliberate
 * differences of docs/differences.md). Formats only: no MPI, and no statistics
 * beyond results_summarize(). */
#include "report/text.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#define ONE_KB INT64_C(1024)
#define ONE_MB INT64_C(1048576)
#define ONE_GB INT64_C(1073741824)

/* One report indentation level is 4 spaces (docs/original.md §7). */
static void indent(FILE *out, int level)
{
    fprintf(out, "%*s", 4 * level, "");
}

void text_size(char *buf, size_t len, int64_t v)
{
    if (v >= ONE_KB && v % ONE_KB == 0) {
        if (v >= ONE_MB && v % ONE_MB == 0) {
            if (v >= ONE_GB && v % ONE_GB == 0)
                snprintf(buf, len, "%" PRId64 "GB", v / ONE_GB);
            else
                snprintf(buf, len, "%" PRId64 "MB", v / ONE_MB);
        } else {
            snprintf(buf, len, "%" PRId64 "KB", v / ONE_KB);
        }
    } else {
        snprintf(buf, len, "%" PRId64, v);
    }
}

/* A size as text_size renders it, followed by `end` (":", "x" or "\n"). */
static void put_size(FILE *out, int64_t v, const char *end)
{
    char buf[32];

    text_size(buf, sizeof(buf), v);
    fprintf(out, "%s%s", buf, end);
}

/* a * b, clamped to the int64_t range instead of overflowing. Validation
 * rejects configurations whose sizes overflow, but a header printed for one
 * must still not be undefined behaviour. */
static int64_t mul(int64_t a, int64_t b)
{
    bool over;

    if (a == 0 || b == 0)
        return 0;
    if (a > 0)
        over = b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a;
    else
        over = b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b;
    if (over)
        return (a > 0) == (b > 0) ? INT64_MAX : INT64_MIN;
    return a * b;
}

static void header_sizes_1d(FILE *out, const struct report_settings *c, int rank)
{
    fprintf(out, "rank %d: Number of bytes per process per dataset=", rank);
    put_size(out, c->bytes, "\n");
    fprintf(out, "rank %d: Size of dataset(s)=", rank);
    put_size(out, mul(c->bytes, c->min_procs), ":");
    put_size(out, mul(c->bytes, c->max_procs), "\n");
    fprintf(out, "rank %d: File size=", rank);
    put_size(out, mul(mul(c->bytes, c->min_procs), c->num_dsets), ":");
    put_size(out, mul(mul(c->bytes, c->max_procs), c->num_dsets), "\n");
    fprintf(out, "rank %d: Transfer buffer size=", rank);
    put_size(out, c->xfer_min, ":");
    put_size(out, c->xfer_max, "\n");
    fprintf(out, "rank %d: Block size=", rank);
    put_size(out, c->block, "\n");
}

/* The 2D lines, including the original's "bytes per process" of e*e*p. */
static void header_sizes_2d(FILE *out, const struct report_settings *c, int rank)
{
    int64_t side_min = mul(c->bytes, c->min_procs), side_max = mul(c->bytes, c->max_procs);

    fprintf(out, "rank %d: Number of bytes per process per dataset=", rank);
    put_size(out, mul(mul(c->bytes, c->bytes), c->min_procs), ":");
    put_size(out, mul(mul(c->bytes, c->bytes), c->max_procs), "\n");
    fprintf(out, "rank %d: Size of dataset(s)=", rank);
    put_size(out, side_min, "x");
    put_size(out, side_min, ":");
    put_size(out, side_max, "x");
    put_size(out, side_max, "\n");
    fprintf(out, "rank %d: File size=", rank);
    put_size(out, mul(mul(side_min, side_min), c->num_dsets), ":");
    put_size(out, mul(mul(side_max, side_max), c->num_dsets), "\n");
    fprintf(out, "rank %d: Transfer buffer size=", rank);
    if (c->interleaved) {
        put_size(out, c->xfer_min, "x");
        put_size(out, c->block, ":");
        put_size(out, c->xfer_max, "x");
        put_size(out, c->block, "\n");
    } else {
        put_size(out, c->block, "x");
        put_size(out, c->xfer_min, ":");
        put_size(out, c->block, "x");
        put_size(out, c->xfer_max, "\n");
    }
    fprintf(out, "rank %d: Block size=", rank);
    put_size(out, c->block, "x");
    put_size(out, c->block, "\n");
}

/* Index of the first entry before `upto` with this key, or -1. */
static int info_find(const struct report_settings *c, int upto, const char *key)
{
    for (int i = 0; i < upto; i++)
        if (strcmp(c->info[i].key, key) == 0)
            return i;
    return -1;
}

/* What h5_dump_info_object prints for the MPI_Info built from the entries:
 * MPI_Info_set of a key already present replaces its value in place, so a
 * repeated key is listed once, where it first appeared, with its last value. */
static void dump_info(FILE *out, const struct report_settings *c)
{
    int count = c->info_count < 0 ? 0 : c->info_count;
    int items = 0;

    if (!c->info_defined) {
        fputs("object is MPI_INFO_NULL\n", out);
        return;
    }
    if (count > REPORT_MAX_INFO)
        count = REPORT_MAX_INFO;
    for (int i = 0; i < count; i++)
        if (info_find(c, i, c->info[i].key) < 0)
            items++;
    fprintf(out, "object has %d items\n", items);
    for (int i = 0; i < count; i++) {
        const char *value = c->info[i].value;

        if (info_find(c, i, c->info[i].key) >= 0)
            continue;
        for (int j = i + 1; j < count; j++)
            if (strcmp(c->info[j].key, c->info[i].key) == 0)
                value = c->info[j].value;
        fprintf(out, "%s=%s\n", c->info[i].key, value);
    }
}

void text_header(FILE *out, const struct report_settings *cfg, int rank, const char *hdf5_version,
                 int max_info_val)
{
    fprintf(out, "HDF5 Library: Version %s\n", hdf5_version);
    fprintf(out, "rank %d: ==== Parameters ====\n", rank);
    fprintf(out, "rank %d: IO API=", rank);
    for (int a = 0; a < API_COUNT; a++)
        if (cfg->apis & API_BIT(a))
            fprintf(out, "%s ", api_desc((enum api_id)a)->key);
    fputc('\n', out);
    fprintf(out, "rank %d: Number of files=%d\n", rank, cfg->num_files);
    fprintf(out, "rank %d: Number of datasets=%d\n", rank, cfg->num_dsets);
    fprintf(out, "rank %d: Number of iterations=%d\n", rank, cfg->iterations);
    fprintf(out, "rank %d: Number of processes=%d:%d\n", rank, cfg->min_procs, cfg->max_procs);
    if (cfg->geometry_2d)
        header_sizes_2d(out, cfg, rank);
    else
        header_sizes_1d(out, cfg, rank);
    fprintf(out, "rank %d: Block Pattern in Dataset=%s\n", rank,
            cfg->interleaved ? "Interleaved" : "Contiguous");
    fprintf(out, "rank %d: I/O Method for MPI and HDF5=%s\n", rank,
            cfg->collective ? "Collective" : "Independent");
    fprintf(out, "rank %d: Geometry=%s\n", rank, cfg->geometry_2d ? "2D" : "1D");
    fprintf(out, "rank %d: VFL used for HDF5 I/O=%s\n", rank, cfg->hdf5_drivers);
    fprintf(out, "rank %d: Data storage method in HDF5=%s\n", rank,
            cfg->chunk ? "Chunked" : "Contiguous");
    for (int i = 0; i < cfg->nheaders; i++)
        fprintf(out, "rank %d: %s=%s\n", rank, cfg->headers[i].label, cfg->headers[i].text);
    fprintf(out, "rank %d: Env HDF5_PARAPREFIX=%s\n", rank,
            cfg->paraprefix ? cfg->paraprefix : "not set");
    fprintf(out, "rank %d: Dumping MPI Info Object (up to %d bytes per item):\n", rank,
            max_info_val);
    dump_info(out, cfg);
    fprintf(out, "rank %d: ==== End of Parameters ====\n\n", rank);
}

void text_nprocs(FILE *out, int nprocs)
{
    fprintf(out, "Number of processors = %d\n", nprocs);
}

void text_xfer(FILE *out, const struct report_settings *cfg, int nprocs, int64_t xfer)
{
    int64_t side = mul(cfg->bytes, nprocs); /* 1D: the dataset; 2D: its side */
    int64_t dset = cfg->geometry_2d ? mul(side, side) : side;
    double file_mb = ((double)cfg->num_dsets * (double)dset) / (double)ONE_MB;

    if (!cfg->geometry_2d) {
        fprintf(out, "Transfer Buffer Size: %" PRId64 " bytes, File size: %.2f MB\n", xfer,
                file_mb);
        indent(out, 1);
        fprintf(out, "  # of files: %d, # of datasets: %d, dataset size: %.2f MB\n", cfg->num_files,
                cfg->num_dsets, (double)dset / (double)ONE_MB);
        return;
    }
    if (cfg->interleaved)
        fprintf(out, "Transfer Buffer Size: %" PRId64 "x%" PRId64 " bytes, File size: %.2f MB\n",
                xfer, cfg->block, file_mb);
    else
        fprintf(out, "Transfer Buffer Size: %" PRId64 "x%" PRId64 " bytes, File size: %.2f MB\n",
                cfg->block, xfer, file_mb);
    indent(out, 1);
    fprintf(out, "  # of files: %d, # of datasets: %d, dataset size: %.2fx%.2f KB\n",
            cfg->num_files, cfg->num_dsets, (double)side / (double)ONE_KB,
            (double)side / (double)ONE_KB);
}

void text_buffer_offset(FILE *out, int64_t offset)
{
    indent(out, 1);
    fprintf(out, "  Buffer offset: %" PRId64 " bytes past a page boundary\n", offset);
}

void text_api(FILE *out, enum api_id api, int variant)
{
    indent(out, 2);
    fprintf(out, "IO API = %s\n", api_desc(api) ? api_report_name(api, variant) : "unknown");
}

/* The names and timers of one phase's blocks, in the order of docs/original.md §7.3. */
struct phase {
    const char *raw, *fine, *gross;   /* result blocks */
    const char *open, *close;         /* time blocks (-D t) */
    const char *open_det, *close_det; /* details blocks of the time blocks */
    enum timer_id t_raw, t_fine, t_gross, t_open, t_close;
};

static const struct phase write_phase = {
    .raw = "Raw Data Write",
    .fine = "Write",
    .gross = "Write Open-Close",
    .open = "Write File Open",
    .close = "Write File Close",
    .open_det = "Write file open",
    .close_det = "Write file close",
    .t_raw = TIMER_WRITE_RAW,
    .t_fine = TIMER_WRITE_FINE,
    .t_gross = TIMER_WRITE_GROSS,
    .t_open = TIMER_WRITE_OPEN,
    .t_close = TIMER_WRITE_CLOSE,
};

static const struct phase read_phase = {
    .raw = "Raw Data Read",
    .fine = "Read",
    .gross = "Read Open-Close",
    .open = "Read File Open",
    .close = "Read File Close",
    .open_det = "Read file open",
    .close_det = "Read file close",
    .t_raw = TIMER_READ_RAW,
    .t_fine = TIMER_READ_FINE,
    .t_gross = TIMER_READ_GROSS,
    .t_open = TIMER_READ_OPEN,
    .t_close = TIMER_READ_CLOSE,
};

/* Replaces a block's figures when they come from a failed run. */
static void failed_line(FILE *out)
{
    indent(out, 4);
    fputs("FAILED: data verification (see stderr)\n", out);
}

/* Per iteration, the fastest and the slowest process. */
static void details_block(FILE *out, const struct api_result *r, const char *name, enum timer_id t,
                          bool failed)
{
    indent(out, 3);
    fprintf(out, "%s details:\n", name);
    if (failed) {
        failed_line(out);
        return;
    }
    for (int i = 0; i < r->iterations; i++) {
        indent(out, 4);
        fprintf(out, "Iteration %d:\n", i + 1);
        indent(out, 5);
        fprintf(out, "Minimum Time: %.2fs\n", r->it[i].t[t].min);
        indent(out, 5);
        fprintf(out, "Maximum Time: %.2fs\n", r->it[i].t[t].max);
    }
}

static void throughput_line(FILE *out, bool times, const char *which, double mbs, double t)
{
    indent(out, 4);
    fprintf(out, "%s Throughput: %6.2f MB/s", which, mbs);
    if (times)
        fprintf(out, " (%7.3f s)", t);
    fputc('\n', out);
}

/* The maximum throughput is that of the shortest time and vice versa. */
static void result_block(FILE *out, const struct report_settings *cfg, const struct api_result *r,
                         const char *name, enum timer_id t, bool failed)
{
    struct timer_summary s;

    indent(out, 3);
    fprintf(out, "%s (%d iteration(s)):\n", name, r->iterations);
    if (failed) {
        failed_line(out);
        return;
    }
    results_summarize(r, t, &s);
    throughput_line(out, cfg->debug_times, "Maximum", s.mbs_max, s.t_min);
    throughput_line(out, cfg->debug_times, "Average", s.mbs_avg, s.t_avg);
    throughput_line(out, cfg->debug_times, "Minimum", s.mbs_min, s.t_max);
}

static void time_block(FILE *out, const struct report_settings *cfg, const struct api_result *r,
                       const char *name, enum timer_id t, bool failed)
{
    static const char *const which[3] = {"Minimum", "Average", "Maximum"};
    struct timer_summary s;
    double v[3];

    indent(out, 3);
    fprintf(out, "%s (%d iteration(s)):\n", name, r->iterations);
    if (failed) {
        failed_line(out);
        return;
    }
    results_summarize(r, t, &s);
    v[0] = s.t_min;
    v[1] = s.t_avg;
    v[2] = s.t_max;
    for (int i = 0; i < 3; i++) {
        indent(out, 4);
        fprintf(out, "%s Accumulated Time using %d file(s): %7.5f s\n", which[i], cfg->num_files,
                v[i]);
    }
}

static void phase_blocks(FILE *out, const struct report_settings *cfg, const struct api_result *r,
                         const struct phase *ph, bool failed)
{
    bool details = cfg->debug_level >= 3;

    if (cfg->debug_raw) {
        if (details)
            details_block(out, r, ph->raw, ph->t_raw, failed);
        result_block(out, cfg, r, ph->raw, ph->t_raw, failed);
    }
    /* The original's "MPI Write/Read details" (always 0.00) would come here:
     * omitted (docs/original.md §0). */
    if (details)
        details_block(out, r, ph->fine, ph->t_fine, failed);
    result_block(out, cfg, r, ph->fine, ph->t_fine, failed);
    if (details)
        details_block(out, r, ph->gross, ph->t_gross, failed);
    result_block(out, cfg, r, ph->gross, ph->t_gross, failed);
    if (cfg->debug_times) {
        time_block(out, cfg, r, ph->open, ph->t_open, failed);
        time_block(out, cfg, r, ph->close, ph->t_close, failed);
    }
    if (details) {
        details_block(out, r, ph->open_det, ph->t_open, failed);
        details_block(out, r, ph->close_det, ph->t_close, failed);
    }
}

void text_api_results(FILE *out, const struct report_settings *cfg, const struct api_result *r)
{
    enum run_status st = results_status(r);

    /* The engine reports an I/O error on stderr; no figure of the run stands. */
    if (st == RUN_IO_ERROR)
        return;
    if (!cfg->read_only)
        phase_blocks(out, cfg, r, &write_phase, false);
    if (!cfg->write_only)
        phase_blocks(out, cfg, r, &read_phase, st == RUN_VERIFY_FAILED);
}
