/* The workload file (docs/advisor.md, "The workload file"): a YAML
 * document that declares an application's data (arrays, particle sets),
 * what it does today (the baseline) and the physical choices to search.
 * libyaml parses the text; this module walks its document, checks every
 * value with the line and key path in its message, and turns each data set
 * with a choice into an h5perf command line of existing options.
 * Pure: no MPI, no I/O (the caller reads the file), nothing printed. */
#ifndef H5PERF_WORKLOAD_H
#define H5PERF_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "plan/model.h"

/* The largest workload file taken (its text is parsed in memory). */
#define WORKLOAD_MAX_BYTES (1 << 20)
/* Arrays and particle sets of one file, together. */
#define WORKLOAD_MAX_SETS 32
/* Candidates of one choice (search), and hint dimensions. */
#define WORKLOAD_MAX_VALUES 16
#define WORKLOAD_MAX_HINTS  16
/* --vars counts of a map array (one per decomposition of the map). */
#define WORKLOAD_MAX_VAR_COUNTS 64
/* Named variables of a particle set (the particles pattern's eight). */
#define WORKLOAD_MAX_PARTICLE_VARS 8
/* A hint's key and value: below Open MPI's MPI_MAX_INFO_KEY (36) and
 * MPI_MAX_INFO_VAL (256), the smallest of the MPI libraries h5perf is
 * built with, so that HDF5_MPI_INFO takes them everywhere. */
#define WORKLOAD_HINT_KEY_MAX 35
#define WORKLOAD_HINT_VAL_MAX 255

/* What a data set is: an array decomposed over a process grid (--pattern
 * block), an array decomposed by a map file (--pattern map), a particle
 * set (--pattern particles), or an application's calls from a trace
 * (--pattern trace). */
enum workload_kind { WORKLOAD_GRID = 0, WORKLOAD_MAP, WORKLOAD_PARTICLES, WORKLOAD_TRACE };

/* What is read back after the write: nothing, the same decomposition, or
 * the array with another process grid (--read-grid). */
enum workload_read { WORKLOAD_READ_NONE = 0, WORKLOAD_READ_SAME, WORKLOAD_READ_GRID };

/* One array or particle set. Strings belong to the workload. */
struct workload_set {
    enum workload_kind kind;
    char key[24];     /* where it is: "arrays[0]", "particles[1]" */
    const char *name; /* its name (the key when the file gives none) */
    int line;         /* the line of its entry, from 1 */
    int nvars;        /* variables (count; for a map, per decomposition) */
    /* A map array's variables as a list, one count per decomposition (0:
     * nvars applies to every decomposition). */
    int nvar_counts;
    int var_counts[WORKLOAD_MAX_VAR_COUNTS];
    int64_t steps; /* how many times the application writes them */
    enum workload_read read_back;
    int read_grid[MODEL_MAX_DIMS]; /* WORKLOAD_READ_GRID */

    /* Arrays (WORKLOAD_GRID, WORKLOAD_MAP). */
    int ndims;                      /* of global; 0 for a map (the map gives it) */
    int64_t global[MODEL_MAX_DIMS]; /* elements, slowest first */
    int elem;                       /* bytes per element: 1, 2, 4, 8 */
    const char *type;               /* "f64", ... as written, or NULL */
    int grid[MODEL_MAX_DIMS];       /* zeros: MPI_Dims_create's */
    const char *map;                /* as written (relative to the file's directory) */
    int map_use;                    /* one decomposition of the map, from 1; 0: every one */

    /* Particle sets (WORKLOAD_PARTICLES): the mean count per process, the
     * distribution as --distribution takes it, and the variables' names
     * (nnames 0 when the file gives a count). */
    int64_t per_process;
    const char *distribution;
    int nnames;
    const char *names[WORKLOAD_MAX_PARTICLE_VARS];
    int nlist; /* the counts of a list distribution (0: another distribution) */

    /* Traces (WORKLOAD_TRACE): the trace file as written (relative to the
     * file's directory). */
    const char *trace;

    /* The lines of its keys (0: not given), for messages. */
    int line_global, line_grid, line_decomp, line_map, line_use, line_vars, line_read, line_dist,
        line_trace;
};

/* The choices, each a dimension of the search with one value in a
 * baseline or a candidate (docs/advisor.md, "Choices"). Values are whole
 * numbers, in the units given. */
