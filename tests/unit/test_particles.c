/* The particles pattern's counts and plans (docs/particles.md): every
 * distribution's counts against its definition (sum, zero counts, the
 * same on every call), the exclusive scan against a running sum, refusals
 * (overflow, nothing to write, bad values), and every plan's bytes: the
 * processes' runs tile each variable's array exactly, and the content of
 * each run is the rule's. Pure: no MPI. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "pattern/particles.h"
#include "pattern/particles_options.h"
#include "plan/point.h"

static struct particle_dist dist(enum particle_dist_kind k, int64_t mean, double param)
{
    return (struct particle_dist){.kind = k, .mean = mean, .param = param, .seed = 1};
}

static void check_definitions(void)
{
    struct particle_dist u = dist(DIST_UNIFORM, 10, 0);
    for (int r = 0; r < 5; r++)
        CHECK_I64(particles_count(&u, 5, r), 10);
    /* imbalance:F spreads (1-F)N .. (1+F)N linearly, rounded half up. */
    struct particle_dist im = dist(DIST_IMBALANCE, 10, 0.5);
    static const int64_t want5[] = {5, 8, 10, 13, 15}; /* 5, 7.5, 10, 12.5, 15 */
    for (int r = 0; r < 5; r++)
        CHECK_I64(particles_count(&im, 5, r), want5[r]);
    CHECK_I64(particles_count(&im, 1, 0), 10);
    struct particle_dist full = dist(DIST_IMBALANCE, 6, 1.0);
    CHECK_I64(particles_count(&full, 3, 0), 0); /* a process with none */
    CHECK_I64(particles_count(&full, 3, 1), 6);
    CHECK_I64(particles_count(&full, 3, 2), 12);
    static const int64_t list[] = {0, 7, 0, 3};
    struct particle_dist l = {.kind = DIST_LIST, .nlist = 4, .list = list};
    for (int r = 0; r < 4; r++)
        CHECK_I64(particles_count(&l, 4, r), list[r]);
    CHECK_I64(particles_max_count(&l, 4), 7);
}

/* The normal draw: deterministic, around the mean, clamped at zero,
 * bounded by 6 SD, different seeds give different counts. */
static void check_normal(void)
{
    struct particle_dist n = dist(DIST_NORMAL, 1000, 100);
    double sum = 0, sq = 0;
    int differ = 0;
    const int p = 4096;
    for (int r = 0; r < p; r++) {
        int64_t c = particles_count(&n, p, r);
        CHECK_I64(c, particles_count(&n, p, r));
        CHECK(c >= 400 && c <= 1600);
        sum += (double)c;
        sq += (double)c * (double)c;
        struct particle_dist other = n;
        other.seed = 2;
        differ += particles_count(&other, p, r) != c;
    }
    double mean = sum / p, sd = sqrt(sq / p - mean * mean);
    CHECK(fabs(mean - 1000) < 10);
    CHECK(fabs(sd - 100) < 10);
    CHECK(differ > p / 2);
    /* The count of a process does not depend on the number of processes. */
    CHECK_I64(particles_count(&n, 3, 2), particles_count(&n, 4096, 2));
    struct particle_dist wide = dist(DIST_NORMAL, 10, 1000);
    int zeros = 0;
    for (int r = 0; r < 100; r++) {
        int64_t c = particles_count(&wide, 100, r);
        CHECK(c >= 0);
        zeros += c == 0;
    }
    CHECK(zeros > 20);
    struct particle_dist none = dist(DIST_NORMAL, 10, 0);
    CHECK_I64(particles_count(&none, 7, 3), 10);
}

static void check_scan(void)
{
    struct particle_dist im = dist(DIST_IMBALANCE, 9, 0.75);
    for (int p = 1; p <= 9; p++) {
        int64_t running = 0;
        for (int r = 0; r < p; r++) {
            int64_t off = -1, total = -1;
            CHECK(particles_scan(&im, p, r, &off, &total) == 0);
            CHECK_I64(off, running);
            running += particles_count(&im, p, r);
        }
        int64_t off, total;
        particles_scan(&im, p, 0, &off, &total);
        CHECK_I64(total, running);
    }
    /* Uniform and symmetric spreads keep P*N in all. */
    struct particle_dist u = dist(DIST_UNIFORM, 1000, 0), full = dist(DIST_IMBALANCE, 1000, 1);
    int64_t off, total;
    particles_scan(&u, 7, 0, &off, &total);
    CHECK_I64(total, 7000);
    particles_scan(&full, 5, 0, &off, &total);
    CHECK_I64(total, 5000);
}

static enum pattern_violation check_of(struct particle_dist d, int nprocs, int nvars, int layout)
{
    struct particle_params q = {.nprocs = nprocs, .dist = d, .nvars = nvars, .layout = layout};
    return particles_check(&q);
}

