/* The time-stamp counter as the timers' clock: whether to use it (pure,
 * from the kernel's words), its scale (pure), and, on x86-64, reading and
 * calibrating it. Never chooses it where the kernel does not keep time with
 * it; a build for another processor always keeps MPI_Wtime. */
#include "engine/tsc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
#define TSC_BUILT 1
#else
#define TSC_BUILT 0
#endif

/* Does the space-separated list hold word, whole? */
static bool tsc_has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n) {
        bool starts = p == list || p[-1] == ' ' || p[-1] == '\t';
        char after = p[n];
        if (starts && (after == '\0' || after == ' ' || after == '\t' || after == '\n'))
            return true;
    }
    return false;
}

bool tsc_reliable(const char *flags, const char *clocksource)
{
    if (!flags || !clocksource || strncmp(flags, "flags", 5) != 0)
        return false;
    const char *words = strchr(flags, ':');
    if (!words)
        return false;
    size_t n = strcspn(clocksource, " \t\n");
    bool kernel = n == 3 && strncmp(clocksource, "tsc", 3) == 0;
    return kernel && tsc_has_word(words + 1, "constant_tsc") &&
           tsc_has_word(words + 1, "nonstop_tsc") && tsc_has_word(words + 1, "rdtscp");
}

int tsc_calibrate(struct tsc_pair a, struct tsc_pair b, struct tsc_scale *s)
{
    if (b.ticks <= a.ticks || !(b.seconds > a.seconds))
        return -1;
    double hz = (double)(b.ticks - a.ticks) / (b.seconds - a.seconds);
    if (!(hz >= TSC_MIN_HZ && hz <= TSC_MAX_HZ))
        return -1;
    s->origin = b;
    s->per_tick = 1.0 / hz;
    return 0;
}

#if TSC_BUILT

/* The scale, set once by tsc_clock_setup() before any timer reads it and
 * never after (the counter's equivalent of MPI_Wtime's own origin). */
static struct tsc_scale tsc_scale;

/* rdtscp reads the counter only once every instruction before it has
 * executed: the call being timed is over, as with the kernel's own ordered
 * read behind clock_gettime. */
static uint64_t tsc_read(void)
{
    unsigned aux;
    return __rdtscp(&aux);
}

double tsc_clock(void)
{
    return tsc_seconds(&tsc_scale, tsc_read());
}

/* The line of path that begins with key (the first line if key is ""),
 * into buf; "" if none. */
static void tsc_read_line(const char *path, const char *key, char *buf, int len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    while (fgets(buf, len, f))
        if (strncmp(buf, key, strlen(key)) == 0) {
            fclose(f);
            return;
        }
    buf[0] = '\0';
    fclose(f);
}

/* The counter and reference read together: of several tries, the one read
 * between the closest two counter readings, paired with their midpoint. */
static struct tsc_pair tsc_pair_now(double (*reference)(void))
{
    struct tsc_pair best = {0, 0};
    uint64_t closest = UINT64_MAX;
    for (int i = 0; i < 16; i++) {
        uint64_t t0 = tsc_read();
        double s = reference();
        uint64_t t1 = tsc_read();
        if (t1 >= t0 && t1 - t0 < closest) {
            closest = t1 - t0;
            best = (struct tsc_pair){t0 + (t1 - t0) / 2, s};
        }
    }
    return best;
}

double (*tsc_clock_setup(double (*reference)(void), double *hz))(void)
{
    /* Once per process: every run of h5perf_run() in it (the advisor's
     * quiet runs) keeps the first calibration rather than sleep again. */
    static int known; /* 0: not yet; 1: the counter; -1: reference */
    if (known) {
        *hz = known > 0 ? 1.0 / tsc_scale.per_tick : 0;
        return known > 0 ? tsc_clock : NULL;
    }
    known = -1;
    /* A flags line is about 1.5 KB; a longer one fails the check. */
    char flags[8192], source[64];
    tsc_read_line("/proc/cpuinfo", "flags", flags, (int)sizeof flags);
    tsc_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", "", source,
                  (int)sizeof source);
    if (!tsc_reliable(flags, source))
        return NULL;
    struct tsc_pair a = tsc_pair_now(reference);
    struct timespec nap = {0, TSC_CALIBRATION_NS};
    while (nanosleep(&nap, &nap) != 0 && errno == EINTR)
        ;
    struct tsc_pair b = tsc_pair_now(reference);
    if (tsc_calibrate(a, b, &tsc_scale) < 0)
        return NULL;
    known = 1;
    *hz = 1.0 / tsc_scale.per_tick;
    return tsc_clock;
}

#else

double tsc_clock(void)
{
    return 0;
}

double (*tsc_clock_setup(double (*reference)(void), double *hz))(void)
{
    (void)reference;
    (void)hz;
    return NULL;
}

#endif
