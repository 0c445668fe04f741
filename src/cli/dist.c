/* dist.h: strict scanners for whole numbers and decimal fractions, and the
 * four distributions. */
#include "cli/dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* [s, s+len) is digits only, at most max: into *out. */
static bool dist_whole(const char *s, size_t len, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* s is digits with an optional fraction ("0.25", "3", never "1e3" or
 * ".5"), at most max: into *out. */
static bool dist_decimal(const char *s, double max, double *out)
{
    size_t int_len = strspn(s, "0123456789");
    if (int_len == 0 || int_len > 15)
        return false;
    const char *p = s + int_len;
    if (*p == '.') {
        size_t frac = strspn(p + 1, "0123456789");
        if (frac == 0 || frac > 15)
            return false;
        p += 1 + frac;
    }
    if (*p != '\0')
        return false;
    double v = strtod(s, NULL);
    if (v > max)
        return false;
    *out = v;
    return true;
}

static int dist_list(struct particle_dist *d, int64_t *counts, const char *spelled,
                     const char *value, const char *list, struct cli_msg *msg)
{
    int n = 0;
    for (const char *s = list;; n++) {
        size_t len = strcspn(s, ",");
        uint64_t v;
        if (n == CONFIG_MAX_LIST)
            return cli_fail(msg, "h5perf: %s '%.40s...': at most %d counts (one per process)",
                            spelled, value, CONFIG_MAX_LIST);
        if (!dist_whole(s, len, (uint64_t)PARTICLES_MAX_COUNT, &v))
            return cli_fail(msg,
                            "h5perf: %s '%s': count '%.*s' is not a whole number from 0 to "
                            "%lld",
                            spelled, value, (int)len, s, (long long)PARTICLES_MAX_COUNT);
        counts[n] = (int64_t)v;
        if (s[len] == '\0')
            break;
        s += len + 1;
    }
    d->nlist = n + 1;
    return 0;
}

int dist_value(struct particle_dist *d, int64_t *list, const char *spelled, const char *value,
               struct cli_msg *msg)
{
    const char *colon = strchr(value, ':');
    size_t len = colon ? (size_t)(colon - value) : strlen(value);
    const char *arg = colon ? colon + 1 : NULL;
    if (len == 7 && strncmp(value, "uniform", len) == 0 && !arg) {
        d->kind = DIST_UNIFORM;
        return 0;
    }
    if (len == 9 && strncmp(value, "imbalance", len) == 0 && arg) {
        d->kind = DIST_IMBALANCE;
        if (dist_decimal(arg, 1.0, &d->param))
            return 0;
        return cli_fail(msg, "h5perf: %s '%s': F is a fraction from 0 to 1, e.g. imbalance:0.5",
                        spelled, value);
    }
    if (len == 6 && strncmp(value, "normal", len) == 0 && arg) {
        d->kind = DIST_NORMAL;
        if (dist_decimal(arg, (double)PARTICLES_MAX_COUNT, &d->param))
            return 0;
        return cli_fail(msg,
                        "h5perf: %s '%s': SD is the standard deviation in particles, a number "
                        "from 0 to %lld, e.g. normal:1000",
                        spelled, value, (long long)PARTICLES_MAX_COUNT);
    }
    if (len == 4 && strncmp(value, "list", len) == 0 && arg) {
        d->kind = DIST_LIST;
        return dist_list(d, list, spelled, value, arg, msg);
    }
    return cli_fail(msg,
                    "h5perf: %s '%s': expected uniform, imbalance:F, normal:SD or "
                    "list:n0,n1,... (one count per process)",
                    spelled, value);
}

int dist_seed_value(struct particle_dist *d, const char *spelled, const char *value,
                    struct cli_msg *msg)
{
    uint64_t v;
    if (dist_whole(value, strlen(value), (uint64_t)INT64_MAX, &v)) {
        d->seed = v;
        return 0;
    }
    return cli_fail(msg, "h5perf: %s '%s': expected a whole number from 0 to %lld", spelled, value,
                    (long long)INT64_MAX);
}

int dist_mean_value(struct particle_dist *d, const char *spelled, const char *value,
                    struct cli_msg *msg)
{
    uint64_t v;
    if (dist_whole(value, strlen(value), (uint64_t)PARTICLES_MAX_COUNT, &v) && v > 0) {
        d->mean = (int64_t)v;
        return 0;
    }
    return cli_fail(msg, "h5perf: %s '%s': expected a whole number of particles from 1 to %lld",
                    spelled, value, (long long)PARTICLES_MAX_COUNT);
}

void dist_text(const struct particle_dist *d, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", dist_kind_name(d->kind));
    if (d->kind == DIST_IMBALANCE || d->kind == DIST_NORMAL)
        snprintf(buf + used, len - used, ":%.15g", d->param);
    for (int i = 0; d->kind == DIST_LIST && i < d->nlist && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "," : ":",
                                 (long long)d->list[i]);
}

const char *dist_kind_name(enum particle_dist_kind k)
{
    static const char *const names[] = {"uniform", "imbalance", "normal", "list"};
    return (unsigned)k < 4 ? names[k] : "?";
}
