/* The access patterns, behind one interface and in one table, as the APIs
 * are (docs/design.md, "Adding a pattern"): a pattern is its file(s) and
 * one line of the table in pattern.c. It finishes and validates its
 * options, lists its run points, makes the plan of one process at one run
 * point (plan/plan.h), says how much every process holds, names its run
 * points, and writes its sections of the report and the results. Nothing
 * outside src/pattern branches on which pattern runs. Pure: no MPI, no I/O
 * (the process grids MPI_Dims_create makes come in as a function). */
#ifndef H5PERF_PATTERN_H
#define H5PERF_PATTERN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/jsonw.h"
#include "base/measure.h"
#include "cli/cli.h"
#include "cli/option.h"
#include "plan/plan.h"
#include "plan/point.h"
#include "report/results.h"

/* MPI_Dims_create: a grid of nprocs over ndims dimensions into dims. */
typedef void (*pattern_dims_fn)(int nprocs, int ndims, int *dims);

/* The text report's sections a pattern writes (rank 0 of the run, or of
 * the world for the header and footer). Formats only. */
struct pattern_report {
    /* The parameter header, ending with its empty line; rank is the world
     * rank printing it (-D 1 and above: every rank prints its own). */
    void (*header)(FILE *out, const struct config *c, int rank, const char *hdf5_version,
                   int max_info_val);
    /* Before the first point of a process count. */
    void (*nprocs_begin)(FILE *out, const struct config *c, int nprocs);
    /* Before a point runs (prev: the point before at this count, or NULL). */
    void (*point_begin)(FILE *out, const struct config *c, const struct run_point *prev,
                        const struct run_point *p);
    /* After a point completed, its record. */
    void (*point_end)(FILE *out, const struct config *c, const struct api_result *r);
    /* After the last point of a process count, every record so far. */
    void (*nprocs_end)(FILE *out, const struct config *c, const struct results_log *log,
                       int nprocs);
    /* At the end of the report. */
    void (*footer)(FILE *out, const struct config *c, const struct results_log *log);
};

/* What a file a pattern reads is, from its first bytes: HDF5, netCDF
 * classic (CDF-1, 2 or 5), or anything else (text). */
enum pattern_file_kind { PATTERN_FILE_TEXT = 0, PATTERN_FILE_HDF5, PATTERN_FILE_NETCDF };

/* The reading a pattern's load() may do, lent by setup on process 0
 * (engine/input.c), so that the pattern stays pure (docs/design.md, "A
 * pattern's input"): whole files, and the dimensions, integer attributes
 * of the file and 1D integer variables of one HDF5 or netCDF file at a
 * time. Each function returns 0, or -1 with one reason in why (a
 * library's or the system's); the look-ups return 1 for a name the file
 * does not have. */
struct pattern_files {
    void *ctx;
    /* The memory the reading may hold on process 0: the least its host
     * has available and its memory cgroups allow more (-1: not checked,
     * --no-memory-check or not known), and which it is, for the refusal
     * ("host 'n1' has 1.5 GiB available"). */
    int64_t memory;
    const char *memory_where;
    /* The size in bytes of the regular file at path. */
    int (*size)(void *ctx, const char *path, int64_t *out, char *why, size_t wlen);
    /* What the file at path is. */
    int (*kind)(void *ctx, const char *path, enum pattern_file_kind *out, char *why, size_t wlen);
    /* The whole file at path into *data (malloc'd, a NUL after its *len
     * bytes). */
    int (*read)(void *ctx, const char *path, unsigned char **data, size_t *len, char *why,
                size_t wlen);
    /* Opens the HDF5 or netCDF file at path for the look-ups; close()
     * ends them. */
    int (*open)(void *ctx, const char *path, enum pattern_file_kind kind, char *why, size_t wlen);
    void (*close)(void *ctx);
    /* A netCDF dimension's length (HDF5 has none: 1). */
    int (*dim)(void *ctx, const char *name, int64_t *len, char *why, size_t wlen);
    /* An integer attribute of the file: its first max values into vals,
     * how many it has into *n. */
    int (*att)(void *ctx, const char *name, int64_t *vals, int max, int *n, char *why, size_t wlen);
    /* A 1D integer variable (netCDF) or dataset (HDF5): its length; then
     * its first n values. */
    int (*var)(void *ctx, const char *name, int64_t *len, char *why, size_t wlen);
    int (*var_read)(void *ctx, const char *name, int64_t *vals, int64_t n, char *why, size_t wlen);
    /* Values [start, start + n) of the same, without reading the rest. */
    int (*var_range)(void *ctx, const char *name, int64_t start, int64_t n, int64_t *vals,
                     char *why, size_t wlen);
    /* A pattern with input_parts() may stream its parts instead of making
     * its bytes whole (NULL where setup does not lend it): send_common()
     * once, the part every process receives; then send_part() for process
     * 0, 1, ... in turn, each part as it is made, which the pattern may
     * free after. load() then returns 0 with *bytes NULL, or -1 with its
     * refusal at any point (setup then tells the processes still waiting
     * for a part, so that none waits for ever). Each returns 0, or -1 with
     * why (out of memory for the common part on some process, or process
     * 0's MPI failed): load() then stops. */
    int (*send_common)(void *ctx, const unsigned char *bytes, size_t len, char *why, size_t wlen);
    int (*send_part)(void *ctx, int p, const unsigned char *bytes, size_t len, char *why,
                     size_t wlen);
};

