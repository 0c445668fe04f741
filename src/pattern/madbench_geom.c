/* MADbench2's set-up, as its source computes it (docs/madbench.md,
 * "Offsets"): the square process grid, ScaLAPACK's numroc for each
 * process's rows and columns of the block-cyclic matrices, the slot
 * (offcount) that rounds the largest share up to FBLOCKSIZE, and the
 * busy work's loop counts. Integer arithmetic, overflow-checked; the busy
 * work's count is MADbench2's own double expression. Pure. */
#include <math.h>
#include <stdio.h>

#include "pattern/madbench.h"

int madbench_side(int nprocs)
{
    int s = (int)sqrt((double)nprocs);
    while ((int64_t)s * s > nprocs)
        s--;
    while ((int64_t)(s + 1) * (s + 1) <= nprocs)
        s++;
    return nprocs > 0 && (int64_t)s * s == nprocs ? s : 0;
}

/* ScaLAPACK's numroc (MADbench2.h's macro, with no source offset): the
 * rows (or columns) of an n x n matrix in blocks of nb that process iproc
 * of nprocs holds. */
static int64_t madbench_numroc(int64_t n, int64_t nb, int64_t iproc, int64_t nprocs)
{
    int64_t blocks = n / nb, extra = blocks % nprocs;
    return (blocks / nprocs + (iproc < extra)) * nb + (iproc == extra) * (n % nb);
}

int64_t madbench_share(const struct madbench_geom *g, int rank)
{
    /* MADbench2's define_gang: row rank % side, column rank / side. */
    return madbench_numroc(g->pixels, g->sblock, rank % g->side, g->side) *
           madbench_numroc(g->pixels, g->sblock, rank / g->side, g->side);
}

int64_t madbench_gang_share(const struct madbench_geom *g, int rank)
{
    int in = rank % g->gang_procs;
    return madbench_numroc(g->pixels, g->sblock, in % g->gang_side, g->gang_side) *
           madbench_numroc(g->pixels, g->sblock, in / g->gang_side, g->gang_side);
}

int64_t madbench_gang_first(const struct madbench_geom *g, int rank)
{
    int64_t first = 0;
    for (int r = rank - rank % g->gang_procs; r < rank; r++)
        first += madbench_gang_share(g, r);
    return first;
}

int64_t madbench_gang_offset(const struct madbench_geom *g, bool shared, int data_rank,
                             int64_t slot)
{
    int64_t at = slot * g->gang_offcount * 8;
    return shared ? at + (int64_t)data_rank * g->bins * g->offcount * 8 : at;
}

int64_t madbench_first(const struct madbench_geom *g, int rank)
{
    int64_t first = 0;
    for (int r = 0; r < rank; r++)
        first += madbench_share(g, r);
    return first;
}

int64_t madbench_offset(const struct madbench_geom *g, bool shared, int data_rank, int64_t bin)
{
    int64_t slot = bin;
    if (shared)
        slot += (int64_t)data_rank * g->bins;
    return slot * g->offcount * 8;
}

int64_t madbench_s_end(const struct madbench_geom *g, bool shared, int data_rank)
{
    int last = shared ? g->nprocs - 1 : data_rank;
    return madbench_offset(g, shared, last, g->bins - 1) + madbench_share(g, last) * 8;
}

/* W's last gang slot of a process ends within its part of the file
 * (gang shares fit gang slots), so the last process's ends the file. */
int64_t madbench_file_end(const struct madbench_geom *g, bool shared, int data_rank)
{
    int last = shared ? g->nprocs - 1 : data_rank;
    int64_t w = madbench_gang_offset(g, shared, last, g->bins / g->gangs - 1) +
                madbench_gang_share(g, last) * 8;
    int64_t s = madbench_s_end(g, shared, data_rank);
    return w > s ? w : s;
}

