/* The legacy text report (docs/original.md §7), written from the configuration
 * and the results model. Formats only: no MPI, no arithmetic beyond
 * results.h. */
#ifndef H5PERF_TEXT_H
#define H5PERF_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "report/settings.h"
#include "report/results.h"

/* Renders a size as the header does: 256KB, 1536KB, 1MB, 48 (docs/original.md §7.1). */
void text_size(char *buf, size_t len, int64_t v);

/* The parameter header of docs/original.md §7.1, as printed by world rank
 * `rank`, starting with "HDF5 Library: Version <hdf5_version>" and ending with
 * the empty line, with the lines of the APIs' own options (api_header_at)
 * before HDF5_PARAPREFIX's. max_info_val is the running MPI's
 * MPI_MAX_INFO_VAL. */
void text_header(FILE *out, const struct report_settings *cfg, int rank, const char *hdf5_version,
                 int max_info_val);

/* "Number of processors = P" */
void text_nprocs(FILE *out, int nprocs);

/* The two per-transfer-size lines of docs/original.md §7.2. */
void text_xfer(FILE *out, const struct report_settings *cfg, int nprocs, int64_t xfer);

/* --buffer-offset's line under a transfer size (docs/performance.md). */
void text_buffer_offset(FILE *out, int64_t offset);

/* "        IO API = POSIX" etc. */
void text_api(FILE *out, enum api_id api, int variant);

/* The result, time and details blocks of docs/original.md §7.3 for one API, as
 * selected by the debug options of cfg. "MPI Write/Read details" are omitted
 * (docs/original.md §0). Measures of a failed run print a FAILED line instead
 * of throughputs. */
void text_api_results(FILE *out, const struct report_settings *cfg, const struct api_result *r);

/* --overhead: the closing section, one line per (P, X) and measure with the
 * ratios HDF5/MPI-IO and MPI-IO/POSIX of the median throughputs. */
void text_overhead(FILE *out, const struct report_settings *cfg, const struct results_log *log);

#endif
