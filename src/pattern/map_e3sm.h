/* E3SM-IO's decomposition maps (docs/map.md, "E3SM-IO's map files"): what
 * map_e3sm.c reads for both of its ways, whole and streamed process by
 * process (map_stream.c). Internal to the map pattern; pure. */
#ifndef H5PERF_MAP_E3SM_H
#define H5PERF_MAP_E3SM_H

#include <stdint.h>

#include "pattern/map.h"

/* The map's dimensions: its decompositions into *ndecomps, its processes
 * checked and set in b (map_builder_procs). Returns 0, or -1 with why. */
int map_e3sm_head(const struct pattern_files *files, enum pattern_file_kind kind,
                  struct map_builder *b, int *ndecomps, char *why, size_t wlen);

/* Decomposition k (from 1): its array added to b, each process's runs
 * (*nreqs, b->nprocs of them, each checked) and, where the map has them,
 * its written runs (*fill, checked; else NULL), both malloc'd, and their
 * sum into *total. Returns 0, or -1 with why (nothing allocated). */
int map_e3sm_counts(const struct pattern_files *f, int k, struct map_builder *b, int64_t **nreqs,
                    int64_t **fill, int64_t *total, char *why, size_t wlen);

/* The 1D variable name is there with n values. Returns 0, or -1 with why. */
int map_e3sm_length(const struct pattern_files *f, const char *name, int64_t n, char *why,
                    size_t wlen);

/* The map streamed (docs/map.md, "Memory"): its figures and overlaps
 * checked process by process, the common part sent (files->send_common),
 * then each process's part made and sent in turn (files->send_part).
 * Returns 0 (sent), 1 (not streamed: its arrays' bitmaps would hold more
 * than its runs; b must be made anew for the whole way), or -1 with why. */
int map_e3sm_stream(const struct pattern_files *files, enum pattern_file_kind kind,
                    struct map_builder *b, char *why, size_t wlen);

#endif
