/* The effective configuration of one h5perf run: what the command line and the
 * environment asked for, after defaults. Plain data, no MPI, no I/O. */
#ifndef H5PERF_CONFIG_H
#define H5PERF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "plan/point.h"

/* Options whose spelling and raw value are remembered for messages (an
 * API's own are its: api_settings.spelled; a pattern's own are its:
 * pattern_settings.spelled). */
enum opt_id {
    OPT_ALIGN,
    OPT_API,
    OPT_COLLECTIVE,
    OPT_DEBUG,
    OPT_ITERATIONS,
    OPT_MPI_POSIX,
    OPT_OUTPUT,
    OPT_MIN_PROCS,
    OPT_MAX_PROCS,
    OPT_THRESHOLD,
    OPT_WRITE_ONLY,
    OPT_OVERWRITE,
    OPT_HELP,
    OPT_WATCHDOG,
    OPT_READ_ONLY,
    OPT_FORMAT,
    OPT_RESULTS,
    OPT_PROGRESS,
    OPT_OVERHEAD,
    OPT_FSYNC,
    OPT_DIRECT,
    OPT_READ_SHIFT,
    OPT_NO_MEMORY_CHECK,
    OPT_PATTERN,
    OPT_ELEMENT_SIZE,
    OPT_VARS,
    OPT_LAYOUT,
    OPT_ALIGN_DATA,
    OPT_SHIFT,
    OPT_VERSION,
    OPT_TRANSFER_SIZE,
    OPT_STONEWALL,
    OPT_DURATION,
    OPT_REPEAT,
    OPT_LATENCY,
    OPT_CONFIDENCE,
    OPT_MAX_ITERATIONS,
    OPT_MAX_TIME,
    OPT_ADVISE,
    OPT_BUFFER_OFFSET,
    OPT_BUDGET,
    OPT_COUNT
};

/* --repeat: what each repetition of --duration writes to. */
enum repeat_mode { REPEAT_NEW = 0, REPEAT_OVERWRITE };

/* What a report or results file is written as (--format, --results). */
enum report_format { FORMAT_TEXT = 0, FORMAT_JSON, FORMAT_CSV };

/* One HDF5_MPI_INFO entry, trimmed. Strings point into config.info_buf. */
struct info_entry {
    const char *key;
    const char *value;
};

#define CONFIG_MAX_INFO 64

/* --direct: every offset, length and buffer address is a multiple of this,
 * which satisfies the logical block size of any device (512 or 4096). */
#define CONFIG_DIRECT_ALIGN 4096

/* --distribution list (the particles pattern's own settings,
 * pattern/particles_options.h): at most this many counts (one per
 * process). */
#define CONFIG_MAX_LIST 1024

/* --align-data and --shift: at most this many values each. */
#define CONFIG_MAX_PLACES 16

/* --vars with --pattern map: at most this many counts (one per
 * decomposition of the map). */
#define CONFIG_MAX_VAR_COUNTS 64

/* The patterns of the table (pattern/pattern.c checks), the most rows a
 * pattern may own (OPT_ID_PATTERN: madbench's 10, the guide's 9) and the bytes its settings
 * struct may take (each NAME_options.c asserts its own fits). The largest is the
 * particles pattern's: its --distribution list, held whole (a string of
 * argv would have to be parsed again by every reader), and 64 bytes more;
 * each pattern's slot has that size, 5 times about 8 KiB in struct config,
 * which is made once per run and per advised workload set and handed on
 * by pointer, never copied per run point. */
#define CONFIG_PATTERNS        6
#define PATTERN_MAX_ROWS       12
#define PATTERN_SETTINGS_BYTES (64 + 8 * CONFIG_MAX_LIST)

/* A pattern's own settings as the configuration holds them (docs/design.md,
 * "Options"), as an API's are (api/api.h): its struct
 * (pattern/NAME_options.h) in bytes opaque to every other file, which its
 * own rows' fields are offsets into, and how each of its own rows (its
 * OPT_ID_PATTERN rows of pattern_desc.rows, in order) was given.
 * Zeroed: nothing given. Copied whole: it points into nothing of its own
 * (a string value points into argv). */
struct pattern_settings {
    union {
        max_align_t align;
        unsigned char bytes[PATTERN_SETTINGS_BYTES];
    } own;
    const char *spelled[PATTERN_MAX_ROWS]; /* "--pixels", NULL: not given */
    const char *raw[PATTERN_MAX_ROWS];     /* its value as typed, NULL for a flag */
};

/* Process counts a sweep can visit (-P halving down to -p). */
#define CONFIG_MAX_SWEEP 32

