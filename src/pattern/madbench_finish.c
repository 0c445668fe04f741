/* Defaults, refusals and validation of the madbench pattern
 * (docs/madbench.md, "Refused"): MADbench2's own checks (a square number
 * of processes, SBLOCKSIZE small enough for every process to hold a
 * block, FBLOCKSIZE a whole number of doubles, RMOD and WMOD dividing the
 * processes, square gangs dividing the processes and the bins), the
 * layouts it stores, and what h5perf adds: sizes
 * within 64 bits and each call within its API's limit, no turns with
 * collective calls on a shared file, whole phases. Pure. */
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "api/file_model.h"
#include "pattern/app_finish.h"
#include "pattern/app_check.h"
#include "pattern/madbench.h"

static void madbench_defaults(struct madbench_settings *s)
{
    if (!s->pixels)
        s->pixels = MADBENCH_DEFAULT_PIXELS;
    if (!s->bins)
        s->bins = MADBENCH_DEFAULT_BINS;
    if (!s->gang)
        s->gang = 1;
    if (!s->sblock)
        s->sblock = MADBENCH_DEFAULT_SBLOCK;
    if (!s->fblock)
        s->fblock = MADBENCH_DEFAULT_FBLOCK;
    if (!s->read_mod)
        s->read_mod = 1;
    if (!s->write_mod)
        s->write_mod = 1;
    if (!s->io_mode)
        s->io_mode = MADBENCH_SYNC;
    if (!s->opens)
        s->opens = MADBENCH_OPENS_PHASE;
}

/* Every process count the sweep visits (-P halving down to -p; without -p
 * only -P, or the processes started) is a square. */
static int madbench_procs(struct config *c, int world_size, struct cli_msg *m)
{
    int max = c->max_procs ? c->max_procs : world_size;
    if (!c->spelled[OPT_MIN_PROCS])
        c->min_procs = max;
    for (int p = max; p >= c->min_procs && p > 0; p /= 2) {
        if (madbench_side(p))
            continue;
        if (p != max)
            return cli_fail(m,
                            "h5perf: %s '%s': the sweep from %d processes visits %d; %s %s runs "
                            "on a square number of processes (1, 4, 9, 16...)",
                            c->spelled[OPT_MIN_PROCS], c->raw[OPT_MIN_PROCS], max, p,
                            c->spelled[OPT_PATTERN], c->raw[OPT_PATTERN]);
        if (c->spelled[OPT_MAX_PROCS])
            return cli_fail(m,
                            "h5perf: %s '%s': %s %s runs on a square number of processes (1, 4, "
                            "9, 16...)",
                            c->spelled[OPT_MAX_PROCS], c->raw[OPT_MAX_PROCS],
                            c->spelled[OPT_PATTERN], c->raw[OPT_PATTERN]);
        return cli_fail(m,
                        "h5perf: %s '%s': runs on a square number of processes (1, 4, 9, 16...), "
                        "and %d %s started; start a square number or give -P",
                        c->spelled[OPT_PATTERN], c->raw[OPT_PATTERN], world_size,
                        world_size == 1 ? "was" : "were");
    }
    return 0;
}

/* The options MADbench2 checks alone (its settings in ps), and what its
 * phases cannot be. */
