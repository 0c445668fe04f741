/* The timers' clock read from the processor's time-stamp counter
 * (docs/measuring.md, "The clock"): one instruction instead of MPI_Wtime's
 * library call, scaled by a rate calibrated once against MPI_Wtime, used
 * only where the kernel itself keeps time with the counter. The selection
 * and the arithmetic are pure; tsc_clock_setup() reads /proc and /sys. */
#ifndef H5PERF_TSC_H
#define H5PERF_TSC_H

#include <stdbool.h>
#include <stdint.h>

/* A reading of the counter and of the reference clock taken together. */
struct tsc_pair {
    uint64_t ticks;
    double seconds;
};

/* The counter as a clock: seconds = origin.seconds + (ticks -
 * origin.ticks) * per_tick. */
struct tsc_scale {
    struct tsc_pair origin;
    double per_tick; /* seconds */
};

/* Pure. Is the counter a clock on this machine? flags: the "flags" line of
 * /proc/cpuinfo ("flags\t\t: fpu ... constant_tsc ..."); clocksource: the
 * content of /sys/devices/system/clocksource/clocksource0/
 * current_clocksource. True only if the flags hold constant_tsc (a fixed
 * rate whatever the processor's frequency), nonstop_tsc (it runs in every
 * sleep state) and rdtscp (the ordered read tsc_clock() makes), and the
 * kernel keeps time with it ("tsc": it found the counters of all
 * processors in step and watches them). Words match whole. */
bool tsc_reliable(const char *flags, const char *clocksource);

/* Pure. The scale from two pairs, a before b, into *s (its origin: b).
 * Returns 0, or -1 when the counter did not advance or its rate is not
 * between TSC_MIN_HZ and TSC_MAX_HZ (then *s is unchanged). */
#define TSC_MIN_HZ 1e7
#define TSC_MAX_HZ 1e11
int tsc_calibrate(struct tsc_pair a, struct tsc_pair b, struct tsc_scale *s);

/* Pure. The seconds of a reading on the scale; ticks before the origin
 * give seconds before it. */
static inline double tsc_seconds(const struct tsc_scale *s, uint64_t ticks)
{
    int64_t d = (int64_t)(ticks - s->origin.ticks);
    return s->origin.seconds + (double)d * s->per_tick;
}

/* Local, before any timer runs; the first call's answer stands for the
 * process (later calls return it at once). Where this build can read the
 * counter and tsc_reliable() says so from this machine's /proc/cpuinfo
 * and clocksource, calibrates it against reference (MPI_Wtime: its origin
 * and its rate over TSC_CALIBRATION_NS of sleep) and returns tsc_clock(),
 * with its rate in *hz; else NULL (keep reference). */
#define TSC_CALIBRATION_NS 20000000L
double (*tsc_clock_setup(double (*reference)(void), double *hz))(void);

/* Seconds, on tsc_clock_setup()'s scale. */
double tsc_clock(void);

#endif
