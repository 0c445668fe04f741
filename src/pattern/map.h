/* The map pattern (docs/map.md), an entry of the pattern table: the
 * decompositions of a map file (E3SM-IO's decomposition maps, or h5perf's
 * text format), each an array of 1 to 3 dimensions and every process's
 * selection of it, with --vars variables per decomposition, stored shared
 * or one file per process. The map is read by process 0 (load); every
 * process receives its common part and its own boxes only, and keeps them
 * as a struct map_input (adopt; docs/map.md, "Memory"). Pure. */
#ifndef H5PERF_MAP_H
#define H5PERF_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern/map_options.h"
#include "pattern/pattern.h"

#define MAP_MAX_DECOMPS 64
/* Processes a map may declare, and rows its overlap check walks. */
#define MAP_MAX_PROCS (1 << 20)
#define MAP_MAX_ROWS  (1 << 24)
/* Boxes one process's plan keeps of one decomposition, cut at the calls'
 * bounds (each a box, a slab and a run per variable). */
#define MAP_MAX_PIECES (1 << 22)

/* One decomposition: an array and each process's selection of it, as
 * boxes one after another in the array's C order (every box after the
 * last element of the one before), never overlapping another process's.
 * Every process knows each process's figures (first, count, runs); it
 * holds the boxes of its own process only (map_boxes()). */
struct map_decomp {
    char name[16]; /* "D1", "D2", ... */
    int ndims;
    int64_t dims[MODEL_MAX_DIMS];
    int64_t elems;        /* of the array */
    const int64_t *first; /* [nprocs + 1]: process p's boxes are [first[p], first[p + 1]) */
    const int64_t *count; /* [nprocs]: its elements */
    const int64_t *runs;  /* [nprocs]: the contiguous runs of its boxes */
    /* The boxes of the processes held (struct map_input, lo to hi),
     * process after process: box first[p] + i of process p is
     * boxes[first[p] - first[lo] + i]. */
    const struct model_box *boxes;
    int64_t total; /* elements of every process */
    int64_t most;  /* the most elements of one process */
    int64_t end;   /* one past the last element any process has */
    /* Some process's selection is not one contiguous run of the array in
     * C order (a flat file then needs a view). */
    bool several;
    bool multi; /* some process has more than one box */
};

/* A map, as a process keeps it: the boxes of processes lo to hi - 1 (its
 * own: hi = lo + 1; none for a process past the map's; every process's in
 * the unit tests). */
struct map_input {
    int nprocs;
    int lo, hi;
    int ndecomps;
    char format[32]; /* "E3SM-IO netCDF", "E3SM-IO HDF5", "text" */
    struct map_decomp d[MAP_MAX_DECOMPS];
    void *storage; /* owns the arrays */
};

/* One run or box as a map gives it (map_build.c): a run is a range of the
 * array's elements in C order (offset start[0], length count[0]). */
struct map_entry {
    int proc;
    bool run;
    int64_t start[MODEL_MAX_DIMS], count[MODEL_MAX_DIMS];
    int64_t origin; /* its line (text), or its number among its process's runs */
};

/* A map being read: its decompositions' entries as given. */
struct map_decomp_build {
    char name[16];
    int ndims;
    int64_t dims[MODEL_MAX_DIMS];
    struct map_entry *e;
    int64_t n, cap;
};

struct map_builder {
    int nprocs;
    /* The processes of the run: a map declaring another count is refused
     * where it declares it, before anything is kept per process (0: any). */
    int want_procs;
    int ndecomps;
    char format[32];
    bool lines; /* entries' origins are lines of a text file (else run numbers) */
    struct map_decomp_build d[MAP_MAX_DECOMPS];
    /* The memory the reading may hold (pattern_files.memory; -1: not
     * counted), what it holds now (its text, entries, boxes and rows, as
     * allocated), and whether it needed more (the reading then refused:
     * map_builder_take()). */
    int64_t memory, held;
    bool over;
};

/* An empty map of format (its processes set later, before any entry),
 * its memory not counted. */
void map_builder_init(struct map_builder *b, const char *format, bool lines);

