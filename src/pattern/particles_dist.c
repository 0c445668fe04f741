/* particles_dist.h: counts, scan, places. */
#include "pattern/particles_dist.h"

#include <math.h>

#include "plan/model.h"
#include "plan/point.h"

static const char *const particles_names[PARTICLES_MAX_VARS] = {"x",  "y",  "z",    "px",
                                                                "py", "pz", "id_1", "id_2"};

const char *particles_var_name(int v)
{
    return v >= 0 && v < PARTICLES_MAX_VARS ? particles_names[v] : "?";
}

bool particles_var_is_int(int v)
{
    return v == 6;
}

/* splitmix64: a counter-based generator, so that the draw of a process
 * depends on the seed and its rank only. */
static uint64_t particles_mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* A standard normal deviate, bounded by 6 (the sum of twelve uniforms in
 * [0, 1), less 6): only IEEE additions and multiplications of exact
 * values, so the same on every platform. */
static double particles_normal(uint64_t seed, int rank)
{
    double sum = 0;
    uint64_t state = particles_mix(seed ^ particles_mix((uint64_t)rank));
    for (int j = 0; j < 12; j++) {
        state = particles_mix(state);
        sum += (double)(state >> 11) * 0x1.0p-53;
    }
    return sum - 6.0;
}

int64_t particles_count(const struct particle_dist *d, int nprocs, int rank)
{
    double n = (double)d->mean, c;
    switch (d->kind) {
    case DIST_LIST:
        return d->list[rank];
    case DIST_IMBALANCE:
        if (nprocs == 1)
            return d->mean;
        c = n - d->param * n + 2.0 * d->param * n * rank / (nprocs - 1);
        break;
    case DIST_NORMAL:
        c = n + d->param * particles_normal(d->seed, rank);
        break;
    default:
        return d->mean;
    }
    c = floor(c + 0.5);
    return c > 0 ? (int64_t)c : 0;
}

int64_t particles_max_count(const struct particle_dist *d, int nprocs)
{
    int64_t most = 0;
    for (int r = 0; r < nprocs; r++) {
        int64_t n = particles_count(d, nprocs, r);
        most = n > most ? n : most;
    }
    return most;
}

void particles_summary(const struct particle_dist *d, int nprocs, int64_t *total, int64_t *least,
                       int64_t *most)
{
    int64_t offset = 0;
    *total = 0;
    particles_scan(d, nprocs, 0, &offset, total);
    *least = INT64_MAX;
    for (int r = 0; r < nprocs; r++) {
        int64_t n = particles_count(d, nprocs, r);
        *least = n < *least ? n : *least;
    }
    *most = particles_max_count(d, nprocs);
}

int particles_scan(const struct particle_dist *d, int nprocs, int rank, int64_t *offset,
                   int64_t *total)
{
    int64_t sum = 0;
    for (int r = 0; r < nprocs; r++) {
        if (r == rank)
            *offset = sum;
        if (__builtin_add_overflow(sum, particles_count(d, nprocs, r), &sum))
            return -1;
    }
    *total = sum;
    return 0;
}

int particles_places(const struct particle_dist *d, int nprocs, int rank, int64_t align,
                     int64_t *start, int64_t *end, int64_t *stride)
{
    int64_t at = 0;
    *start = *end = 0;
    for (int r = 0; r < nprocs; r++) {
        int64_t bytes = 4 * particles_count(d, nprocs, r); /* <= 7 * 2^42 */
        if (r == rank)
            *start = at;
        if (bytes > 0 && __builtin_add_overflow(at, bytes, end))
            return -1;
        int64_t padded = model_round_up(bytes, align);
        if (padded < 0 || __builtin_add_overflow(at, padded, &at))
            return -1;
    }
    *stride = model_round_up(at, align);
    return *stride < 0 ? -1 : 0;
}

static bool particles_dist_ok(const struct particle_dist *d, int nprocs)
{
    if (d->mean < 0 || d->mean > PARTICLES_MAX_COUNT)
        return false;
    switch (d->kind) {
    case DIST_UNIFORM:
        return true;
    case DIST_IMBALANCE:
        return d->param >= 0 && d->param <= 1;
    case DIST_NORMAL:
        return d->param >= 0 && d->param <= (double)PARTICLES_MAX_COUNT;
    case DIST_LIST:
        if (d->nlist != nprocs || !d->list)
            return false;
        for (int r = 0; r < nprocs; r++)
            if (d->list[r] < 0 || d->list[r] > PARTICLES_MAX_COUNT)
                return false;
        return true;
    }
    return false;
}

enum pattern_violation particles_check(const struct particle_params *qp)
{
    if (qp->nprocs <= 0 || qp->nvars < 1 || qp->nvars > PARTICLES_MAX_VARS ||
        (qp->layout != LAYOUT_SHARED && qp->layout != LAYOUT_FPP) ||
        !particles_dist_ok(&qp->dist, qp->nprocs))
        return PATTERN_BAD_VALUE;
    if (qp->align < 0 || qp->shift < 0 ||
        (qp->layout == LAYOUT_FPP && (qp->align > 0 || qp->shift > 0)))
        return PATTERN_ALIGN;
    int64_t offset = 0, total, bytes, start, end, stride;
    if (particles_scan(&qp->dist, qp->nprocs, 0, &offset, &total) < 0 ||
        __builtin_mul_overflow(total, (int64_t)4 * qp->nvars, &bytes) ||
        particles_places(&qp->dist, qp->nprocs, 0, qp->align, &start, &end, &stride) < 0 ||
        __builtin_mul_overflow(stride, (int64_t)qp->nvars, &bytes) ||
        __builtin_add_overflow(bytes, qp->shift, &bytes))
        return PATTERN_OVERFLOW;
    return total > 0 ? PATTERN_OK : PATTERN_NO_PARTICLES;
}
