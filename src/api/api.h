/* The APIs h5perf measures, in run order (docs/original.md §3.3), as one table
 * that everything iterates over: the option parser (-A), the report, the JSON
 * and CSV results, the data file names, the backends' registry and the limits
 * validation knows. A new API is one line of H5PERF_APIS and one backend file
 * (docs/design.md). Pure: no MPI, no I/O. */
#ifndef H5PERF_API_H
#define H5PERF_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/file_model.h"

/* Capabilities of an API. */
enum {
    /* Transfers can be collective (-C): a process whose transfer failed must
     * go on making them, and the engine agrees before them. */
    API_CAP_COLLECTIVE_IO = 1u << 0,
    /* Datasets are created and closed collectively (HDF5): every
     * variable's begin is collective. */
    API_CAP_COLLECTIVE_DSET = 1u << 1,
    /* The file holds exactly its datasets back to back (POSIX, MPI-IO): its
     * size after a write phase is known, which catches data a library lost
     * while reporting success (ompio on a full disk). */
    API_CAP_FLAT_FILE = 1u << 2,
    /* The API the libraries layered over it are measured against (raw
     * MPI-IO): the reports' "over MPI-IO" ratios. */
    API_CAP_REFERENCE = 1u << 3,
    /* Its limit on the bytes of one call (max_call_bytes) is on a whole
     * step, which it moves in one call whatever its pieces (PnetCDF's varn);
     * else on each contiguous piece (MPI-IO counts a view's pieces). */
    API_CAP_LIMIT_PER_STEP = 1u << 4,
    /* A call of several runs goes through an MPI-IO file view, which the
     * MPI-IO library flattens in memory, API_VIEW_RUN_BYTES per run (MPI-IO,
     * PnetCDF); with -C only (HDF5, whose independent calls go run by run). */
    API_CAP_FILE_VIEW = 1u << 5,
    API_CAP_FILE_VIEW_COLLECTIVE = 1u << 6,
    /* Its library may return from a read without the data and without an
     * error: PnetCDF and HDF5 pass on the success ompio reports with a short
     * count (HDF5 takes it for the end of the file), and a collective MPI-IO
     * write whose aggregator failed reports success on every process and
     * leaves a hole that reads back with a full count; the engine probes
     * the buffer after each read (phase.c). */
    API_CAP_QUIET_SHORT_READ = 1u << 7,
    /* Its collective close writes on every process of a shared file (HDF5's
     * metadata flush) and cannot survive a write that fails on some of them
     * only (HDF5 1.10.8 diverges inside the library): a failed write phase's
     * file is emptied before it (phase.c; docs/design.md, "A failed phase's
     * close"). */
    API_CAP_CLOSE_WRITES_EVERYWHERE = 1u << 8,
    /* The first variable's begin defines the whole file, collectively
     * (PnetCDF's define mode, ended by ncmpi_enddef); the others' are
     * local. */
    API_CAP_COLLECTIVE_DEFINE = 1u << 9,
    /* Its I/O goes through the MPI library's MPI-IO (MPI-IO itself, HDF5's
     * MPI-IO driver, PnetCDF), whose one-time start the engine makes
     * before the first timed phase (docs/measuring.md, "The MPI-IO
     * library's start"). */
    API_CAP_THROUGH_MPIIO = 1u << 10,
    /* A chunked variable kept with the library's fill is written by its
     * begin, on every process (parallel HDF5 allocates and fills the chunks
     * as it creates the dataset): the engine agrees before such a begin
     * that no process failed earlier in the phase (phase.c; docs/design.md,
     * "A failed phase's close"). */
    API_CAP_FILLS_AT_CREATE = 1u << 11,
};

struct jsonw;
struct opt_row;
struct cli_msg;

/* The most rows an API owns, and the bytes its settings struct may take. */
#define API_MAX_ROWS       8
#define API_SETTINGS_BYTES 64

/* An API's own settings as the configuration holds them (docs/design.md,
 * "Options"): its struct (api/NAME_options.h) in bytes opaque to every
 * other file, which its rows' fields are offsets into, and how each of its
 * rows (api_opts.rows, in order) was given. Zeroed: nothing given. Copied
 * whole: it points into nothing of its own. */
struct api_settings {
    union {
        max_align_t align;
        unsigned char bytes[API_SETTINGS_BYTES];
    } own;
    const char *spelled[API_MAX_ROWS]; /* "--hdf5.driver", NULL: not given */
    const char *raw[API_MAX_ROWS];     /* its value as typed, NULL for a flag */
};

