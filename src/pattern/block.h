/* The block pattern's plans (docs/block.md): an array of up to three
 * dimensions decomposed in blocks over a process grid, stored shared (the
 * array in C order), chunked (the blocks in rank order) or one file per
 * process; a process moves its whole block of one variable in one transfer.
 * Called by pattern.c only. Pure. */
#ifndef H5PERF_BLOCK_H
#define H5PERF_BLOCK_H

#include "pattern/pattern.h"

enum pattern_violation block_check(const struct block_params *bp);

/* pt->b, exec_rank and data_rank are set and checked. Returns 0. */
int block_init(struct pattern *pt);

/* The plan of the box pt->box of the array pt->b (set and checked; the
 * box may be empty, any size): shape, slab, storage, sizes. Returns 0. */
int block_plan(struct pattern *pt);

void block_fill(const struct pattern *pt, int var, unsigned char *buf);

int64_t block_verify(const struct pattern *pt, int var, const unsigned char *buf,
                     struct pattern_mismatch *m);

#endif