/* Counts bytes the reading is about to allocate (after the allocation
 * fails, or the bytes are freed: map_builder_give()). Returns 0, or -1
 * with b->over set and why when they pass b->memory. */
int map_builder_take(struct map_builder *b, int64_t bytes, char *why, size_t wlen);
void map_builder_give(struct map_builder *b, int64_t bytes);
void map_builder_release(struct map_builder *b);

/* The processes a map declares, checked before anything is allocated for
 * them: 1 to MAP_MAX_PROCS, and the run's (want_procs). Returns 0 with
 * b->nprocs set, or -1 with why. */
int map_builder_procs(struct map_builder *b, int64_t n, char *why, size_t wlen);

/* "is a map for 3 processes, and the run has 2; start 3 ..." into why. */
void map_procs_mismatch(int64_t map, int run, char *why, size_t wlen);

/* Starts a decomposition of an array of ndims (1 to 3) dims (checked
 * before). Returns 0, or -1 with why (too many). */
int map_builder_decomp(struct map_builder *b, int ndims, const int64_t *dims, char *why,
                       size_t wlen);

/* Adds e to the last decomposition, checked inside its array. Returns 0,
 * or -1 with why ("line 7: process 1's run 990:20 ends ..."). */
int map_builder_add(struct map_builder *b, const struct map_entry *e, char *why, size_t wlen);

/* The map: each process's boxes in C order, checked for overlaps, as the
 * bytes adopt() takes (*bytes malloc'd). Returns 0, or -1 with why. */
int map_builder_finish(struct map_builder *b, unsigned char **bytes, size_t *len, char *why,
                       size_t wlen);

/* The text format (map_text.c, docs/map.md) of data[0, len) into b.
 * Returns 0, or -1 with why ("line 3: ..."). */
int map_text_parse(const char *data, size_t len, struct map_builder *b, char *why, size_t wlen);

/* E3SM-IO's decomposition map in the open HDF5 or netCDF file of files
 * (map_e3sm.c, docs/map.md) into b. Returns 0, or -1 with why. */
int map_e3sm_read(const struct pattern_files *files, enum pattern_file_kind kind,
                  struct map_builder *b, char *why, size_t wlen);

/* Process p's boxes of decomposition k (first[p + 1] - first[p] of them),
 * or NULL where in does not hold them. */
const struct model_box *map_boxes(const struct map_input *in, int k, int p);

/* The bytes in holds for process p: its boxes, every process's figures
 * and the struct (what the memory check counts). */
int64_t map_held_bytes(const struct map_input *in, int p);

/* The pattern's load(), input_parts(), adopt() and input_release()
 * (map_load.c, map_adopt.c). map_adopt() takes the whole bytes that
 * map_builder_finish() made (every process's boxes); map_adopt_part()
 * the common part followed by the part of process rank (-1: every
 * process's). */
int map_load(const struct config *c, const struct pattern_files *files, unsigned char **bytes,
             size_t *len, struct cli_msg *m);
int map_input_parts(const unsigned char *bytes, size_t len, int nprocs, size_t *common,
                    size_t *ends);
int map_adopt(const struct config *c, const unsigned char *bytes, size_t len, void **out,
              struct cli_msg *m);
int map_adopt_part(const struct config *c, int rank, const unsigned char *bytes, size_t len,
                   void **out, struct cli_msg *m);
void map_input_release(void *input);

/* The variables of decomposition k under --vars (one count for every
 * decomposition, or one per decomposition). */
int map_vars_of(const struct config *c, int k);

/* The plan of process rank at point p (map_plan.c), and its release.
 * Returns 0, or -1 (out of memory, or the input does not hold rank's
 * boxes: a process makes its own plan only). */
int map_plan(const struct config *c, const struct run_point *p, int rank, int it, struct plan *out);
void map_plan_release(struct plan *p);

/* The calls of every process for one variable of decomposition d with
 * --transfer-size xfer bytes of elem-byte elements (0: one). */
int64_t map_nsteps(const struct map_decomp *d, int elem, int64_t xfer);

/* --map's and the pattern's finish() (map_options.c). */
int map_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg);
extern const struct opt_row *const map_rows[];

extern const struct pattern_desc pattern_map;

#endif