/* pattern_desc.read_source: the run reads nothing. */
#define PATTERN_READS_NONE (-2)

struct pattern_desc {
    const char *key;   /* --pattern's word; the results' "pattern" */
    const char *title; /* in messages: "the guide's patterns", "--pattern block" */
    const char *gloss; /* after the key in lists of patterns, or NULL */
    /* The rows of the option table it takes besides every pattern's (its
     * own, and those it shares with others), in --help's order, NULL after
     * the last; any other pattern's option is refused (options/finish.c). */
    const struct opt_row *const *rows;
    /* --help's heading of its options ("The guide's patterns take:"). */
    const char *help_heading;
    /* --help's paragraph after its options, or NULL. */
    const char *help_note;
    /* The layouts it stores (bits 1 << enum plan_layout); 0: none. */
    unsigned layouts;
    /* Defaults, announced adjustments and refusals of its options after
     * parsing (world_size: the processes started). Returns 0, or -1 with m. */
    int (*finish)(struct config *c, int world_size, struct cli_warnings *w, struct cli_msg *m);
    /* Its input from outside the command line, or NULL: a file one of its
     * options names, read by process 0 alone before any data file exists
     * through files (the only I/O a pattern is lent), into *bytes
     * (malloc'd, *len of them) that setup sends to every process. Returns
     * 0, or -1 with m. */
    int (*load)(const struct config *c, const struct pattern_files *files, unsigned char **bytes,
                size_t *len, struct cli_msg *m);
    /* Optional, on process 0 (NULL: every process receives load()'s bytes
     * whole): how load()'s bytes divide among its nprocs processes, so
     * that none receives what only others need (docs/design.md, "A
     * pattern's input"): [0, *common) goes to every process, and process
     * p's part, from *common (p = 0) or ends[p - 1] to ends[p], to process
     * p alone. Returns 0, or -1 (not bytes load() made for nprocs). */
    int (*input_parts)(const unsigned char *bytes, size_t len, int nprocs, size_t *common,
                       size_t *ends);
    /* On every process, the bytes it received made into the pattern's
     * input (*out), kept by the session (session_build_part) and given to
     * its functions in each run point (run_point.input); input_release
     * frees it. rank: the process whose part follows the common bytes
     * (input_parts), or -1: load()'s bytes whole. Returns 0, or -1 with m. */
    int (*adopt)(const struct config *c, int rank, const unsigned char *bytes, size_t len,
                 void **out, struct cli_msg *m);
    void (*input_release)(void *input);
    /* The dimensions of the process grid MPI_Dims_create must make for it
     * (0: none). */
    int (*grid_dims)(const struct config *c);
    /* The run points of one process count in run order, APIs innermost;
     * grid is MPI_Dims_create's for it (or zeros). The first max into out;
     * returns how many there are. */
    int (*points)(const struct config *c, int nprocs, const int grid[MODEL_MAX_DIMS],
                  struct run_point *out, int max);
    /* Checks the run points (all n, in run order): their plans can be
     * made, their sizes fit, every call within its API's limit. Returns 0,
     * or -1 with m naming the option to change. */
    int (*validate)(const struct config *c, const struct run_point *pts, int n, struct cli_msg *m);
    /* Over all processes of a validated point: m, and each process's
     * largest buffer into buffers[rank] (if not NULL). */
    void (*measure)(const struct config *c, const struct run_point *p, struct pattern_measure *m,
                    int64_t *buffers);
    /* The plan of process rank at a validated point, iteration it (0-based).
     * Returns 0, or -1 (out of memory, or an input holding only another
     * process's part: the engine makes each process's plan on it). */
    int (*plan)(const struct config *c, const struct run_point *p, int rank, int it,
                struct plan *out);
    /* Frees what plan() allocated (NULL: nothing). */
    void (*plan_release)(struct plan *p);
    /* The point for people ("transfer size 64KB", "layout shared"); exact:
     * sizes in bytes ("transfer size 65536"). */
    void (*label)(const struct config *c, const struct run_point *p, bool exact, char *buf,
                  size_t len);
    /* What sets the point, for messages: "transfer size 64KB with 2
     * processes", "--global '512x512' with 2 processes, layout chunked". */
    void (*lead)(const struct config *c, const struct run_point *p, char *buf, size_t len);
    /* What sets its HDF5 chunks ("-c with -B of 4 GiB"; NULL: lead()),
     * and what to change for smaller ones ("a smaller -B"). */
    void (*chunk_lead)(const struct config *c, const struct run_point *p, char *buf, size_t len);
    const char *smaller_chunks;
    /* What sizes one process's buffer at nprocs ("-X '16G'", "--global
     * '512x512' over 4 processes"), what the buffer is ("transfer buffer",
     * "block") and how to make it smaller, for the memory check. */
    void (*memory_lead)(const struct config *c, int nprocs, char *buf, size_t len);
    const char *buffer_name;
    const char *buffer_remedy;
    /* What sizes a data file ("-d '4'", "--global '512x512'"), and what
     * its variables are called ("dataset", "variable"). */
    void (*file_lead)(const struct config *c, char *buf, size_t len);
    const char *var_word;
    /* The data files of each run point, which the engine names before
     * any plan (the guide's -F); NULL: one. */
    int (*files)(const struct config *c);
    /* The data process rank reads back in the read phase: its own, another
     * one's (--read-shift), -1: parts of every process's, or
     * PATTERN_READS_NONE: the run reads nothing (a trace without reads). */
    int (*read_source)(const struct config *c, int nprocs, int rank);
    /* How to make reads come from storage, for the page-cache warning. */
    const char *cache_advice;
    /* -D 4's line of a phase of process rank ("0: Debug(do_write): ..."),
     * into buf; "" for none. */
    void (*debug_line)(const struct plan *p, int phase, int rank, char *buf, size_t len);
    const struct pattern_report *report;
    /* The results: its part of "config", and of each run. */
    void (*json_config)(struct jsonw *w, const struct config *c);
    void (*json_run)(struct jsonw *w, const struct config *c, const struct api_result *r);
};