static int madbench_values(struct config *c, const struct pattern_settings *ps, struct cli_msg *m)
{
    const struct madbench_settings *s = madbench_settings_of(ps);
    const char *gangs = madbench_spelled(ps, &madbench_gang_row);
    if (!madbench_side(s->gang))
        return cli_fail(m,
                        "h5perf: %s '%s': MADbench2's gangs are square: give a square number "
                        "(1, 4, 9, 16...) that divides the processes and --bins",
                        gangs, madbench_raw(ps, &madbench_gang_row));
    if (s->bins % s->gang != 0)
        return cli_fail(m,
                        "h5perf: %s '%s': does not divide the %d bins (MADbench2 deals them out "
                        "to the gangs evenly); give a square that divides --bins",
                        gangs, madbench_raw(ps, &madbench_gang_row), s->bins);
    if (s->fblock % 8 != 0)
        return cli_fail(m, "h5perf: %s '%s': a whole number of doubles: a multiple of 8 bytes",
                        madbench_spelled(ps, &madbench_fblock_row),
                        madbench_raw(ps, &madbench_fblock_row));
    if (app_finish_shared_fpp(c,
                              "the madbench pattern stores shared or fpp (MADbench2's SHARED "
                              "and UNIQUE files)",
                              m) < 0)
        return -1;
    enum opt_id whole[2] = {OPT_STONEWALL, OPT_DURATION};
    for (int i = 0; i < 2; i++)
        if (c->spelled[whole[i]])
            return cli_fail(m,
                            "h5perf: %s: %s %s runs MADbench2's phases whole (W and C read what "
                            "S and W wrote)",
                            c->spelled[whole[i]], c->spelled[OPT_PATTERN], c->raw[OPT_PATTERN]);
    return 0;
}

/* Turns (RMOD, WMOD above 1) and collective calls on a shared file would
 * wait for each other forever. */
static int madbench_turns(const struct config *c, const struct pattern_settings *ps,
                          struct cli_msg *m)
{
    const struct madbench_settings *s = madbench_settings_of(ps);
    bool shared = false;
    for (int l = 0; l < c->nlayouts; l++)
        shared |= c->layouts[l] == LAYOUT_SHARED;
    const struct opt_row *row = s->read_mod > 1 ? &madbench_read_mod_row : &madbench_write_mod_row;
    if (!c->collective || !shared || (s->read_mod == 1 && s->write_mod == 1))
        return 0;
    return cli_fail(m,
                    "h5perf: %s '%s': processes take turns with independent I/O only (with %s "
                    "every process of a shared file makes each call together); leave out %s "
                    "or give --layout fpp",
                    madbench_spelled(ps, row), madbench_raw(ps, row), c->spelled[OPT_COLLECTIVE],
                    c->spelled[OPT_COLLECTIVE]);
}

/* The asynchronous mode (docs/madbench.md, "Asynchronous I/O") runs
 * through the independent nonblocking calls of MPI-IO and PnetCDF alone. */
static int madbench_async(const struct config *c, const struct pattern_settings *ps,
                          struct cli_msg *m)
{
    if (madbench_settings_of(ps)->io_mode != MADBENCH_ASYNC)
        return 0;
    const char *opt = madbench_spelled(ps, &madbench_io_mode_row);
    const char *raw = madbench_raw(ps, &madbench_io_mode_row);
    if (c->collective)
        return cli_fail(m,
                        "h5perf: %s '%s': MADbench2's asynchronous calls are independent, and "
                        "the collective nonblocking ones (MPI_File_iwrite_at_all) need MPI 3.1, "
                        "which h5perf does not require; leave out %s",
                        opt, raw, c->spelled[OPT_COLLECTIVE]);
    static const struct {
        enum api_id api;
        const char *why;
    } refused[] = {
        {API_POSIX, "MADbench2 does no I/O through POSIX in its ASYNC mode, and POSIX has no "
                    "nonblocking call h5perf uses"},
        {API_PHDF5, "HDF5 has no asynchronous reads or writes without the async VOL connector, "
                    "which h5perf does not use"},
    };
    /* A variant that moves every bin's step in one call (--mpiio.joined,
     * --pnetcdf.nonblocking) makes none of MADbench2's calls. */
    for (int a = 0; a < API_COUNT; a++)
        for (int v = 0; c->apis & API_BIT(a) && v < 32; v++) {
            const struct api_variant *x = api_variant((enum api_id)a, v);
            if (api_variants(c->api, (enum api_id)a) & 1u << v && x && x->joins_vars)
                return cli_fail(m,
                                "h5perf: %s '%s': %s's %s variant moves every bin in one call, "
                                "not MADbench2's call per bin; leave out its option",
                                opt, raw, api_desc((enum api_id)a)->key, x->label);
        }
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (c->apis & API_BIT(refused[i].api))
            return cli_fail(m, "h5perf: %s '%s': %s; give -A mpiio%s", opt, raw, refused[i].why,
                            api_built(API_PNETCDF) ? " or -A pnetcdf" : "");
    return 0;
}