struct config {
    unsigned apis;                /* API_BIT mask; never 0 after defaults */
    int64_t align;                /* -a, HDF5 alignment */
    int64_t threshold;            /* -T, HDF5 alignment threshold */
    int iterations;               /* -i */
    int min_procs;                /* -p */
    int max_procs;                /* -P, 0 = world size */
    int watchdog;                 /* --watchdog seconds, 0 = default */
    bool collective;              /* -C */
    bool write_only;              /* -w */
    bool overwrite;               /* --overwrite */
    bool read_only;               /* --read-only */
    bool help;                    /* -h */
    bool version;                 /* --version */
    const char *advise;           /* --advise: the workload file, NULL = not given */
    int debug_level;              /* -D 0..4 */
    const char *debug_level_text; /* the level as typed (into argv), for messages */
    int debug_level_len;
    bool debug_raw;                    /* -D r */
    bool debug_times;                  /* -D t */
    bool debug_verify;                 /* -D v */
    const char *output;                /* -o, NULL = stdout */
    enum report_format format;         /* --format: what goes to stdout or -o */
    const char *results;               /* --results, NULL = none */
    enum report_format results_format; /* JSON or CSV, from the --results extension */
    bool progress;                     /* --progress */
    bool overhead;                     /* --overhead */
    bool fsync;                        /* --fsync: flush before every close of a write */
    bool direct;                       /* --direct: O_DIRECT for POSIX */
    int read_shift;                    /* --read-shift: read process (r+N) mod P's data */
    bool no_memory_check;              /* --no-memory-check: allocate what does not fit */

    /* How long phases last and how often they repeat (docs/measuring.md). */
    double stonewall;        /* --stonewall: seconds a write phase issues calls; 0 = all */
    double duration;         /* --duration: seconds of repeated write phases; 0 = one */
    enum repeat_mode repeat; /* --repeat: a new file or the same one overwritten */
    bool latency;            /* --latency: the latency table in the text report */
    double confidence;       /* --confidence as a fraction (PCT / 100); 0 = none */
    int max_iterations;      /* --max-iterations with --confidence; 0 = default */
    double max_time;         /* --max-time: seconds per run point with --confidence; 0 = none */
    double budget;           /* --budget: seconds --advise may race for; 0 = list only */

    int pattern; /* --pattern: its index in pattern_table (0: guide) */

    /* The application patterns' shared settings (block, particles, map,
     * and madbench's --layout; docs/design.md, "Options"): the options
     * several of them take, rows of pattern/app_options.c, from here to
     * shifts[]; each pattern's own options are in patterns[] below. */
    int elem;  /* --element-size, 0 = default (8) */
    int nvars; /* --vars, 0 = default (block 1, particles 8, map 1) */
    /* --vars as a list, one count per decomposition (--pattern map): how
     * many (0: one count, in nvars) and the counts. */
    int nvar_counts;
    int var_counts[CONFIG_MAX_VAR_COUNTS];
    int nlayouts;              /* --layout, 0 = default (all three) */
    int layouts[LAYOUT_COUNT]; /* enum plan_layout, in the order given */

    int64_t transfer_size; /* --transfer-size: most bytes per call, 0 = the whole selection */

    /* The block and particles patterns' placement in raw shared files
     * (docs/particles.md, "Alignment"), --align-data and --shift, each
     * value in turn; none given: packed (one value, 0). */
    int nalign, nshift;
    int64_t align_data[CONFIG_MAX_PLACES]; /* --align-data, bytes > 0 */
    int64_t shifts[CONFIG_MAX_PLACES];     /* --shift, bytes >= 0 */

    /* Each API's own options (--hdf5.*, --pnetcdf.*), as its rows store
     * them, opaque here (api/api.h; api/NAME_options.h has each API's). */
    struct api_settings api[API_COUNT];
    /* Each pattern's own options, as its rows store them, opaque here,
     * indexed as pattern_table (pattern/pattern.h; pattern/NAME_options.h
     * has each pattern's): the guide's, the block, particles, map and
     * madbench patterns'. */
    struct pattern_settings patterns[CONFIG_PATTERNS];
    /* --buffer-offset (every pattern, docs/performance.md "Buffer offset"):
     * bytes past a page boundary where the transfer buffers start, each
     * value in turn; none given: page-aligned (one value, 0). */
    int nbuf_offset;
    int64_t buf_offsets[CONFIG_MAX_PLACES];

    /* How each option was spelled ("-B", "--block-size") and its raw value,
     * NULL when not given: messages quote what the user typed. */
    const char *spelled[OPT_COUNT];
    const char *raw[OPT_COUNT];

    /* Environment (docs/original.md §2). */
    bool nocleanup;         /* HDF5_NOCLEANUP defined */
    const char *paraprefix; /* HDF5_PARAPREFIX, NULL if undefined */
    bool info_defined;      /* HDF5_MPI_INFO defined (even empty) */
    int info_count;
    struct info_entry info[CONFIG_MAX_INFO];
    char info_buf[4096];
};

#endif
