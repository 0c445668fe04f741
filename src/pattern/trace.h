/* The trace pattern (docs/trace.md, "The trace pattern"), an entry of the
 * pattern table: an application's calls, read from a trace by process 0
 * (load, trace_text.c), replayed process by process through every API.
 * Every process receives the trace's figures (per file, per process) and
 * its own calls only (trace_input.c); each recorded file is a 1-D byte
 * variable of one data file (trace.c). Pure. */
#ifndef H5PERF_TRACE_H
#define H5PERF_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern/pattern.h"
#include "pattern/trace_options.h"

/* The processes a trace may declare (docs/trace.md), and the files h5perf
 * replays (each a variable of the data file). */
#define TRACE_MAX_PROCS (1 << 20)
#define TRACE_MAX_FILES 1024

/* One call of a process, as it keeps it. */
struct trace_call {
    int64_t offset, length;
    double gap, duration;
    int32_t file;
    int32_t write; /* 1: write, 0: read */
};

/* What every process knows of a recorded file: the replay's figures
 * (after --trace-gather and --trace-align), and the recorded ones. */
struct trace_file {
    int64_t size;                           /* the largest end of its replayed calls; 0: none */
    int64_t base;                           /* where it starts in a flat data file */
    int64_t most_calls;                     /* the most calls one process made of it */
    int64_t most_reads;                     /* the most reads one process made of it */
    int64_t calls[2];                       /* every process's recorded reads [0] and writes [1] */
    int64_t bytes[2];                       /* their bytes */
    double seconds[2];                      /* the sum of their durations */
    int64_t moved_calls[2], moved_bytes[2]; /* the replay's reads and writes */
    int64_t read_end;                       /* the largest end of its replayed reads; 0: none */
};

/* What every process knows of a process: its calls and its largest. */
struct trace_proc {
    int64_t calls, largest;
};

/* A trace as a process keeps it: the figures of every file and process,
 * and the calls of one process (its own), grouped by file in recorded
 * order (file k's are calls[first[k]] to calls[first[k + 1] - 1]). */
struct trace_input {
    int nprocs, nfiles;
    char level[8];                  /* "posix", "mpiio" */
    const struct trace_file *files; /* [nfiles] */
    const struct trace_proc *procs; /* [nprocs] */
    int rank;                       /* whose calls it holds; -1: none */
    const struct trace_call *calls; /* its calls, by file */
    const int64_t *first;           /* [nfiles + 1] */
    /* Its reads, by file: file k's are calls[reads[rfirst[k]]] to
     * calls[reads[rfirst[k + 1] - 1]] (the prepare phase's steps). */
    const int64_t *reads;  /* [its reads] */
    const int64_t *rfirst; /* [nfiles + 1] */
    /* Its calls in recorded order (calls[order[i]], i from 0), and its
     * reads among them (calls[order_reads[i]]): a flat file's steps. */
    const int64_t *order;       /* [its calls] */
    const int64_t *order_reads; /* [its reads] */
    int64_t nreads;
    void *storage; /* owns the arrays */
};

/* The transformations of the calls (docs/trace.md, "Transformations"):
 * gathered into calls of at most gather bytes, then aligned to multiples
 * of align bytes; 0: not made. */
struct trace_reshape {
    int64_t gather, align;
};

/* The trace's text (docs/trace.md, "The text format") of data[0, len),
 * for a run of run_procs processes (0: any), its calls reshaped as how
 * says (NULL: as recorded), into the bytes adopt() takes (*bytes
 * malloc'd). Returns 0, or -1 with why ("line 7: ..."). */
int trace_text_parse(const char *data, size_t len, int run_procs, const struct trace_reshape *how,
                     unsigned char **bytes, size_t *blen, char *why, size_t wlen);

/* The calls of every process (calls[0, *ncalls), process after process,
 * procs[p].calls each) reshaped in place as how says, and the replay's
 * figures of files[nfiles] and procs[nprocs] computed from them (the
 * recorded ones left). Returns 0, or -1 with why (a call whose aligned
 * end passes 2^63 - 1; out of memory). Pure (trace_reshape.c). */
int trace_reshape_calls(const struct trace_reshape *how, struct trace_call *calls, int64_t *ncalls,
                        struct trace_file *files, int nfiles, struct trace_proc *procs, int nprocs,
                        char *why, size_t wlen);

/* The pattern's load(), input_parts(), adopt() and input_release()
 * (trace_input.c). */
int trace_load(const struct config *c, const struct pattern_files *files, unsigned char **bytes,
               size_t *len, struct cli_msg *m);
int trace_input_parts(const unsigned char *bytes, size_t len, int nprocs, size_t *common,
                      size_t *ends);
int trace_adopt(const struct config *c, int rank, const unsigned char *bytes, size_t len,
                void **out, struct cli_msg *m);
void trace_input_release(void *input);

/* The bytes a process's input holds (what the memory check counts). */
int64_t trace_held_bytes(const struct trace_input *in);

/* The content of byte offset of recorded file k (docs/trace.md,
 * "Content"): g((offset + k x TRACE_FILE_SHIFT) mod TRACE_PERIOD), g(i) =
 * (i x 167) xor (i >> 8) xor 0x5a, low 8 bits. */
#define TRACE_PERIOD     65521
#define TRACE_FILE_SHIFT 4099
static inline unsigned char trace_byte(int64_t i)
{
    return (unsigned char)(((uint64_t)i * 167u) ^ ((uint64_t)i >> 8) ^ 0x5au);
}
static inline int64_t trace_phase_of(int k, int64_t offset)
{
    return (int64_t)(((uint64_t)offset % TRACE_PERIOD + (uint64_t)k * TRACE_FILE_SHIFT) %
                     TRACE_PERIOD);
}

/* The recorded figures of the trace the run replays, over every process
 * and file: set by adopt, for the report sections and the results, which
 * see the configuration alone. Reads [0] and writes [1]. */
struct trace_totals {
    int nprocs, nfiles;
    char level[8];
    int64_t calls[2], bytes[2];
    double seconds[2];                      /* the sum of the calls' durations */
    int64_t moved_calls[2], moved_bytes[2]; /* the replay's calls and bytes */
};
const struct trace_totals *trace_summary(void);

/* The recorded figures of the trace whose text is data[0, len) (every
 * rule of the format checked, any process count), into *out. Returns 0,
 * or -1 with why ("line 7: ..."). Pure (trace_text.c). */
int trace_text_totals(const char *data, size_t len, struct trace_totals *out, char *why,
                      size_t wlen);

/* The pattern's report sections and results (trace_report.c). */
extern const struct pattern_report trace_report;
void trace_json_config(struct jsonw *w, const struct config *c);
void trace_json_run(struct jsonw *w, const struct config *c, const struct api_result *r);

/* --trace's finish() and rows (trace_options.c). */
int trace_finish(struct config *cfg, int world_size, struct cli_warnings *w, struct cli_msg *msg);
extern const struct opt_row *const trace_rows[];

extern const struct pattern_desc pattern_trace;

#endif