int madbench_finish(struct config *c, int world_size, struct cli_warnings *w, struct cli_msg *m)
{
    (void)w;
    const struct pattern_settings *ps = madbench_own(c);
    madbench_defaults(madbench_settings_edit(pattern_settings_edit(c, &pattern_madbench)));
    if (app_finish_common(c, m) < 0 || madbench_values(c, ps, m) < 0 ||
        madbench_turns(c, ps, m) < 0 || madbench_async(c, ps, m) < 0)
        return -1;
    return madbench_procs(c, world_size, m);
}

/* RMOD and WMOD divide a gang's processes (MADbench2: (P / NO_GANG) %
 * RMOD == 0), all of them with one gang. */
static int madbench_mods(const struct pattern_settings *ps, int nprocs, struct cli_msg *m)
{
    const struct opt_row *rows[2] = {&madbench_read_mod_row, &madbench_write_mod_row};
    int mods[2] = {madbench_settings_of(ps)->read_mod, madbench_settings_of(ps)->write_mod};
    int gangs = madbench_settings_of(ps)->gang, procs = nprocs / gangs;
    for (int i = 0; i < 2; i++)
        if (procs % mods[i] != 0)
            return cli_fail(m,
                            "h5perf: %s '%s': does not divide the %d process%s%s (groups of "
                            "that many take turns)",
                            madbench_spelled(ps, rows[i]), madbench_raw(ps, rows[i]), procs,
                            procs == 1 ? "" : "es", gangs > 1 ? " of a gang" : "");
    return 0;
}

/* The file of one bin of g: the whole matrix, or a process's share. */
static struct extent_file madbench_extent(const struct madbench_geom *g, const struct run_point *p)
{
    bool shared = !layout_desc(p->layout)->per_process;
    return (struct extent_file){(int)g->bins, (shared ? g->pixels * g->pixels : g->max_share) * 8,
                                0};
}

/* The most bins, at most --bins, whose files fit in 64-bit offsets and
 * within every selected API's limits at p, or 0 when one bin does not. */
