/* Unit tests of base/iomode.h: HDF5's actual I/O modes and no-collective
 * causes as h5perf names them, a phase's mode over transfers and
 * processes, when it counts as a fallback, the stderr line, and the JSON
 * actual_io_mode of a run (docs/results.md). No MPI, no HDF5. */
#include <stdlib.h>

#include "check.h"
#include "cli/cli.h"
#include "base/iomode.h"
#include "pattern/pattern.h"
#include "report/json.h"
#include "options/options.h"
#include "pattern/guide_options.h"

static void test_names(void)
{
    CHECK_STR(io_mode_name(IO_MODE_NO_COLLECTIVE), "no_collective");
    CHECK_STR(io_mode_name(IO_MODE_CHUNK_INDEPENDENT), "chunk_independent");
    CHECK_STR(io_mode_name(IO_MODE_CHUNK_COLLECTIVE), "chunk_collective");
    CHECK_STR(io_mode_name(IO_MODE_CHUNK_MIXED), "chunk_mixed");
    CHECK_STR(io_mode_name(IO_MODE_CONTIGUOUS_COLLECTIVE), "contiguous_collective");
    CHECK_STR(io_mode_name(IO_MODE_UNKNOWN), "unknown");
    CHECK_STR(io_mode_name((enum io_mode)42), "unknown");
}

static void test_causes(void)
{
    char buf[256];
    io_mode_cause_words(0, buf, sizeof buf);
    CHECK_STR(buf, "");
    io_mode_cause_words(IO_CAUSE_DATATYPE_CONVERSION, buf, sizeof buf);
    CHECK_STR(buf, "datatype conversion");
    io_mode_cause_words(IO_CAUSE_SET_INDEPENDENT | IO_CAUSE_DATA_TRANSFORMS |
                            IO_CAUSE_NOT_CONTIGUOUS_OR_CHUNKED_DATASET | 0x200,
                        buf, sizeof buf);
    CHECK_STR(buf, "independent I/O was set, data transforms, not contiguous or chunked dataset, "
                   "unknown cause 0x200");
    /* HDF5 1.14's bit (1.10 has none there). */
    io_mode_cause_words(IO_CAUSE_DATATYPE_CONVERSION | IO_CAUSE_NO_SELECTION_IO, buf, sizeof buf);
    CHECK_STR(buf, "datatype conversion, selection or vector I/O disabled");
    io_mode_cause_words(IO_CAUSE_MPI_OPT_TYPES_DISABLED | IO_CAUSE_DATATYPE_CONVERSION, buf, 24);
    CHECK_STR(buf, "datatype conversion, MP"); /* cut to fit */
}

/* A phase of 4 transfers with these modes and causes. */
static struct io_mode_phase phase(uint32_t modes, bool agree, uint32_t cause, int with_cause)
{
    return (struct io_mode_phase){
        .calls = 4, .modes = modes, .agree = agree, .cause = cause, .cause_processes = with_cause};
}

static void test_phase(void)
{
    struct io_mode_seen s = {0};
    io_mode_add(&s, IO_MODE_CONTIGUOUS_COLLECTIVE, 0, 0);
    io_mode_add(&s, IO_MODE_NO_COLLECTIVE, 0, IO_CAUSE_DATATYPE_CONVERSION);
    io_mode_add(&s, (enum io_mode)9, 0, 0);
    CHECK_I64(s.calls, 3);
    CHECK_I64(s.modes, 1u << IO_MODE_CONTIGUOUS_COLLECTIVE | 1u << IO_MODE_NO_COLLECTIVE |
                           1u << IO_MODE_UNKNOWN);
    CHECK_I64(s.global_cause, IO_CAUSE_DATATYPE_CONVERSION);

    struct io_mode_phase none = {0};
    CHECK_STR(io_mode_phase_mode(&none), "none");
    CHECK(!io_mode_fell_back(&none));
    struct io_mode_phase p = phase(1u << IO_MODE_CHUNK_COLLECTIVE, true, 0, 0);
    CHECK_STR(io_mode_phase_mode(&p), "chunk_collective");
    CHECK(!io_mode_fell_back(&p));
    p = phase(1u << IO_MODE_CONTIGUOUS_COLLECTIVE, true, 0, 0);
    CHECK(!io_mode_fell_back(&p));
    p = phase(1u << IO_MODE_NO_COLLECTIVE, true, IO_CAUSE_DATATYPE_CONVERSION, 2);
    CHECK_STR(io_mode_phase_mode(&p), "no_collective");
    CHECK(io_mode_fell_back(&p));
    /* HDF5's multi-chunk scheme may access chunks independently, no cause. */
    p = phase(1u << IO_MODE_CHUNK_COLLECTIVE | 1u << IO_MODE_CHUNK_INDEPENDENT, false, 0, 0);
    CHECK_STR(io_mode_phase_mode(&p), "mixed");
    CHECK(io_mode_fell_back(&p));
}

