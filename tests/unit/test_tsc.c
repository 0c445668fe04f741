/* Unit tests of the time-stamp counter clock (engine/tsc.h): which machines
 * it is chosen on, from given /proc/cpuinfo flags and clocksource strings,
 * and its arithmetic, from fixed readings. Never reads a clock. */
#include <math.h>
#include <stdint.h>

#include "../unit/check.h"
#include "engine/tsc.h"

#define FLAGS_OK "flags\t\t: fpu tsc rdtscp constant_tsc nonstop_tsc tsc_known_freq\n"

/* tsc_reliable(): every flag and the kernel's clocksource, words whole. */
static void check_selection(void)
{
    static const struct {
        const char *flags, *source;
        bool reliable;
    } rows[] = {
        {FLAGS_OK, "tsc\n", true},
        {FLAGS_OK, "tsc", true},
        /* The kernel keeps time with something else: it found the
         * counter unfit (or runs on a hypervisor's clock). */
        {FLAGS_OK, "kvm-clock\n", false},
        {FLAGS_OK, "hpet\n", false},
        {FLAGS_OK, "tsc-early\n", false},
        {FLAGS_OK, "\n", false},
        {FLAGS_OK, "", false},
        /* A flag missing. */
        {"flags\t\t: fpu tsc rdtscp nonstop_tsc\n", "tsc\n", false},
        {"flags\t\t: fpu tsc rdtscp constant_tsc\n", "tsc\n", false},
        {"flags\t\t: fpu tsc constant_tsc nonstop_tsc\n", "tsc\n", false},
        /* Only within other words. */
        {"flags\t\t: fpu xconstant_tsc nonstop_tsc_x rdtscp\n", "tsc\n", false},
        {"flags\t\t: constant_tsc nonstop_tscx rdtscp\n", "tsc\n", false},
        {"flags\t\t: fpu xconstant_tsc nonstop_tsc rdtscp\n", "tsc\n", false},
        {"flags\t\t: fpu constant_tsc nonstop_tsc xrdtscp\n", "tsc\n", false},
        /* At the ends of the list. */
        {"flags\t\t: constant_tsc rdtscp nonstop_tsc", "tsc\n", true},
        {"flags: constant_tsc\trdtscp\tnonstop_tsc\n", "tsc\n", true},
        /* Not a flags line (an empty read, another key, no colon). */
        {"", "tsc\n", false},
        {"model name\t: constant_tsc nonstop_tsc rdtscp\n", "tsc\n", false},
        {"flags constant_tsc nonstop_tsc rdtscp\n", "tsc\n", false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool got = tsc_reliable(rows[i].flags, rows[i].source);
        if (got != rows[i].reliable)
            fprintf(stderr, "row %zu: flags '%s' clocksource '%s'\n", i, rows[i].flags,
                    rows[i].source);
        CHECK(got == rows[i].reliable);
    }
    CHECK(!tsc_reliable(NULL, "tsc"));
    CHECK(!tsc_reliable(FLAGS_OK, NULL));
}

/* tsc_calibrate() and tsc_seconds(): a 2.5 GHz counter. */
static void check_arithmetic(void)
{
    struct tsc_scale s = {{0, 0}, 0};
    struct tsc_pair a = {1000000000ull, 100.0}, b = {1050000000ull, 100.02};
    CHECK(tsc_calibrate(a, b, &s) == 0);
    CHECK(fabs(1.0 / s.per_tick - 2.5e9) < 1.0);
    CHECK(s.origin.ticks == b.ticks && s.origin.seconds == b.seconds);
    /* At the origin, its seconds; 2.5e9 ticks later one second later; an
     * hour's ticks, an hour; before the origin, before it. */
    CHECK(tsc_seconds(&s, b.ticks) == 100.02);
    CHECK(fabs(tsc_seconds(&s, b.ticks + 2500000000ull) - 101.02) < 1e-9);
    CHECK(fabs(tsc_seconds(&s, b.ticks + 9000000000000ull) - 3700.02) < 1e-6);
    CHECK(fabs(tsc_seconds(&s, a.ticks) - 100.0) < 1e-9);
    /* The difference of two readings 3750 ticks apart: 1.5 us, to the
     * nanosecond the latency histogram keeps. */
    double d =
        tsc_seconds(&s, b.ticks + 123456789ull + 3750) - tsc_seconds(&s, b.ticks + 123456789ull);
    CHECK_I64((int64_t)(d * 1e9 + 0.5), 1500);
    /* A counter that wraps between origin and reading. */
    struct tsc_scale w = {{UINT64_MAX - 999, 5.0}, 1e-9};
    CHECK(fabs(tsc_seconds(&w, 1000) - (5.0 + 2000e-9)) < 1e-12);

    /* Refused, the scale unchanged: no advance, time going back, a rate
     * out of bounds. */
    struct tsc_scale kept = s;
    CHECK(tsc_calibrate(a, a, &s) == -1);
    CHECK(tsc_calibrate(b, a, &s) == -1);
    CHECK(tsc_calibrate(a, (struct tsc_pair){a.ticks + 10, a.seconds + 1.0}, &s) == -1);
    CHECK(tsc_calibrate(a, (struct tsc_pair){a.ticks + 1000000000ull, a.seconds + 1e-3}, &s) == -1);
    CHECK(tsc_calibrate(a, (struct tsc_pair){a.ticks + 1000, a.seconds}, &s) == -1);
    CHECK(s.per_tick == kept.per_tick && s.origin.ticks == kept.origin.ticks);
    /* The bounds themselves are rates it takes. */
    CHECK(tsc_calibrate(a, (struct tsc_pair){a.ticks + 10000000ull, a.seconds + 1.0}, &s) == 0);
    CHECK(tsc_calibrate(a, (struct tsc_pair){a.ticks + 100000000000ull, a.seconds + 1.0}, &s) == 0);
}

int main(void)
{
    check_selection();
    check_arithmetic();
    return check_done("tsc");
}