enum workload_dim {
    WORKLOAD_API = 0,       /* enum api_id (api/api.h): -A */
    WORKLOAD_LAYOUT,        /* enum plan_layout (plan/point.h): --layout */
    WORKLOAD_COLLECTIVE,    /* 0 independent, 1 collective: -C */
    WORKLOAD_ALIGNMENT,     /* bytes, 1: none; HDF5's and PnetCDF's variables: -a */
    WORKLOAD_THRESHOLD,     /* bytes, HDF5's alignment threshold: -T */
    WORKLOAD_ALIGN_DATA,    /* bytes, 0: packed; POSIX and MPI-IO shared files: --align-data */
    WORKLOAD_CHUNK,         /* 0: each process's block, else a shape: --chunk-shape */
    WORKLOAD_TRANSFER_SIZE, /* bytes per call, 0: a process's whole part: --transfer-size */
    WORKLOAD_BUFFER_OFFSET, /* bytes past a page boundary of the transfer buffers */
    /* Then the choices of the APIs' own options, one per row with an
     * opt_advice (base/option.h), in the APIs' order and their rows'
     * (--hdf5.collective-metadata, ...): workload_dim_count() in all. */
    WORKLOAD_DIM_OPTIONS,
    WORKLOAD_DIM_MAX = WORKLOAD_DIM_OPTIONS + 12
};

/* How many choices there are: the core's and the API rows' that the
 * advisor races. */
int workload_dim_count(void);

/* The choice whose baseline key is key (an API row's: "pnetcdf_nonblocking"),
 * or -1. */
int workload_dim_of(const char *key);

/* A chunk shape as one value of WORKLOAD_CHUNK: its dimensions in the top
 * bits and its extents packed below them (each below 2^60, 2^30 or 2^20
 * elements with 1, 2 or 3 dimensions); 0 is "block", each process's
 * block. workload_chunk_encode() returns -1 for extents that do not fit;
 * workload_chunk_decode() returns the dimensions (0 for block). Pure. */
int64_t workload_chunk_encode(int ndims, const int64_t *shape);
int workload_chunk_decode(int64_t v, int64_t shape[MODEL_MAX_DIMS]);

/* An MPI-IO hint: key and value as HDF5_MPI_INFO passes them (sizes in
 * bytes). */
struct workload_hint {
    const char *key;
    const char *value;
};

/* One value of every choice: the baseline, or a candidate of the search. */
struct workload_choice {
    int64_t v[WORKLOAD_DIM_MAX];
    const char *mpiio_component; /* OMPI_MCA_io's value, NULL: the library's default */
    int nhints;
    struct workload_hint hints[WORKLOAD_MAX_HINTS];
};

/* A choice's candidates in the search. */
struct workload_values {
    int n;
    int64_t v[WORKLOAD_MAX_VALUES];
};

/* An MPI-IO hint's candidates; the hint left unset (the library's own
 * choice) is always a candidate too. */
struct workload_hint_values {
    const char *key;
    int n;
    const char *values[WORKLOAD_MAX_VALUES];
};

struct workload_search {
    struct workload_values dim[WORKLOAD_DIM_MAX];
    /* MPI-IO components (OMPI_MCA_io) to race; 0: every one the MPI
     * library offers, found at run time. */
    int ncomponents;
    const char *components[WORKLOAD_MAX_VALUES];
    int nhints;
    struct workload_hint_values hints[WORKLOAD_MAX_HINTS];
};

struct workload {
    const char *path; /* the file, as named in messages */
    const char *name; /* the file's name key, or NULL */
    int processes;    /* 0: the processes started */
    int processes_line;
    int nsets;
    struct workload_set sets[WORKLOAD_MAX_SETS];
    struct workload_choice baseline;
    int baseline_line[WORKLOAD_DIM_MAX]; /* each given key's line, 0: the default */
    int baseline_component_line, baseline_hints_line;
    struct workload_search search;
    void *strings; /* owns every string above */
};

/* Parses the workload file named path (for messages and for the files it
 * names, which are relative to its directory), whose text is the len bytes
 * at text, into *out: checks every key and value, fills the defaults.
 * Returns 0, or -1 with one line in msg ("h5perf: workload 'w.yaml', line
 * 7, arrays[0].global: expected 1 to 3 whole numbers, got 'abc'"); *out
 * then holds nothing to release. Local and pure. */
int workload_parse(const char *path, const char *text, size_t len, struct workload *out,
                   struct cli_msg *msg);

/* Frees what workload_parse() made. Local. */
void workload_release(struct workload *w);

/* The row of the option that sets choice d in a candidate's words: its
 * spelling there (opt_word()) and the APIs that take it. */
struct opt_row;
const struct opt_row *workload_dim_row(enum workload_dim d);

/* The words a choice's name has in the file ("phdf5", "chunked",
 * "collective", "1M"), into buf. */
void workload_value_text(enum workload_dim d, int64_t v, char *buf, size_t len);

