/* The madbench pattern's rows of the option table (cli/option.h): MADbench2's
 * command line (NO_PIX NO_BIN NO_GANG SBLOCKSIZE FBLOCKSIZE RMOD WMOD) and
 * its BWEXP, each one option, and --layout (MADbench2's FILETYPE); how the
 * results echo them. Pure. */
#include <stdlib.h>
#include <string.h>

#include "pattern/app_finish.h"
#include "pattern/madbench.h"
#include "base/jsonw.h"

/* A number from 0 to 1000 (digits, an optional fraction), or "full":
 * MADbench2 without BWEXP. */
static int madbench_busy_option(void *dest, const struct opt_row *row, const char *spelled,
                                const char *value, struct cli_msg *msg)
{
    struct config *cfg = dest;
    (void)row;
    if (strcmp(value, "full") == 0) {
        cfg->madbench.busy = -1;
        return 0;
    }
    size_t digits = strspn(value, "0123456789"), frac = 0;
    if (digits > 0 && value[digits] == '.')
        frac = 1 + strspn(value + digits + 1, "0123456789");
    double x = digits > 0 && digits <= 4 && frac != 1 && value[digits + frac] == '\0'
                   ? strtod(value, NULL)
                   : -1;
    if (x >= 0 && x <= 1000) {
        cfg->madbench.busy = x;
        return 0;
    }
    return cli_fail(msg,
                    "h5perf: %s '%s': expected a number from 0 to 1000 (e.g. 0, 1, 1.5) or "
                    "full",
                    spelled, value);
}

static void madbench_json_busy(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct config *c = src;
    jsonw_key(w, r->json_key);
    if (c->madbench.busy < 0)
        jsonw_string(w, "full");
    else
        jsonw_number(w, c->madbench.busy);
}

static const struct opt_row madbench_pixels =
    OPT_COUNT(OPT_PIXELS, NULL, "--pixels", madbench.pixels,
              .help = "NO_PIX: each matrix is N x N doubles, block-\n"
                      "cyclic over the processes' square grid",
              .dflt = "[1024]", .json_key = "pixels");
static const struct opt_row madbench_bins =
    OPT_COUNT(OPT_BINS, NULL, "--bins", madbench.bins,
              .help = "NO_BIN: the matrices, one dataset or a slot\n"
                      "of the files each",
              .dflt = "[8]", .json_key = "bins");
static const struct opt_row madbench_gang = OPT_COUNT(
    OPT_GANG, NULL, "--gang", madbench.gang, .help = "NO_GANG: 1 only (gangs are not modelled)",
    .dflt = "[1]", .json_key = "gang");
static const struct opt_row madbench_sblock =
    OPT_COUNT(OPT_SCALAPACK_BLOCK, NULL, "--scalapack-block", madbench.sblock,
              .help = "SBLOCKSIZE: rows and columns of the block-\n"
                      "cyclic blocks, which size each share",
              .dflt = "[32]", .json_key = "scalapack_block");
static const struct opt_row madbench_fblock =
    OPT_SIZE(OPT_FILE_BLOCK, NULL, "--file-block", madbench.fblock,
             .help = "FBLOCKSIZE, a multiple of 8: each process's\n"
                     "slot of a matrix is the largest share rounded\n"
                     "up to a multiple of S bytes",
             .dflt = "[8]", .json_key = "file_block");
static const struct opt_row madbench_read_mod =
    OPT_COUNT(OPT_READ_MOD, NULL, "--read-mod", madbench.read_mod,
              .help = "RMOD: only 1 in N processes reads at a time,\n"
                      "a token passed from process to process",
              .dflt = "[1]", .json_key = "read_mod");
static const struct opt_row madbench_write_mod =
    OPT_COUNT(OPT_WRITE_MOD, NULL, "--write-mod", madbench.write_mod,
              .help = "WMOD: the same for writes", .dflt = "[1]", .json_key = "write_mod");
static const struct opt_row madbench_busy = OPT_OTHER(
    OPT_BUSY_EXPONENT, NULL, "--busy-exponent", "X", "a number or full", madbench_busy_option,
    .help = "BWEXP: busy work before each write, between\n"
            "reads: (NO_PIX^2)^X/2P multiply-adds per\n"
            "process; 0: none; full: MADbench2's without\n"
            "BWEXP (NO_PIX^2 in S and C, NO_PIX^3 in W)",
    .dflt = "[0]", .json_key = "busy_exponent", .json = madbench_json_busy);

const struct opt_row *const madbench_rows[] = {
    &madbench_pixels,   &madbench_bins,      &madbench_gang, &madbench_sblock, &madbench_fblock,
    &madbench_read_mod, &madbench_write_mod, &madbench_busy, &app_layout_row,  NULL,
};
