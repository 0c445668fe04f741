/* --align-data SIZE[,SIZE...] and --shift BYTES[,BYTES...] (docs/particles.md,
 * "Alignment"): comma-separated sizes, each value once. Pure and local. */
#include "cli/places.h"

#include <string.h>

#include "cli/size.h"

int places_option(struct config *cfg, const struct opt_row *row, const char *spelled,
                  const char *value, struct cli_msg *msg)
{
    enum opt_id id = row->id;
    bool shift = id == OPT_SHIFT;
    int64_t *out = shift ? cfg->shifts : cfg->align_data;
    int *n = shift ? &cfg->nshift : &cfg->nalign;
    *n = 0;
    char item[64];
    for (const char *s = value;;) {
        size_t len = strcspn(s, ","), skip = len;
        if (*n == CONFIG_MAX_PLACES)
            return cli_fail(msg, "h5perf: %s '%s': at most %d values", spelled, value,
                            CONFIG_MAX_PLACES);
        if (len >= sizeof item)
            len = sizeof item - 1;
        memcpy(item, s, len);
        item[len] = '\0';
        int64_t v = 0;
        enum size_status st = size_scan(item, &v);
        if (st != SIZE_OK && !(shift && st == SIZE_ZERO))
            return cli_fail(msg,
                            "h5perf: %s '%s': '%s' is not a size%s (digits with an optional K, "
                            "M or G), e.g. %s",
                            spelled, value, item, shift ? "" : " above 0",
                            shift ? "0,512,4K" : "4K,1M");
        for (int i = 0; i < *n; i++)
            if (out[i] == v)
                return cli_fail(msg, "h5perf: %s '%s': %lld given twice", spelled, value,
                                (long long)v);
        out[(*n)++] = v;
        if (s[skip] == '\0')
            return 0;
        s += skip + 1;
    }
}