static void test_warning(void)
{
    char line[512];
    struct io_mode_phase ok = phase(1u << IO_MODE_CONTIGUOUS_COLLECTIVE, true, 0, 0);
    struct io_mode_phase conv =
        phase(1u << IO_MODE_NO_COLLECTIVE, true, IO_CAUSE_DATATYPE_CONVERSION, 1);
    struct io_mode_phase both[2] = {ok, ok};
    io_mode_warning(line, sizeof line, both, 2, "transfer size 1MB");
    CHECK_STR(line, "");
    struct io_mode_phase w[2] = {conv, ok};
    io_mode_warning(line, sizeof line, w, 2, "transfer size 1MB");
    CHECK_STR(line, "h5perf: warning: HDF5 did independent I/O where collective was asked (2 "
                    "processes, transfer size 1MB, write): datatype conversion (on 1 of 2 "
                    "processes)");
    struct io_mode_phase opt =
        phase(1u << IO_MODE_NO_COLLECTIVE, true, IO_CAUSE_MPI_OPT_TYPES_DISABLED, 1);
    struct io_mode_phase wr[2] = {opt, opt};
    io_mode_warning(line, sizeof line, wr, 1, "layout shared");
    CHECK_STR(line, "h5perf: warning: HDF5 did independent I/O where collective was asked (1 "
                    "process, layout shared, write and read): MPI derived types disabled "
                    "(HDF5_MPI_OPT_TYPES)");
    struct io_mode_phase mixed[2] = {
        ok, phase(1u << IO_MODE_CHUNK_COLLECTIVE | 1u << IO_MODE_CHUNK_INDEPENDENT, false, 0, 0)};
    io_mode_warning(line, sizeof line, mixed, 4, "transfer size 64KB");
    CHECK_STR(line, "h5perf: warning: HDF5 did independent I/O where collective was asked (4 "
                    "processes, transfer size 64KB, read): HDF5 gave no cause (mode mixed); the "
                    "processes reported different modes");
}

/* The run's actual_io_mode in the JSON: each phase run, null for a phase
 * whose transfers never completed; absent without a record. */
static void test_json(void)
{
    struct config cfg;
    config_init(&cfg);
    cfg.apis = API_BIT(API_PHDF5);
    guide_edit(&cfg)->bytes = guide_edit(&cfg)->xfer_min = guide_edit(&cfg)->xfer_max = 1024;
    guide_edit(&cfg)->block = 512;
    guide_edit(&cfg)->num_dsets = guide_edit(&cfg)->num_files = cfg.iterations = cfg.min_procs =
        cfg.max_procs = 1;
    cfg.collective = true;
    struct results_log log;
    results_log_init(&log);
    struct api_result r;
    CHECK(results_init(&r, API_PHDF5, 2, 1024, 2048, 1) == 0);
    results_next_iteration(&r);
    r.io_mode_known = true;
    r.io_mode[0] = phase(1u << IO_MODE_NO_COLLECTIVE, true, IO_CAUSE_DATATYPE_CONVERSION, 1);
    CHECK(results_log_add(&log, &r) == 0);
    CHECK(results_init(&r, API_PHDF5, 1, 1024, 1024, 1) == 0);
    results_next_iteration(&r);
    CHECK(results_log_add(&log, &r) == 0);
    struct run_context ctx;
    memset(&ctx, 0, sizeof ctx);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct report_settings rs;
    struct json_parts parts;
    config_report_settings(&cfg, &rs);
    config_json_parts(&cfg, &parts);
    CHECK(f && json_write(f, &rs, &parts, &ctx, &log) == 0);
    fclose(f);
    if (getenv("DUMP"))
        fputs(buf, stdout);
    CHECK(strstr(buf, "\"errors\": [],\n"
                      "      \"actual_io_mode\": {\n"
                      "        \"write\": {\n"
                      "          \"mode\": \"no_collective\",\n"
                      "          \"modes\": [\n"
                      "            \"no_collective\"\n"
                      "          ],\n"
                      "          \"collective\": false,\n"
                      "          \"cause\": \"datatype conversion\",\n"
                      "          \"cause_processes\": 1,\n"
                      "          \"processes_agree\": true\n"
                      "        },\n"
                      "        \"read\": null\n"
                      "      },\n"
                      "      \"measures\"") != NULL);
    char *second = strstr(buf, "\"processes\": 1,");
    CHECK(second && strstr(second, "actual_io_mode") == NULL);
    free(buf);
    results_log_release(&log);
}

int main(void)
{
    test_names();
    test_causes();
    test_phase();
    test_warning();
    test_json();
    return check_done("iomode");
}
