/* The madbench pattern's rows of the option table (cli/option.h): MADbench2's
 * command line (NO_PIX NO_BIN NO_GANG SBLOCKSIZE FBLOCKSIZE RMOD WMOD) and
 * its BWEXP, each one option of its own settings (madbench_options.h), and
 * --layout (MADbench2's FILETYPE), which it shares; how the results echo
 * them. Pure. */
#include <stdlib.h>
#include <string.h>

#include "pattern/app_options.h"
#include "pattern/madbench.h"
#include "pattern/madbench_options.h"
#include "base/jsonw.h"

_Static_assert(sizeof(struct madbench_settings) <= PATTERN_SETTINGS_BYTES,
               "cli/config.h: PATTERN_SETTINGS_BYTES");

const struct pattern_settings *madbench_own(const struct config *c)
{
    return pattern_settings_of(c, &pattern_madbench);
}

const struct madbench_settings *madbench_of(const struct config *c)
{
    return madbench_settings_of(madbench_own(c));
}

const char *madbench_spelled(const struct pattern_settings *s, const struct opt_row *row)
{
    return pattern_row_spelled(s, &pattern_madbench, row);
}

const char *madbench_raw(const struct pattern_settings *s, const struct opt_row *row)
{
    return pattern_row_raw(s, &pattern_madbench, row);
}

/* A number from 0 to 1000 (digits, an optional fraction), or "full":
 * MADbench2 without BWEXP. */
static int madbench_busy_option(void *dest, const struct opt_row *row, const char *spelled,
                                const char *value, struct cli_msg *msg)
{
    struct madbench_settings *s = dest;
    (void)row;
    if (strcmp(value, "full") == 0) {
        s->busy = -1;
        return 0;
    }
    size_t digits = strspn(value, "0123456789"), frac = 0;
    if (digits > 0 && value[digits] == '.')
        frac = 1 + strspn(value + digits + 1, "0123456789");
    double x = digits > 0 && digits <= 4 && frac != 1 && value[digits + frac] == '\0'
                   ? strtod(value, NULL)
                   : -1;
    if (x >= 0 && x <= 1000) {
        s->busy = x;
        return 0;
    }
    return cli_fail(msg,
                    "h5perf: %s '%s': expected a number from 0 to 1000 (e.g. 0, 1, 1.5) or "
                    "full",
                    spelled, value);
}

static void madbench_json_busy(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct madbench_settings *s = src;
    jsonw_key(w, r->json_key);
    if (s->busy < 0)
        jsonw_string(w, "full");
    else
        jsonw_number(w, s->busy);
}

/* sync or async: MADbench2's IOMODE (its NONE, no I/O, has no
 * equivalent). */
static int madbench_io_mode_option(void *dest, const struct opt_row *row, const char *spelled,
                                   const char *value, struct cli_msg *msg)
{
    struct madbench_settings *s = dest;
    (void)row;
    if (strcmp(value, "sync") == 0 || strcmp(value, "async") == 0) {
        s->io_mode = value[0] == 'a' ? MADBENCH_ASYNC : MADBENCH_SYNC;
        return 0;
    }
    return cli_fail(msg, "h5perf: %s '%s': expected sync or async (MADbench2's IOMODE)", spelled,
                    value);
}

/* Only the asynchronous mode: the blocking mode's results are those of
 * the runs before the option. */
static void madbench_json_io_mode(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct madbench_settings *s = src;
    if (s->io_mode != MADBENCH_ASYNC)
        return;
    jsonw_key(w, r->json_key);
    jsonw_string(w, "async");
}

/* phase or once: the file's opens (MADbench2 opens it once). */
static int madbench_opens_option(void *dest, const struct opt_row *row, const char *spelled,
                                 const char *value, struct cli_msg *msg)
{
    struct madbench_settings *s = dest;
    (void)row;
    if (strcmp(value, "phase") == 0 || strcmp(value, "once") == 0) {
        s->opens = value[0] == 'o' ? MADBENCH_OPENS_ONCE : MADBENCH_OPENS_PHASE;
        return 0;
    }
    return cli_fail(msg, "h5perf: %s '%s': expected phase or once", spelled, value);
}

