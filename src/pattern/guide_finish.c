/* The guide's defaults and adjustments after parsing (docs/original.md
 * §1.6): -e, and -x, -X and -B from it; transfer sizes and the block size
 * lowered to what the sweep can use, each with a warning; -d and -F 1. Its
 * memory and file leads for the checks' messages. Pure. */
#include <stdio.h>

#include "pattern/guide.h"
#include "pattern/guide_options.h"
#include "report/text.h"

#define GUIDE_BYTES_1D INT64_C(262144) /* 256K */
#define GUIDE_BYTES_2D INT64_C(8192)   /* 8K */

/* How the guide's own row was spelled, or its letter; its raw value or "". */
static const char *fin_name(const struct config *c, const struct opt_row *row)
{
    const char *spelled = guide_spelled(c, row);
    return spelled != NULL ? spelled : row->short_name;
}

static const char *fin_raw(const struct config *c, const struct opt_row *row)
{
    const char *raw = guide_raw(c, row);
    return raw != NULL ? raw : "";
}

/* -e and what defaults to a fraction of it: -X = e, -x = B = e/2, which is
 * 0 for e == 1 and then has to be given explicitly; -d and -F 1. */
static int fin_bytes(struct config *cfg, struct cli_msg *msg)
{
    struct guide_settings *g = guide_edit(cfg);
    int64_t half;
    const char *which;

    if (g->num_dsets == 0)
        g->num_dsets = 1;
    if (g->num_files == 0)
        g->num_files = 1;
    if (g->bytes == 0)
        g->bytes = g->geometry_2d ? GUIDE_BYTES_2D : GUIDE_BYTES_1D;
    half = g->bytes / 2;
    if (g->xfer_max == 0)
        g->xfer_max = g->bytes;
    if (half == 0 && (g->xfer_min == 0 || g->block == 0)) {
        which = g->xfer_min != 0 ? "-B" : g->block != 0 ? "-x" : "-x and -B";
        return cli_fail(msg,
                        "h5perf: %s '%s': half of -e, the default of %s, is 0; "
                        "give %s explicitly",
                        fin_name(cfg, &guide_bytes_row), fin_raw(cfg, &guide_bytes_row), which,
                        which);
    }
    if (g->xfer_min == 0)
        g->xfer_min = half;
    if (g->block == 0)
        g->block = half;
    return 0;
}

/* One "<opt> '<raw>' is larger than the bytes per process (e)" warning. */
static void fin_clamp_to_bytes(struct config *cfg, const struct opt_row *row, int64_t *field,
                               struct cli_warnings *w)
{
    char e_text[32];
    int64_t bytes = guide_of(cfg)->bytes;

    if (*field <= bytes)
        return;
    text_size(e_text, sizeof e_text, bytes);
    cli_warn(w, "%s '%s' is larger than the bytes per process (%s); using %s", fin_name(cfg, row),
             fin_raw(cfg, row), e_text, e_text);
    *field = bytes;
}

/* docs/original.md §1.6 steps 4-6: 1D transfer sizes at most e, -x at most -X,
 * B at most e. A default -x above a given -X is lowered silently: the user
 * asked for nothing that was not done. */
static void fin_xfer(struct config *cfg, struct cli_warnings *w)
{
    struct guide_settings *g = guide_edit(cfg);
    const char *min_spelled = guide_spelled(cfg, &guide_min_xfer_row);
    const char *max_spelled = guide_spelled(cfg, &guide_max_xfer_row);
    char x_text[32];

    if (!g->geometry_2d) {
        fin_clamp_to_bytes(cfg, &guide_min_xfer_row, &g->xfer_min, w);
        fin_clamp_to_bytes(cfg, &guide_max_xfer_row, &g->xfer_max, w);
    }
    if (g->xfer_min > g->xfer_max) {
        text_size(x_text, sizeof x_text, g->xfer_max);
        if (min_spelled != NULL && max_spelled != NULL)
            cli_warn(w, "%s '%s' is larger than %s '%s'; using %s", min_spelled,
                     fin_raw(cfg, &guide_min_xfer_row), max_spelled,
                     fin_raw(cfg, &guide_max_xfer_row), x_text);
        else if (min_spelled != NULL)
            cli_warn(w, "%s '%s' is larger than the default -X (%s, equal to -e); using %s",
                     min_spelled, fin_raw(cfg, &guide_min_xfer_row), x_text, x_text);
        g->xfer_min = g->xfer_max;
    }
    fin_clamp_to_bytes(cfg, &guide_block_row, &g->block, w);
}

int guide_finish(struct config *c, int world_size, struct cli_warnings *w, struct cli_msg *m)
{
    (void)world_size;
    if (fin_bytes(c, m) != 0)
        return -1;
    fin_xfer(c, w);
    return 0;
}

void guide_memory_lead(const struct config *c, int nprocs, char *lead, size_t len)
{
    int n;
    (void)nprocs;
    if (guide_spelled(c, &guide_max_xfer_row))
        n = snprintf(lead, len, "%s '%s'", guide_spelled(c, &guide_max_xfer_row),
                     guide_raw(c, &guide_max_xfer_row));
    else if (guide_spelled(c, &guide_bytes_row))
        n = snprintf(lead, len, "%s '%s' (the default -X)", guide_spelled(c, &guide_bytes_row),
                     guide_raw(c, &guide_bytes_row));
    else
        n = snprintf(lead, len, "-X");
    if (!guide_of(c)->geometry_2d || n < 0 || (size_t)n >= len)
        return;
    if (guide_spelled(c, &guide_block_row))
        snprintf(lead + n, len - (size_t)n, " with %s '%s'", guide_spelled(c, &guide_block_row),
                 guide_raw(c, &guide_block_row));
    else
        snprintf(lead + n, len - (size_t)n, " with the default -B");
}

void guide_file_lead(const struct config *c, char *lead, size_t len)
{
    const struct opt_row *row = guide_spelled(c, &guide_dsets_row) && guide_of(c)->num_dsets > 1
                                    ? &guide_dsets_row
                                    : &guide_bytes_row;
    if (guide_spelled(c, row))
        snprintf(lead, len, "%s '%s'", guide_spelled(c, row), guide_raw(c, row));
    else
        snprintf(lead, len, "-e");
}

int guide_files(const struct config *c)
{
    return guide_of(c)->num_files;
}