/* What of the core's options an API's refusals of how its options combine
 * weigh (api_opts.finish): -C and --read-only, each with its spelling as
 * given. */
struct api_core {
    bool collective, read_only;
    const char *collective_name, *read_only_name;
};

/* One way an API can carry out a run point, chosen by the API's own
 * options (docs/design.md, "Options"): HDF5's file driver and its
 * multi-dataset calls, PnetCDF's nonblocking calls. Each chosen variant
 * of an API is a run point of its own; variant 0 is the API's default,
 * which every API without options has alone. */
struct api_variant {
    /* After the layout or transfer size in reports, the results' "variant":
     * "subfiled"; NULL for variant 0. */
    const char *label;
    const char *report_name; /* the guide's "IO API =" text */
    /* The variant a file of one process (a layout's file per process) runs
     * instead: itself, or one without what serves shared files only. */
    int per_process;
    /* Moves step k of every variable of a file in one call
     * (backend_ops.transfer_vars); the engine begins every variable first.
     * A deadline (--stonewall) stops variables one at a time, so that
     * finishing refuses the two together (options/finish.c). */
    bool joins_vars;
    /* Needs MPI initialised with MPI_THREAD_MULTIPLE. */
    bool threads;
    /* The prefix of the files its library makes beside a file it creates,
     * named the file, then this, then '_' or '.' (HDF5's subfiling driver:
     * ".subfile", then the stub's inode); NULL: none. The registry of data
     * files removes them with the file, registered before the create
     * (engine/files.h, files_side_pattern()). */
    const char *side_prefix;
    /* Each of its joined calls is collective even where transfers are
     * independent (MPI-IO's joined view, set collectively at every step):
     * a process that failed goes on making them, as with -C
     * (engine/phase_join.c). */
    bool collective_steps;
};

/* A line an API's options add to the text reports' headers, where they
 * are given: the guide's "rank 0: LABEL=TEXT", the application patterns'
 * "LABEL: TEXT". */
struct api_header {
    const char *label; /* "HDF5 metadata"; NULL after the last */
    /* Writes the line's text into buf ("collective operations, block
     * size 65536 bytes") from its API's settings; true when an option it
     * shows was given (else no line). */
    bool (*text)(const struct api_settings *s, char *buf, size_t len);
};

/* The options an API owns, as a pattern owns its rows: named --PREFIX.NAME
 * in IOR's manner, refused when -A does not select the API, taken by
 * every pattern, stored in its own settings (struct api_settings); and the
 * variants they choose. Its functions read its settings s, and nothing of
 * the configuration but what is passed in. */
struct api_opts {
    const char *prefix;                 /* "hdf5": its rows are --hdf5.NAME */
    const char *help_heading;           /* --help's heading of its rows */
    const struct opt_row *const *rows;  /* NULL after the last; at most API_MAX_ROWS */
    const struct api_variant *variants; /* [nvariants] */
    int nvariants;
    /* The variants its settings ask for (bits 1 << v, never 0). */
    unsigned (*chosen)(const struct api_settings *s);
    /* Refusals of how its options combine, after parsing, given the
     * core's options it weighs; NULL: none. Returns 0, or -1 with m. */
    int (*finish)(const struct api_settings *s, const struct api_core *core, struct cli_msg *m);
    /* Refusal of a file of f (nprocs processes) its library cannot carry
     * with the run's settings, before any file exists: a variable or a
     * file end beyond the library's limits (docs/hdf5.md, docs/pnetcdf.md,
     * "Limits"). lead names what sizes the file ("--global '...'"),
     * leave_out how to leave the API out ("leave phdf5 out of -A '...'").
     * NULL: none. Returns 0, or -1 with m. */
    int (*check_file)(const struct api_settings *s, const struct extent_file *f, int nprocs,
                      const char *lead, const char *leave_out, struct cli_msg *m);
    /* Its part of a run's results (the object of its key), for variant v. */
    void (*json_run)(struct jsonw *w, int v);
    /* Its lines in the text reports' headers (up to one whose label is
     * NULL), or NULL: none. */
    const struct api_header *headers;
    /* The row whose values choose the variants that need threads, for the
     * refusal where MPI provides none; and the row that chooses the
     * variants that join variables, for the refusal of --stonewall with
     * them, which ends "(the deadline stops variables one at a time;
     * JOINS_HOW)". */
    const struct opt_row *threads_row;
    const struct opt_row *joins_row;
    const char *joins_how;
};

/* What an MPI-IO library holds per contiguous run of a call's file view:
 * measured 40 bytes with Open MPI 4.1.4's ompio, for MPI-IO, PnetCDF and
 * HDF5 with -C alike (docs/differences.md, "Memory"). */