/* Only once: the runs before the option opened at each phase. */
static void madbench_json_opens(struct jsonw *w, const void *src, const struct opt_row *r)
{
    const struct madbench_settings *s = src;
    if (s->opens != MADBENCH_OPENS_ONCE)
        return;
    jsonw_key(w, r->json_key);
    jsonw_string(w, "once");
}

const struct opt_row madbench_pixels_row =
    OPT_PATTERN_COUNT(struct madbench_settings, "--pixels", pixels,
                      .help = "NO_PIX: each matrix is N x N doubles, block-\n"
                              "cyclic over the processes' square grid",
                      .dflt = "[1024]", .json_key = "pixels");
const struct opt_row madbench_bins_row =
    OPT_PATTERN_COUNT(struct madbench_settings, "--bins", bins,
                      .help = "NO_BIN: the matrices, one dataset or a slot\n"
                              "of the files each",
                      .dflt = "[8]", .json_key = "bins");
const struct opt_row madbench_gang_row =
    OPT_PATTERN_COUNT(struct madbench_settings, "--gangs", gang,
                      .help = "NO_GANG: gangs of processes, a square that\n"
                              "divides the processes and --bins; W deals\n"
                              "the bins out to them",
                      .dflt = "[1]", .json_key = "gang");
const struct opt_row madbench_sblock_row =
    OPT_PATTERN_COUNT(struct madbench_settings, "--scalapack-block", sblock,
                      .help = "SBLOCKSIZE: rows and columns of the block-\n"
                              "cyclic blocks, which size each share",
                      .dflt = "[32]", .json_key = "scalapack_block");
const struct opt_row madbench_fblock_row =
    OPT_PATTERN_SIZE(struct madbench_settings, "--file-block", fblock,
                     .help = "FBLOCKSIZE, a multiple of 8: each process's\n"
                             "slot of a matrix is the largest share rounded\n"
                             "up to a multiple of S bytes",
                     .dflt = "[8]", .json_key = "file_block");
const struct opt_row madbench_read_mod_row =
    OPT_PATTERN_COUNT(struct madbench_settings, "--read-mod", read_mod,
                      .help = "RMOD: only 1 in N processes reads at a time,\n"
                              "a token passed from process to process",
                      .dflt = "[1]", .json_key = "read_mod");
const struct opt_row madbench_write_mod_row =
    OPT_PATTERN_COUNT(struct madbench_settings, "--write-mod", write_mod,
                      .help = "WMOD: the same for writes", .dflt = "[1]", .json_key = "write_mod");
const struct opt_row madbench_busy_row =
    OPT_PATTERN_OTHER("--busy-exponent", "X", "a number or full", madbench_busy_option,
                      .help = "BWEXP: busy work before each write, between\n"
                              "reads: (NO_PIX^2)^X/2P multiply-adds per\n"
                              "process; 0: none; full: MADbench2's without\n"
                              "BWEXP (NO_PIX^2 in S and C, NO_PIX^3 in W)",
                      .dflt = "[0]", .json_key = "busy_exponent", .json = madbench_json_busy);

const struct opt_row madbench_io_mode_row =
    OPT_PATTERN_OTHER("--io-mode", "M", "sync or async", madbench_io_mode_option,
                      .help = "IOMODE: sync, blocking calls; async, each read\n"
                              "and write started before the next busy work\n"
                              "and completed after it (MPI-IO, PnetCDF)",
                      .dflt = "[sync]", .json_key = "io_mode", .json = madbench_json_io_mode);

const struct opt_row madbench_opens_row =
    OPT_PATTERN_OTHER("--opens", "M", "phase or once", madbench_opens_option,
                      .help = "phase: each phase (S, W, C) opens and closes\n"
                              "the file; once: opened before S and closed\n"
                              "after C, as MADbench2 does",
                      .dflt = "[phase]", .json_key = "opens", .json = madbench_json_opens);

const struct opt_row *const madbench_rows[] = {
    &madbench_pixels_row,  &madbench_bins_row,     &madbench_gang_row,      &madbench_sblock_row,
    &madbench_fblock_row,  &madbench_read_mod_row, &madbench_write_mod_row, &madbench_busy_row,
    &madbench_io_mode_row, &madbench_opens_row,    &app_layout_row,         NULL,
};