/* The table, in --pattern's order; the first is the default. */
extern const struct pattern_desc *const pattern_table[];
extern const int pattern_count;

/* The pattern of a finished configuration. */
const struct pattern_desc *pattern_of(const struct config *c);

/* The data files of each run point of a finished configuration. */
int pattern_files(const struct config *c);

/* The run's settings the report writers show (report/settings.h),
 * resolved from cfg (report_settings.c: the core's and the guide's
 * settings). */
struct report_settings;
void config_report_settings(const struct config *cfg, struct report_settings *out);

/* config_validate_extent() (cli/cli.h) for a file f of the pattern of c at
 * nprocs processes, led by what sizes the file (its file_lead). Returns 0
 * or -1 with m. */
struct extent_file;
int pattern_validate_extent(const struct config *c, int nprocs, const struct extent_file *f,
                            struct cli_msg *m);

/* ---- a pattern's own options (docs/design.md, "Options") ---- */

/* The index of p in the table: the slot of its settings in
 * config.patterns. */
int pattern_index(const struct pattern_desc *p);

/* p's own settings in c (config.patterns): the bytes its own rows' fields
 * are offsets into, and how each was given. */
const struct pattern_settings *pattern_settings_of(const struct config *c,
                                                   const struct pattern_desc *p);
struct pattern_settings *pattern_settings_edit(struct config *c, const struct pattern_desc *p);

/* The index of the pattern that owns row (one of its rows with id
 * OPT_ID_PATTERN, which no other pattern lists), or -1. */
int pattern_owner(const struct opt_row *row);

/* The index of row among p's own rows (OPT_ID_PATTERN, in the order of
 * p->rows), or -1: the slot of its record in pattern_settings.spelled and
 * .raw. */
int pattern_row_index(const struct pattern_desc *p, const struct opt_row *row);

/* The spelling and the raw value of p's own row as given (NULL: not),
 * in p's settings s. */
const char *pattern_row_spelled(const struct pattern_settings *s, const struct pattern_desc *p,
                                const struct opt_row *row);
const char *pattern_row_raw(const struct pattern_settings *s, const struct pattern_desc *p,
                            const struct opt_row *row);

/* opt_json_rows() (cli/option.h) over the rows of p, each from the struct
 * its field is in: p's own settings in c for its own rows, c for those it
 * shares; for its part of the results' configuration (json_config). */
void pattern_json_rows(struct jsonw *w, const struct config *c, const struct pattern_desc *p);

/* The index of the pattern whose key is [s, s+len), any case; -1 if none. */
int pattern_find(const char *s, size_t len);

/* Every key of the table, each with its gloss, into buf: "guide (the
 * guide's 1D and 2D patterns), block, ..., or madbench (...)"; --pattern's
 * help and refusal. */
void pattern_key_list(char *buf, size_t len);

#endif