#define API_VIEW_RUN_BYTES 40

/* What the advisor's recommendation says of its API (docs/advisor.md,
 * "The answer"), from the candidate's settings: the calls that set them
 * up, and words of the API's own settings after the common ones. */
struct api_advice_in {
    bool collective, hints, chunked;             /* -C, MPI hints given, --layout chunked */
    const char *align, *threshold, *chunk_shape; /* -a, -T, --chunk-shape; NULL: not given */
    /* The value of one of the API's own rows (api_opts.rows) in the
     * candidate: NULL not given, "" a flag. */
    const char *(*own)(const void *ctx, const struct opt_row *row);
    const void *ctx;
};
struct api_advice {
    /* The calls, "; "-separated, into buf (the answer's "NAME: ..." line,
     * NAME the error name). */
    void (*calls)(const struct api_advice_in *in, char *buf, size_t len);
    /* ", ..." appended to the answer's "in words" at *at, never past len;
     * NULL: nothing of its own. */
    void (*words)(const struct api_advice_in *in, char *buf, size_t len, size_t *at);
};

/* X(ID, key, report name, error name, file suffix, capabilities, the most
 * bytes one call may move (0: no limit), the API it is layered over (-1:
 * none), its model of its files (file_model.h; NULL: a flat file), how to get it
 * into a build when it is optional (NULL: always built), its own options
 * (NULL: none), the advisor's words of it (NULL: none, no calls shown)).
 * The key is -A's word and the name in JSON and CSV; the report name is
 * the original's "IO API =" text; the error name starts error lines. */
#define H5PERF_APIS(X)                                                                             \
    X(POSIX, posix, "POSIX", "POSIX", ".posix", API_CAP_FLAT_FILE, 0, -1, NULL, NULL, NULL, NULL)  \
    X(MPIIO, mpiio, "MPIO", "MPI-IO", ".mpio",                                                     \
      API_CAP_FLAT_FILE | API_CAP_COLLECTIVE_IO | API_CAP_REFERENCE | API_CAP_FILE_VIEW |          \
          API_CAP_QUIET_SHORT_READ | API_CAP_THROUGH_MPIIO,                                        \
      INT64_C(2147483647), API_POSIX, NULL, NULL, &mpiio_opts, &mpiio_advice)                      \
    X(PHDF5, phdf5, "PHDF5 (w/MPI-IO driver)", "HDF5", ".h5",                                      \
      API_CAP_COLLECTIVE_IO | API_CAP_COLLECTIVE_DSET | API_CAP_FILE_VIEW_COLLECTIVE |             \
          API_CAP_QUIET_SHORT_READ | API_CAP_CLOSE_WRITES_EVERYWHERE | API_CAP_THROUGH_MPIIO |     \
          API_CAP_FILLS_AT_CREATE,                                                                 \
      0, API_MPIIO, &hdf5_model, NULL, &hdf5_opts, &hdf5_advice)                                   \
    X(PNETCDF, pnetcdf, "PnetCDF", "PnetCDF", ".nc",                                               \
      API_CAP_COLLECTIVE_IO | API_CAP_COLLECTIVE_DEFINE | API_CAP_LIMIT_PER_STEP |                 \
          API_CAP_FILE_VIEW | API_CAP_QUIET_SHORT_READ | API_CAP_THROUGH_MPIIO,                    \
      INT64_C(2147483647), API_MPIIO, &pnetcdf_model,                                              \
      "configure with -DH5PERF_PNETCDF=ON where PnetCDF is installed", &pnetcdf_opts,              \
      &pnetcdf_advice)

enum api_id {
#define API_ENUM(id, key, report, err, suffix, caps, limit, over, model, hint, opts, advice)       \
    API_##id,
    H5PERF_APIS(API_ENUM)
#undef API_ENUM
        API_COUNT
};
#define API_BIT(id) (1u << (id))

/* The APIs' own options (api/mpiio_options.c, api/hdf5_options.c,
 * api/pnetcdf_options.c). */
extern const struct api_opts mpiio_opts, hdf5_opts, pnetcdf_opts;
/* What the advisor says of them (beside their options). */
extern const struct api_advice mpiio_advice, hdf5_advice, pnetcdf_advice;

