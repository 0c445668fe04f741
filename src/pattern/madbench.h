/* The madbench pattern (docs/madbench.md), an entry of the pattern table:
 * MADbench2's I/O mode, parameter for parameter. NO_BIN matrices of
 * NO_PIX x NO_PIX doubles, block-cyclic over a square process grid; each
 * process's share of a matrix in one call at MADbench2's offset; phases S
 * (busy work, write each matrix), W (read, busy work, write) and C (read
 * each matrix back), with MADbench2's barriers, its busy work and its
 * tokens that let only 1 in RMOD (WMOD) processes read (write) at a time.
 * Pure. */
#ifndef H5PERF_MADBENCH_H
#define H5PERF_MADBENCH_H

#include "pattern/madbench_options.h"
#include "pattern/pattern.h"

extern const struct pattern_desc pattern_madbench;

/* Its rows of the option table (madbench_options.c), NULL after the last. */
extern const struct opt_row *const madbench_rows[];

/* The defaults of its options. */
#define MADBENCH_DEFAULT_PIXELS 1024
#define MADBENCH_DEFAULT_BINS   8
#define MADBENCH_DEFAULT_SBLOCK 32
#define MADBENCH_DEFAULT_FBLOCK 8

/* MADbench2's phases, in order; a plan's phase and slot. */
enum madbench_phase { MADBENCH_S, MADBENCH_W, MADBENCH_C, MADBENCH_PHASES };

/* What MADbench2's set-up computes for one process count (madbench_geom.c):
 * the process grid, every process's share of a matrix and the slots the
 * files hold them in, and the busy work of each phase. */
struct madbench_geom {
    int nprocs, side;                /* side x side processes */
    int gangs;                       /* NO_GANG: gangs of consecutive ranks */
    int gang_procs, gang_side;       /* a gang's processes: gang_side x gang_side */
    int64_t pixels;                  /* NO_PIX */
    int64_t bins;                    /* NO_BIN */
    int64_t sblock;                  /* SBLOCKSIZE */
    int64_t offcount;                /* a slot, in elements (8-byte): MADbench2's offcount */
    int64_t gang_offcount;           /* a gang's slot: gangs x offcount (pp_matrix2.offcount) */
    int64_t max_share;               /* the largest share, in elements (process 0's) */
    int64_t min_share;               /* the smallest */
    int64_t passes[MADBENCH_PHASES]; /* busy work: passes of sblock multiply-adds */
    int64_t remap_passes;            /* W's busy work in place of a remap (gangs only) */
};

/* What madbench_geom() found wrong. */
enum madbench_violation {
    MADBENCH_OK = 0,
    MADBENCH_NOT_SQUARE, /* the process count is not a perfect square */
    MADBENCH_SBLOCK,     /* a process row or column has no block (MADbench2's check) */
    MADBENCH_GANGS,      /* NO_GANG does not divide the process count */
    MADBENCH_OVERFLOW,   /* a file's size does not fit in 64 bits */
    MADBENCH_BUSY        /* the busy work's passes do not fit in 64 bits */
};

/* MADbench2's set-up for nprocs processes of its parameters s (finished).
 * Returns MADBENCH_OK with g filled, or what is wrong. */
enum madbench_violation madbench_geom(const struct madbench_settings *s, int nprocs,
                                      struct madbench_geom *g);

/* The side of a square process count; 0 if it is not one. */
int madbench_side(int nprocs);

/* Process rank's share of a matrix, in elements: ScaLAPACK's numroc of its
 * row times that of its column (rank = row + column x side). */
int64_t madbench_share(const struct madbench_geom *g, int rank);

/* Process rank's share of a matrix in its gang's distribution (W's
 * writes, C's reads): numroc over the gang's grid of its rank in the gang
 * (rank % gang_procs); with one gang, madbench_share. */
int64_t madbench_gang_share(const struct madbench_geom *g, int rank);

/* The elements of the gang shares of the processes of rank's gang before
 * it: where its gang share starts in the matrix in the gang's distributed
 * order. */
int64_t madbench_gang_first(const struct madbench_geom *g, int rank);

/* The first byte of gang slot `slot` of data_rank (W writes, C reads the
 * gang's slot-th bin there): slot x gang_offcount doubles into the
 * process's part of the file (MADbench2's io_distmatrix with pp_matrix2). */
int64_t madbench_gang_offset(const struct madbench_geom *g, bool shared, int data_rank,
                             int64_t slot);

/* The end of the data of a file after S alone (what S writes). */
int64_t madbench_s_end(const struct madbench_geom *g, bool shared, int data_rank);

/* The first byte of bin's slot of data_rank in a file of the layout
 * (shared: every process's slots, fpp: its own). */
int64_t madbench_offset(const struct madbench_geom *g, bool shared, int data_rank, int64_t bin);

/* The end of the data of a file after W (S's and W's writes): the shared
 * file, or data_rank's own. */
int64_t madbench_file_end(const struct madbench_geom *g, bool shared, int data_rank);

/* The elements of the shares of the processes before rank: where rank's
 * share starts in a matrix in MADbench2's distributed order (process 0's
 * share, then process 1's...), an HDF5 dataset or netCDF variable of the
 * shared layout. */
int64_t madbench_first(const struct madbench_geom *g, int rank);

/* The content rule (docs/madbench.md, "Content"): element j of bin in the
 * distributed order, as S writes it, is bin x NO_PIX^2 + j modulo 2^64 (an
 * 8-byte little-endian unsigned integer); W writes its complement. */
static inline uint64_t madbench_value(const struct madbench_geom *g, int64_t bin, int64_t j)
{
    return (uint64_t)bin * (uint64_t)g->pixels * (uint64_t)g->pixels + (uint64_t)j;
}

/* Finish and validation (madbench_finish.c). */
int madbench_finish(struct config *c, int world_size, struct cli_warnings *w, struct cli_msg *m);
int madbench_validate(const struct config *c, const struct run_point *pts, int n,
                      struct cli_msg *m);

/* "--pixels '4096'", or "--pixels 1024 (the default)", from its settings
 * s. */
void madbench_pixels_option(const struct pattern_settings *s, char *buf, size_t len);

/* Its report sections and results (madbench_report.c). */
extern const struct pattern_report madbench_report;
void madbench_json_config(struct jsonw *w, const struct config *c);
void madbench_json_run(struct jsonw *w, const struct config *c, const struct api_result *r);

#endif
