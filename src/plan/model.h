/* The general model of what a process touches (docs/design.md): a logical
 * array of up to three dimensions, counted in elements, decomposed into
 * boxes (one per process, counts may differ and may be zero), and the
 * storage that places an element in a file: C order (the logical array),
 * or tiles (chunks) stored one after another in C order of their
 * coordinates, each in C order. The guide's patterns place their bytes
 * through it too (pattern.c). Pure: no MPI, no I/O; all arithmetic in
 * 64-bit integers, overflow-checked where sizes are formed. */
#ifndef H5PERF_MODEL_H
#define H5PERF_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define MODEL_MAX_DIMS 3

/* A box of an array: start and count per dimension, in elements. */
struct model_box {
    int ndims;
    int64_t start[MODEL_MAX_DIMS];
    int64_t count[MODEL_MAX_DIMS];
};

/* A regular selection of an array, HDF5's hyperslab: along each dimension
 * count blocks of block elements, stride apart, from start (in elements).
 * A box is a slab with count 1 (or stride equal to block). */
struct model_slab {
    int ndims;
    int64_t start[MODEL_MAX_DIMS];
    int64_t stride[MODEL_MAX_DIMS];
    int64_t count[MODEL_MAX_DIMS];
    int64_t block[MODEL_MAX_DIMS];
};

/* How an array's elements lie in a file: tile[d] == 0 for C order. */
struct model_storage {
    int ndims;
    int64_t dims[MODEL_MAX_DIMS];
    int64_t tile[MODEL_MAX_DIMS]; /* tiles divide dims; all zero: C order */
};

/* Flat runs, in elements: piece (j, i), j < count[0], i < count[1], starts
 * at disp + j*stride[0] + i*stride[1] and holds len elements; memory holds
 * the pieces one after another in that order. */
struct model_runs {
    int64_t disp, len;
    int64_t count[2], stride[2];
};

/* x rounded up to a multiple of a (a == 0: x itself), or -1 if it does
 * not fit; x >= 0, a >= 0. */
int64_t model_round_up(int64_t x, int64_t a);

/* The product of n values (dims, counts), or -1 if it does not fit. */
int64_t model_product(int n, const int64_t *v);

/* The C-order coordinates of rank in a process grid. */
void model_grid_coords(int ndims, const int *grid, int rank, int *coords);

/* Block decomposition of dims over grid: the box of rank. Along each
 * dimension the first dims % grid blocks hold one element more; blocks are
 * empty where the grid is larger than the dimension. */
void model_block(int ndims, const int64_t *dims, const int *grid, int rank, struct model_box *out);

/* The offset, in elements, of the element at idx in storage s. */
int64_t model_offset(const struct model_storage *s, const int64_t *idx);

/* The flat runs of box b of an array stored in C order (s with no tiles),
 * its trailing dimensions merged where the box spans them whole: one run
 * for a box of whole rows of whole planes, else runs of rows. Returns 0, or
 * -1 for an empty box. */
int model_box_runs(const struct model_storage *s, const struct model_box *b,
                   struct model_runs *out);

/* The slab of box b (count 1 in every dimension with elements, block the
 * box's counts; an empty box selects nothing). */
void model_slab_of_box(const struct model_box *b, struct model_slab *out);

/* The elements a slab selects (0 for an empty one). */
int64_t model_slab_elems(const struct model_slab *s);

/* Splits the elements [first, first + n) of box b, counted in its C order,
 * into boxes that are C-ordered one after another: a partial row, whole
 * rows, whole planes, ... and the same back down; at most
 * 2 * ndims - 1 boxes into out (MODEL_RANGE_BOXES). Returns how many
 * (0 when n is 0). first + n must not pass the box's elements. */
#define MODEL_RANGE_BOXES (2 * MODEL_MAX_DIMS - 1)
int model_box_range(const struct model_box *b, int64_t first, int64_t n, struct model_box *out);

#endif