struct api_desc {
    enum api_id id;
    const char *key;                 /* "posix" */
    const char *report_name;         /* "POSIX", "MPIO", "PHDF5 (w/MPI-IO driver)" */
    const char *err_name;            /* "POSIX", "MPI-IO", "HDF5" */
    const char *suffix;              /* ".posix" */
    unsigned caps;                   /* API_CAP_* */
    int64_t max_call_bytes;          /* 0: no limit */
    int over;                        /* the API it is layered over, or -1 */
    const struct api_model *model;   /* its files when not flat (file_model.h), or NULL */
    const char *build_hint;          /* how to build it in, when optional */
    const struct api_opts *opts;     /* its own options and variants, or NULL */
    const struct api_advice *advice; /* the advisor's words of it, or NULL */
};

/* The table, indexed by enum api_id (backends point at their entry). */
extern const struct api_desc api_descs[API_COUNT];

/* The descriptor of an API (id in [0, API_COUNT)), or NULL. */
const struct api_desc *api_desc(enum api_id id);

/* The API whose key is [s, s+len), any case; -1 if none. */
int api_find(const char *s, size_t len);

/* The keys in run order, comma-separated: "posix, mpiio, phdf5, pnetcdf"
 * (every API h5perf knows, whether this build includes it or not). */
const char *api_key_list(void);

/* The keys as -A's help offers them: "posix, ..., pnetcdf (when this
 * build includes PnetCDF: "APIs in this build" below)", into buf. */
void api_key_choices(char *buf, size_t len);

/* Whether this build includes the API: PnetCDF is optional at build time
 * (docs/pnetcdf.md); the others always are. */
bool api_built(enum api_id id);

/* The memory the MPI-IO layer of API a holds for a call of runs
 * contiguous runs (collective: -C). */
int64_t api_view_bytes(enum api_id a, bool collective, int64_t runs);

/* The API with API_CAP_REFERENCE. */
int api_reference(void);

/* The ratios of --overhead: each API over the one it is layered over, into
 * out (their upper APIs), returning how many: the default APIs' always,
 * the others' when selected (apis, bits). In the report's order (report
 * true: the default APIs' first), or in words' order (the APIs layered
 * over the reference, then the reference over its own base). */
int api_ratios(unsigned apis, bool report, int out[API_COUNT]);

/* The variants of api that its settings (settings[api], of the
 * configuration's API_COUNT) ask for (bits 1 << v; 1: the default alone),
 * and variant v of api (v = 0 of an API without options: its default,
 * named by the table). */
unsigned api_variants(const struct api_settings *settings, enum api_id api);
const struct api_variant *api_variant(enum api_id api, int v);

/* The report name of api's variant v ("PHDF5 (w/subfiling driver)"). */
const char *api_report_name(enum api_id api, int v);

/* The variant whose files are each a process's own (api_variant.per_process). */
int api_variant_per_process(enum api_id api, int v);

/* The bytes of buffer variant v of api holds for a plan whose buffer is
 * bytes and whose files have nvars variables: a variant that moves every
 * variable of a file in one call (joins_vars) holds one per variable,
 * saturated at INT64_MAX so that the memory check refuses; any other,
 * bytes. The session's memory check and the engine's allocation both. */
int64_t api_variant_buffer(enum api_id api, int v, int64_t bytes, int64_t nvars);

/* "shared" or "shared, subfiled": what, then variant v's label. */
void api_variant_text(enum api_id api, int v, const char *what, char *buf, size_t len);

/* Every API's header lines (api_opts.headers), in the table's order:
 * for (i = 0; (h = api_header_at(i, &a)); i++), a its API. */
const struct api_header *api_header_at(int i, enum api_id *api);

/* Does a chosen variant of an API that apis (-A's API_BIT mask; 0: not
 * given, any) selects need MPI_THREAD_MULTIPLE, the variants as settings
 * (the configuration's API_COUNT) ask for them? Returns the API, or -1. */
int api_need_threads(unsigned apis, const struct api_settings *settings);

/* The index of row in api's rows (api_opts.rows), or -1: the slot of its
 * record in api_settings.spelled and .raw. */
int api_row_index(enum api_id api, const struct opt_row *row);

/* The spelling and the raw value of api's row as given (NULL: not). */
const char *api_row_spelled(const struct api_settings *s, enum api_id api,
                            const struct opt_row *row);
const char *api_row_raw(const struct api_settings *s, enum api_id api, const struct opt_row *row);

/* printf into buf at *at, never past len; *at advances by what the text
 * takes (the advisor's words, struct api_advice). */
void api_addf(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The APIs run when -A is not given: the original's three (PnetCDF only
 * when -A names it). */
#define API_DEFAULT_SET (API_BIT(API_POSIX) | API_BIT(API_MPIIO) | API_BIT(API_PHDF5))

#endif