static int64_t madbench_most_bins(const struct config *c, const struct run_point *p)
{
    struct config one = *c;
    struct madbench_settings *s =
        madbench_settings_edit(pattern_settings_edit(&one, &pattern_madbench));
    struct madbench_geom g;
    struct cli_msg quiet;
    int64_t lo = 0, hi = s->bins;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        s->bins = (int)mid;
        struct extent_file f;
        bool fits =
            madbench_geom(s, p->nprocs, &g) == MADBENCH_OK &&
            (f = madbench_extent(&g, p), pattern_validate_extent(&one, p->nprocs, &f, &quiet) == 0);
        if (fits)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* What madbench_geom() refused at p, in words. */
static int madbench_refuse(const struct config *c, const struct run_point *p,
                           enum madbench_violation v, struct cli_msg *m)
{
    const struct pattern_settings *ps = madbench_own(c);
    const struct madbench_settings *s = madbench_settings_of(ps);
    char lead[160];
    int nprocs = p->nprocs;
    int side = madbench_side(nprocs);
    madbench_pixels_option(ps, lead, sizeof lead);
    switch (v) {
    case MADBENCH_GANGS:
        return cli_fail(m,
                        "h5perf: %s '%s': does not divide the %d process%s (MADbench2 splits "
                        "them into gangs of equal size); give a square that divides them",
                        madbench_spelled(ps, &madbench_gang_row),
                        madbench_raw(ps, &madbench_gang_row), nprocs, nprocs == 1 ? "" : "es");
    case MADBENCH_SBLOCK: {
        /* ceil(NO_PIX / SBLOCKSIZE) >= side holds for SBLOCKSIZE at most
         * (NO_PIX - 1) / (side - 1), and for NO_PIX above SBLOCKSIZE x
         * (side - 1): with fewer pixels than the grid's side no SBLOCKSIZE
         * serves, and the line names --pixels (docs/madbench.md,
         * "Refused"). */
        int64_t most = side > 1 ? (s->pixels - 1) / (side - 1) : s->pixels;
        char fix[96];
        if (most >= 1) {
            if (madbench_spelled(ps, &madbench_sblock_row))
                snprintf(lead, sizeof lead, "%s '%s'", madbench_spelled(ps, &madbench_sblock_row),
                         madbench_raw(ps, &madbench_sblock_row));
            snprintf(fix, sizeof fix, "--scalapack-block at most %" PRId64, most);
        } else {
            int64_t least = (int64_t)s->sblock * (side - 1) + 1;
            if (least <= INT32_MAX)
                snprintf(fix, sizeof fix, "--pixels at least %" PRId64, least);
            else
                snprintf(fix, sizeof fix, "--pixels at least %d and --scalapack-block 1", side);
        }
        return cli_fail(m,
                        "h5perf: %s: with %d processes (a %dx%d grid) some process would hold no "
                        "block of the %d-pixel matrices (MADbench2 needs ceil(NO_PIX / "
                        "SBLOCKSIZE) >= %d); give %s",
                        lead, nprocs, side, side, s->pixels, side, fix);
    }
    case MADBENCH_BUSY:
        return cli_fail(m,
                        "h5perf: %s '%s': the busy work of %s with %d process%s does not fit in "
                        "64 bits",
                        madbench_spelled(ps, &madbench_busy_row),
                        madbench_raw(ps, &madbench_busy_row), lead, nprocs,
                        nprocs == 1 ? "" : "es");
    default: {
        /* When one bin fits, --bins is to blame: the most that the
         * geometry and every selected API's file take. */
        int64_t most = madbench_most_bins(c, p);
        const char *bins = madbench_spelled(ps, &madbench_bins_row);
        if (bins && most > 0)
            return cli_fail(m,
                            "h5perf: %s '%s': the matrices of %d process%s (%s) do not fit in "
                            "64-bit offsets with that many bins; give at most %" PRId64,
                            bins, madbench_raw(ps, &madbench_bins_row), nprocs,
                            nprocs == 1 ? "" : "es", lead, most);
        return cli_fail(m,
                        "h5perf: %s: %d bins of the matrices of %d process%s do not fit in "
                        "64-bit offsets",
                        lead, s->bins, nprocs, nprocs == 1 ? "" : "es");
    }
    }
}

int madbench_validate(const struct config *c, const struct run_point *pts, int n, struct cli_msg *m)
{
    for (int i = 0; i < n; i++) {
        struct madbench_geom g;
        int nprocs = pts[i].nprocs;
        enum madbench_violation v = madbench_geom(madbench_of(c), nprocs, &g);
        if (v != MADBENCH_OK)
            return madbench_refuse(c, &pts[i], v, m);
        if (madbench_mods(madbench_own(c), nprocs, m) < 0)
            return -1;
        char lead[160];
        madbench_pixels_option(madbench_own(c), lead, sizeof lead);
        if (app_call_limit(c, &pts[i], g.max_share * 8, lead, "each process's share of a matrix is",
                           "use more processes", m) < 0)
            return -1;
        struct extent_file f = madbench_extent(&g, &pts[i]);
        if (pattern_validate_extent(c, nprocs, &f, m) < 0)
            return -1;
    }
    return 0;
}
