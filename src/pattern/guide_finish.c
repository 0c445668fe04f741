/* The guide's defaults and adjustments after parsing (docs/original.md
 * §1.6): -e, and -x, -X and -B from it; transfer sizes and the block size
 * lowered to what the sweep can use, each with a warning. Its memory and
 * file leads for the checks' messages. Pure. */
#include <stdio.h>

#include "pattern/guide.h"
#include "report/text.h"

#define GUIDE_BYTES_1D INT64_C(262144) /* 256K */
#define GUIDE_BYTES_2D INT64_C(8192)   /* 8K */

/* -e and what defaults to a fraction of it: -X = e, -x = B = e/2, which is
 * 0 for e == 1 and then has to be given explicitly. */
static int fin_bytes(struct config *cfg, struct cli_msg *msg)
{
    int64_t half;
    const char *which;

    if (cfg->bytes == 0)
        cfg->bytes = cfg->geometry_2d ? GUIDE_BYTES_2D : GUIDE_BYTES_1D;
    half = cfg->bytes / 2;
    if (cfg->xfer_max == 0)
        cfg->xfer_max = cfg->bytes;
    if (half == 0 && (cfg->xfer_min == 0 || cfg->block == 0)) {
        which = cfg->xfer_min != 0 ? "-B" : cfg->block != 0 ? "-x" : "-x and -B";
        return cli_fail(msg,
                        "h5perf: %s '%s': half of -e, the default of %s, is 0; "
                        "give %s explicitly",
                        cli_name(cfg, OPT_BYTES, "-e"), cli_raw(cfg, OPT_BYTES), which, which);
    }
    if (cfg->xfer_min == 0)
        cfg->xfer_min = half;
    if (cfg->block == 0)
        cfg->block = half;
    return 0;
}

/* One "<opt> '<raw>' is larger than the bytes per process (e)" warning. */
static void fin_clamp_to_bytes(struct config *cfg, enum opt_id id, const char *short_name,
                               int64_t *field, struct cli_warnings *w)
{
    char e_text[32];

    if (*field <= cfg->bytes)
        return;
    text_size(e_text, sizeof e_text, cfg->bytes);
    cli_warn(w, "%s '%s' is larger than the bytes per process (%s); using %s",
             cli_name(cfg, id, short_name), cli_raw(cfg, id), e_text, e_text);
    *field = cfg->bytes;
}

/* docs/original.md §1.6 steps 4-6: 1D transfer sizes at most e, -x at most -X,
 * B at most e. A default -x above a given -X is lowered silently: the user
 * asked for nothing that was not done. */
static void fin_xfer(struct config *cfg, struct cli_warnings *w)
{
    char x_text[32];

    if (!cfg->geometry_2d) {
        fin_clamp_to_bytes(cfg, OPT_MIN_XFER, "-x", &cfg->xfer_min, w);
        fin_clamp_to_bytes(cfg, OPT_MAX_XFER, "-X", &cfg->xfer_max, w);
    }
    if (cfg->xfer_min > cfg->xfer_max) {
        text_size(x_text, sizeof x_text, cfg->xfer_max);
        if (cfg->spelled[OPT_MIN_XFER] != NULL && cfg->spelled[OPT_MAX_XFER] != NULL)
            cli_warn(w, "%s '%s' is larger than %s '%s'; using %s", cfg->spelled[OPT_MIN_XFER],
                     cli_raw(cfg, OPT_MIN_XFER), cfg->spelled[OPT_MAX_XFER],
                     cli_raw(cfg, OPT_MAX_XFER), x_text);
        else if (cfg->spelled[OPT_MIN_XFER] != NULL)
            cli_warn(w, "%s '%s' is larger than the default -X (%s, equal to -e); using %s",
                     cfg->spelled[OPT_MIN_XFER], cli_raw(cfg, OPT_MIN_XFER), x_text, x_text);
        cfg->xfer_min = cfg->xfer_max;
    }
    fin_clamp_to_bytes(cfg, OPT_BLOCK, "-B", &cfg->block, w);
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
    if (c->spelled[OPT_MAX_XFER])
        n = snprintf(lead, len, "%s '%s'", c->spelled[OPT_MAX_XFER], c->raw[OPT_MAX_XFER]);
    else if (c->spelled[OPT_BYTES])
        n = snprintf(lead, len, "%s '%s' (the default -X)", c->spelled[OPT_BYTES],
                     c->raw[OPT_BYTES]);
    else
        n = snprintf(lead, len, "-X");
    if (!c->geometry_2d || n < 0 || (size_t)n >= len)
        return;
    if (c->spelled[OPT_BLOCK])
        snprintf(lead + n, len - (size_t)n, " with %s '%s'", c->spelled[OPT_BLOCK],
                 c->raw[OPT_BLOCK]);
    else
        snprintf(lead + n, len - (size_t)n, " with the default -B");
}

void guide_file_lead(const struct config *c, char *lead, size_t len)
{
    enum opt_id id = c->spelled[OPT_DSETS] && c->num_dsets > 1 ? OPT_DSETS : OPT_BYTES;
    if (c->spelled[id])
        snprintf(lead, len, "%s '%s'", c->spelled[id], c->raw[id]);
    else
        snprintf(lead, len, "-e");
}