static void check_refusals(void)
{
    struct particle_dist big = dist(DIST_UNIFORM, PARTICLES_MAX_COUNT, 0);
    /* 2^40 particles of 8 variables of 4 bytes: 2^45 bytes per process;
     * 2^18 processes reach 2^63. */
    CHECK_I64(check_of(big, 1 << 17, 8, LAYOUT_SHARED), PATTERN_OK);
    CHECK_I64(check_of(big, 1 << 18, 8, LAYOUT_SHARED), PATTERN_OVERFLOW);
    CHECK_I64(check_of(big, 1 << 18, 4, LAYOUT_SHARED), PATTERN_OK);
    big.mean = PARTICLES_MAX_COUNT + 1;
    CHECK_I64(check_of(big, 1, 1, LAYOUT_SHARED), PATTERN_BAD_VALUE);
    static const int64_t zeros[] = {0, 0, 0};
    struct particle_dist l = {.kind = DIST_LIST, .nlist = 3, .list = zeros};
    CHECK_I64(check_of(l, 3, 8, LAYOUT_SHARED), PATTERN_NO_PARTICLES);
    CHECK_I64(check_of(l, 2, 8, LAYOUT_SHARED), PATTERN_BAD_VALUE); /* 3 counts, 2 processes */
    CHECK_I64(check_of(dist(DIST_UNIFORM, 5, 0), 2, 9, LAYOUT_SHARED), PATTERN_BAD_VALUE);
    CHECK_I64(check_of(dist(DIST_UNIFORM, 5, 0), 2, 8, LAYOUT_CHUNKED), PATTERN_BAD_VALUE);
    CHECK_I64(check_of(dist(DIST_IMBALANCE, 5, 1.5), 2, 8, LAYOUT_FPP), PATTERN_BAD_VALUE);
    CHECK_I64(check_of(dist(DIST_NORMAL, 5, -1), 2, 8, LAYOUT_FPP), PATTERN_BAD_VALUE);
    CHECK_I64(check_of(dist(DIST_IMBALANCE, 1, 1), 3, 8, LAYOUT_FPP), PATTERN_OK); /* 0, 1, 2 */
}

/* A particles configuration of distribution d, with its list (if any)
 * copied in; one run point at nprocs of layout, placed by align and
 * shift. */
static void particles_config(struct config *cfg, struct particle_dist d, int nprocs, int nvars)
{
    config_init(cfg);
    cfg->pattern = pattern_find("particles", 9);
    cfg->nvars = nvars;
    struct particles_settings *own = particles_edit(cfg);
    own->dist = d;
    for (int r = 0; d.kind == DIST_LIST && r < d.nlist; r++)
        own->list[r] = d.list[r];
    own->dist.list = NULL;
    cfg->min_procs = cfg->max_procs = nprocs;
}

static struct plan particles_plan_of(const struct config *cfg, int nprocs, int layout,
                                     int64_t align, int64_t shift, int rank, int it)
{
    struct plan pl;
    struct run_point pt = {
        .nprocs = nprocs, .api = API_POSIX, .layout = layout, .align = align, .shift = shift};
    CHECK(pattern_of(cfg)->plan(cfg, &pt, rank, it, &pl) == 0);
    return pl;
}

/* The first run of a plan's only step of variable v (write phase). */
static void first_run(const struct plan *pl, int v, int64_t *off, int64_t *len, int64_t *bytes)
{
    struct plan_step s;
    plan_step(pl, 0, v, 0, &s);
    *off = *len = 0;
    *bytes = s.bytes;
    if (plan_step_runs(&s) > 0)
        plan_step_run(&s, 0, off, len);
}

/* Every process's plan of a variable: in the shared layout the runs tile
 * the array once, in rank order; in fpp each file is the run alone; the
 * content is the rule's: (i + v*N) mod 2^32, little-endian. */
