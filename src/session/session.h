/* The run plan of a session, resolved once in setup (docs/design.md, "The
 * run plan"): every run point of the sweep in run order, its labels, and
 * what the checks need computed over all processes: each process's
 * largest buffer per process count, the largest call, the files' sizes.
 * Validation, the backends' checks, the memory check, --progress, the run,
 * the report and the results read it; nothing rebuilds the sweep. Pure: no
 * MPI (the grids of MPI_Dims_create come in as a function). */
#ifndef H5PERF_SESSION_H
#define H5PERF_SESSION_H

#include "cli/cli.h"
#include "pattern/pattern.h"

struct session_point {
    struct run_point p;
    char label[96];       /* "transfer size 64KB", "layout shared" */
    char label_exact[96]; /* sizes in bytes: "transfer size 65536" */
    char lead[320];       /* messages: "transfer size 4 GiB with 2 processes" */
    char chunk_lead[320]; /* what sets HDF5's chunks, for messages */
    struct pattern_measure m;
};

/* The points of one process count, and every process's largest buffer
 * over them. */
struct session_count {
    int nprocs;
    int first, n; /* its points: points[first .. first + n - 1] */
    /* This process's largest buffer at this count (the process
     * session_build_part() was given; 0 when it takes no part): what the
     * memory check adds up per host, each process telling its own, so that
     * no process holds every process's (docs/scale.md). */
    int64_t own_buffer;
    int64_t max_buffer;
};

struct session {
    const struct config *cfg;
    const struct pattern_desc *pattern;
    void *input; /* the pattern's input (pattern.h, adopt), or NULL */
    int npoints;
    struct session_point *points;
    int ncounts;
    struct session_count counts[CONFIG_MAX_SWEEP];
    int own; /* the world rank whose buffers own_buffer keeps; -1: none */
};

/* Local: the run points of the finished configuration c (kept by
 * pointer), checked by its pattern, measured. dims makes the process grids
 * the pattern asks for. A pattern with an input from outside the command
 * line gets the bytes its load() made on process 0 (input, len; NULL: none
 * was loaded), which its adopt() turns into the input every run point
 * carries. Returns 0, or -1 with m (a refusal, or out of memory); s is then
 * empty. */
int session_build_input(struct session *s, const struct config *c, const unsigned char *input,
                        size_t len, pattern_dims_fn dims, struct cli_msg *m);

/* Local: the same, on the bytes process part received (pattern.h,
 * input_parts): the common part and its own (part -1: load()'s bytes
 * whole, as session_build_input() takes them); own: the world rank of
 * this process, whose buffers the counts keep (own_buffer; -1: none, as
 * session_build_input()). */
int session_build_part(struct session *s, const struct config *c, const unsigned char *input,
                       size_t len, int part, int own, pattern_dims_fn dims, struct cli_msg *m);

void session_release(struct session *s);

/* The largest flat file of the session, and the point it belongs to. */
const struct session_point *session_largest_file(const struct session *s);

#endif