/* The file's key of a choice in baseline ("api") and in search ("apis"). */
const char *workload_baseline_key(enum workload_dim d);
const char *workload_search_key(enum workload_dim d);

/* The processes the workload runs on when world_size were started. */
int workload_processes(const struct workload *w, int world_size);

/* The maximum number of words of a configuration, and its text. */
#define WORKLOAD_MAX_WORDS 48
#define WORKLOAD_TEXT_MAX  4096

/* One h5perf run: a data set's decomposition with a choice, as argv
 * (argv[0] "h5perf", then existing options only, NULL-terminated) and the
 * environment the choice needs (HDF5_MPI_INFO, and OMPI_MCA_io, which
 * must be set before MPI starts). One step of the set is measured: its
 * steps repeat the same I/O (docs/advisor.md). */
struct workload_config {
    int set;    /* index in the workload's sets */
    bool trace; /* a trace's run: workload_trace_row() sets its sizes */
    int nprocs; /* mpiexec -n */
    /* The variant of its API whose run is its measurement (api/api.h,
     * results' "variant"; 0: the API's default): the variant an option
     * chose, which the candidate runs alone (--pnetcdf.nonblocking=only;
     * docs/advisor.md, "Choices"). */
    int variant;
    int argc;
    char *argv[WORKLOAD_MAX_WORDS + 1];
    char mpi_info[WORKLOAD_TEXT_MAX / 2]; /* HDF5_MPI_INFO, "": none */
    char mpiio_component[64];             /* OMPI_MCA_io, "": the default */
    char words[WORKLOAD_TEXT_MAX];        /* argv's storage */
};

/* The configuration of set number set with choice c, when world_size
 * processes were started, into *out. Returns 0; 1 when the choice does not
 * apply to the set (a value that has no effect with its API or data, such
 * as -C with POSIX or the chunked layout of a particle set), with the
 * reason in msg; -1 when it cannot run (more processes than started, a
 * configuration h5perf's options refuse), with msg naming the set's line.
 * Every configuration returned has passed h5perf's option parser and its
 * defaults (opt_parse, config_finish). Local and pure. */
int workload_config(const struct workload *w, int set, const struct workload_choice *c,
                    int world_size, struct workload_config *out, struct cli_msg *msg);

/* The baseline's configuration of every set, as workload_config() with the
 * baseline, into out[0 .. w->nsets-1]; a baseline that does not apply to a
 * set is refused with the line of its key. Returns 0, or -1 with msg. */
/* The path of set s's map file as h5perf opens it: as written if absolute
 * (or the workload file has no directory), else relative to the workload
 * file's directory, into buf. Pure. */
void workload_map_path(const struct workload *w, const struct workload_set *s, char *buf,
                       size_t len);

int workload_baseline_configs(const struct workload *w, int world_size, struct workload_config *out,
                              struct cli_msg *msg);

/* The row that sets choice d in a trace's words, where it is not
 * workload_dim_row(d)'s: --trace-gather for transfer_size, --trace-align
 * for align_data (docs/advisor.md, "Traces"); NULL otherwise. */
const struct opt_row *workload_trace_row(enum workload_dim d);

/* The path of trace set s's trace file, as workload_map_path(). Pure. */
void workload_trace_path(const struct workload *w, const struct workload_set *s, char *buf,
                         size_t len);

/* What the application did, from a trace's text data[0, len): its calls,
 * bytes and the sum of its calls' seconds, reads [0] and writes [1]
 * (docs/trace.md, "Report"). Returns 0, or -1 with why. Pure. */
struct workload_recorded {
    int64_t calls[2], bytes[2];
    double seconds[2];
};
int workload_trace_recorded(const char *data, size_t len, struct workload_recorded *out, char *why,
                            size_t wlen);

/* The largest number of candidates of one data set the advisor races. */
#define WORKLOAD_MAX_CANDIDATES 1024

/* Every candidate of set number set: each combination of the search's
 * values (choices, MPI-IO components, each hint's values or unset) that
 * applies to the set, as workload_config() makes it, into out[0 .. max-1]
 * in a fixed order (out NULL: only counted), and their number into *count.
 * Returns 0; -1 with msg when a candidate cannot run (workload_config's
 * -1), there are more than max, or the search combines more than 2^20
 * values. Local and pure. */
int workload_candidates(const struct workload *w, int set, int world_size, int max,
                        struct workload_config *out, int *count, struct cli_msg *msg);

/* The shell command that runs c: "HDF5_MPI_INFO='...' OMPI_MCA_io=romio321
 * mpiexec -n 8 h5perf --pattern block ...", words quoted for a POSIX shell
 * where needed, into buf (cut short if too small). */
void workload_config_text(const struct workload_config *c, char *buf, size_t len);

#endif