static void check_plans(struct particle_dist d, int nprocs, int nvars)
{
    int64_t off, total;
    particles_scan(&d, nprocs, 0, &off, &total);
    struct config cfg;
    particles_config(&cfg, d, nprocs, nvars);
    for (int l = 0; l < 2; l++) {
        int layout = l ? LAYOUT_FPP : LAYOUT_SHARED;
        int64_t next = 0;
        for (int r = 0; r < nprocs; r++) {
            struct plan pl = particles_plan_of(&cfg, nprocs, layout, 0, 0, r, 0);
            int64_t n = particles_count(&d, nprocs, r), run, len, bytes;
            struct plan_access acc;
            plan_access(&pl, 0, 0, &acc);
            CHECK_I64(acc.nsteps, 1);
            CHECK_I64(pl.buffer_bytes, 4 * n);
            struct plan_var v;
            plan_var(&pl, 0, &v);
            CHECK_I64(v.dims[0], layout == LAYOUT_FPP ? n : total);
            first_run(&pl, 0, &run, &len, &bytes);
            CHECK_I64(bytes, 4 * n);
            if (n > 0)
                CHECK_I64(run, layout == LAYOUT_FPP ? 0 : 4 * next);
            unsigned char *buf = malloc((size_t)(4 * n + 1));
            for (int var = 0; var < nvars; var++) {
                pl.ops->fill(&pl, 0, var, buf, false);
                for (int64_t i = 0; i < n; i++) {
                    uint32_t want = (uint32_t)(next + i + (int64_t)var * total), got = 0;
                    for (int k = 3; k >= 0; k--)
                        got = got << 8 | buf[4 * i + k];
                    CHECK_I64(got, want);
                }
                struct plan_step s;
                int64_t bad_off;
                unsigned char e, f;
                plan_step(&pl, 1, var, 0, &s);
                CHECK_I64(pl.ops->verify(&pl, 1, &s, buf, &bad_off, &e, &f), 0);
                if (n > 0) {
                    buf[4 * n - 1] ^= 1;
                    CHECK_I64(pl.ops->verify(&pl, 1, &s, buf, &bad_off, &e, &f), 1);
                }
            }
            struct plan it3 = particles_plan_of(&cfg, nprocs, layout, 0, 0, r, 3);
            struct plan_var last;
            plan_var(&it3, nvars - 1, &last);
            char want[64];
            snprintf(want, sizeof want, "Timestep_3/%s", particles_var_name(nvars - 1));
            CHECK_STR(last.name, want);
            CHECK(last.kind == (particles_var_is_int(nvars - 1) ? PLAN_SIGNED : PLAN_FLOAT));
            free(buf);
            next += n;
        }
        CHECK_I64(next, total);
    }
}

/* Aligned and shifted plans: each process's run from a multiple of the
 * alignment after the shift, the variables a whole number of alignments
 * apart, the file ending with the last byte of data; a file per process
 * is never placed. */
static void check_places(void)
{
    static const int64_t list[] = {5, 0, 1003, 1024};
    struct particle_dist d = {.kind = DIST_LIST, .nlist = 4, .list = list};
    struct config cfg;
    particles_config(&cfg, d, 4, 3);
    static const int64_t starts[] = {0, 4096, 4096, 8192};
    for (int r = 0; r < 4; r++) {
        struct plan pl = particles_plan_of(&cfg, 4, LAYOUT_SHARED, 4096, 7, r, 0);
        int64_t run, len, bytes;
        first_run(&pl, 2, &run, &len, &bytes);
        if (list[r] > 0)
            CHECK_I64(run, 7 + 2 * 12288 + starts[r]);
        CHECK_I64(pl.flat_bytes, 7 + 2 * 12288 + 12288);
        struct plan_var v;
        plan_var(&pl, 0, &v);
        CHECK_I64(v.dims[0] * 4, 4 * 2032); /* the data moved: no padding */
    }
    struct plan pl = particles_plan_of(&cfg, 4, LAYOUT_SHARED, 0, 7, 3, 0);
    int64_t run, len, bytes;
    first_run(&pl, 0, &run, &len, &bytes);
    CHECK_I64(run, 7 + 4 * 1008);
    first_run(&pl, 1, &run, &len, &bytes);
    CHECK_I64(run, 7 + 4 * 2032 + 4 * 1008);
    CHECK_I64(pl.flat_bytes, 7 + 3 * 4 * 2032);
    struct particle_params q = {
        .nprocs = 4, .dist = d, .nvars = 3, .layout = LAYOUT_FPP, .align = 4096, .shift = 7};
    CHECK_I64(particles_check(&q), PATTERN_ALIGN);
    q.align = q.shift = 0;
    CHECK_I64(particles_check(&q), PATTERN_OK);
    q.layout = LAYOUT_SHARED;
    q.align = INT64_MAX / 2;
    CHECK_I64(particles_check(&q), PATTERN_OVERFLOW);
    CHECK_I64(model_round_up(5, 4), 8);
    CHECK_I64(model_round_up(8, 4), 8);
    CHECK_I64(model_round_up(0, 4), 0);
    CHECK_I64(model_round_up(INT64_MAX, 2), -1);
}

int main(void)
{
    check_places();
    check_definitions();
    check_normal();
    check_scan();
    check_refusals();
    static const int64_t list[] = {5, 0, 3, 0, 0, 11, 1, 2};
    for (int p = 1; p <= 8; p++) {
        check_plans(dist(DIST_UNIFORM, 3, 0), p, 8);
        check_plans(dist(DIST_IMBALANCE, 4, 1), p, 2);
        check_plans(dist(DIST_NORMAL, 6, 4), p, 1);
        check_plans((struct particle_dist){.kind = DIST_LIST, .nlist = p, .list = list}, p, 3);
    }
    CHECK_STR(particles_var_name(0), "x");
    CHECK_STR(particles_var_name(6), "id_1");
    CHECK(particles_var_is_int(6) && !particles_var_is_int(7));
    return check_done("test_particles");
}
