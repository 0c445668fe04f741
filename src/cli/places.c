/* --align-data SIZE[,SIZE...] and --shift BYTES[,BYTES...] (docs/particles.md,
 * "Alignment"), --buffer-offset BYTES[,BYTES...] (docs/performance.md, "Buffer
 * offset"): comma-separated sizes, each value once. Pure and local. */
#include "cli/places.h"

#include <string.h>

#include "cli/size.h"

int places_option(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                  struct cli_msg *msg)
{
    struct config *cfg = dest;
    enum opt_id id = row->id;
    bool buffer = id == OPT_BUFFER_OFFSET, shift = id == OPT_SHIFT || buffer;
    int64_t *out = buffer ? cfg->buf_offsets : id == OPT_SHIFT ? cfg->shifts : cfg->align_data;
    int *n = buffer ? &cfg->nbuf_offset : id == OPT_SHIFT ? &cfg->nshift : &cfg->nalign;
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
                            buffer  ? "0,8,100"
                            : shift ? "0,512,4K"
                                    : "4K,1M");
        if (buffer && v >= PLACES_PAGE)
            return cli_fail(msg,
                            "h5perf: %s '%s': %lld is not below %d (bytes past a page "
                            "boundary)",
                            spelled, value, (long long)v, PLACES_PAGE);
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