/* MADbench2's busy_work count of one call: nmax passes over sblock
 * doubles, where nmax = dcount^sexp / (P * 2 * SBLOCKSIZE), truncated;
 * without BWEXP dcount is NO_PIX and sexp the computation's own exponent
 * (2 in S and C, 3 in W), with it NO_PIX^2 and BWEXP. -1 if it does not
 * fit. */
static int64_t madbench_passes(const struct madbench_settings *s, int nprocs, int exponent)
{
    double n = s->pixels;
    double dcount = s->busy < 0 ? n : n * n;
    double sexp = s->busy < 0 ? exponent : s->busy;
    double x = pow(dcount, sexp) / ((double)nprocs * 2.0 * s->sblock);
    /* The caller checks that the multiply-adds, x times SBLOCKSIZE, fit. */
    if (!(x < 4611686018427387904.0))
        return -1;
    return (int64_t)x;
}

enum madbench_violation madbench_geom(const struct madbench_settings *s, int nprocs,
                                      struct madbench_geom *g)
{
    static const int exponents[MADBENCH_PHASES] = {2, 3, 2};
    *g = (struct madbench_geom){.nprocs = nprocs,
                                .side = madbench_side(nprocs),
                                .pixels = s->pixels,
                                .bins = s->bins,
                                .sblock = s->sblock,
                                .gangs = s->gang};
    if (g->side == 0)
        return MADBENCH_NOT_SQUARE;
    /* MADbench2: no_pe % no_gang == 0; a gang's grid is square, since
     * NO_GANG is (madbench_finish.c). */
    if (g->gangs < 1 || nprocs % g->gangs != 0 || !madbench_side(nprocs / g->gangs))
        return MADBENCH_GANGS;
    g->gang_procs = nprocs / g->gangs;
    g->gang_side = madbench_side(g->gang_procs);
    /* MADbench2: ceil(NO_PIX / SBLOCKSIZE) >= sqrt(P), so that every
     * process row and column holds a block. */
    if ((g->pixels + g->sblock - 1) / g->sblock < g->side)
        return MADBENCH_SBLOCK;
    g->max_share = madbench_share(g, 0);
    g->min_share = madbench_share(g, nprocs - 1);
    for (int r = 0; r < nprocs; r++) {
        int64_t share = madbench_share(g, r);
        g->min_share = share < g->min_share ? share : g->min_share;
    }
    /* MADbench2: mpeak = max(NO_GANG x process 0's share, process 0's gang
     * share), gfb = ceil(mpeak / (NO_GANG x fblocksize)) in doubles,
     * offcount = gfb x fblocksize and the gang's NO_GANG times that. */
    int64_t fb = s->fblock / 8, gfb = (int64_t)g->gangs * fb;
    int64_t mpeak = g->gangs * g->max_share, gpeak = madbench_gang_share(g, 0);
    mpeak = gpeak > mpeak ? gpeak : mpeak;
    g->offcount = (mpeak + gfb - 1) / gfb * fb;
    g->gang_offcount = g->offcount * g->gangs;
    int64_t slots, bytes, end;
    if (__builtin_mul_overflow(g->bins, (int64_t)nprocs, &slots) ||
        __builtin_mul_overflow(slots, g->offcount, &end) ||
        __builtin_mul_overflow(end, (int64_t)8, &bytes))
        return MADBENCH_OVERFLOW;
    /* W's pdgemm is the gang's busy work (divided among its processes), its
     * remaps (gangs only) every process's with exponent 2. */
    for (int p = 0; p <= MADBENCH_PHASES; p++) {
        int64_t work, *to = p < MADBENCH_PHASES ? &g->passes[p] : &g->remap_passes;
        int procs = p == MADBENCH_W ? g->gang_procs : nprocs;
        *to = madbench_passes(s, procs, p < MADBENCH_PHASES ? exponents[p] : 2);
        if (*to < 0 || __builtin_mul_overflow(*to, g->sblock, &work))
            return MADBENCH_BUSY;
    }
    return MADBENCH_OK;
}
