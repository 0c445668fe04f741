/* The madbench pattern's own options (docs/madbench.md): MADbench2's
 * parameters, one field per own row of madbench_options.c, which store
 * them in the configuration's madbench pattern_settings (cli/config.h),
 * opaque to every file but the pattern's. Pure. */
#ifndef H5PERF_MADBENCH_OPTIONS_H
#define H5PERF_MADBENCH_OPTIONS_H

#include <stdint.h>

#include "cli/config.h"

/* MADbench2's parameters; 0 until finished: the default. */
struct madbench_settings {
    int pixels;     /* --pixels: NO_PIX, the matrices' side */
    int bins;       /* --bins: NO_BIN, one matrix each */
    int gang;       /* --gangs: NO_GANG, a square dividing the processes and bins */
    int sblock;     /* --scalapack-block: SBLOCKSIZE, rows and columns */
    int64_t fblock; /* --file-block: FBLOCKSIZE, bytes */
    int read_mod;   /* --read-mod: RMOD */
    int write_mod;  /* --write-mod: WMOD */
    double busy;    /* --busy-exponent: BWEXP; < 0: full (MADbench2 without BWEXP) */
    int io_mode;    /* --io-mode: IOMODE, a madbench_io_mode */
    int opens;      /* --opens: a madbench_opens */
};

/* MADbench2's IOMODE: blocking calls, or each read and write started
 * before the next busy work and completed after it (docs/madbench.md,
 * "Asynchronous I/O"). 0: not given, SYNC. */
enum madbench_io_mode { MADBENCH_SYNC = 1, MADBENCH_ASYNC };

/* Each phase opens and closes the file, or the file is opened once
 * before S and closed after C, as MADbench2 does (docs/madbench.md,
 * "Opens"). 0: not given, PER_PHASE. */
enum madbench_opens { MADBENCH_OPENS_PHASE = 1, MADBENCH_OPENS_ONCE };

/* Its settings in s, its pattern_settings. */
static inline const struct madbench_settings *madbench_settings_of(const struct pattern_settings *s)
{
    return (const struct madbench_settings *)(const void *)s->own.bytes;
}

static inline struct madbench_settings *madbench_settings_edit(struct pattern_settings *s)
{
    return (struct madbench_settings *)(void *)s->own.bytes;
}

/* The madbench pattern's pattern_settings in c, and its settings there. */
const struct pattern_settings *madbench_own(const struct config *c);
const struct madbench_settings *madbench_of(const struct config *c);

/* The spelling and raw value of its own row as given in s (NULL: not). */
const char *madbench_spelled(const struct pattern_settings *s, const struct opt_row *row);
const char *madbench_raw(const struct pattern_settings *s, const struct opt_row *row);

/* Its own rows that its refusals name. */
extern const struct opt_row madbench_pixels_row, madbench_bins_row, madbench_gang_row,
    madbench_sblock_row, madbench_fblock_row, madbench_read_mod_row, madbench_write_mod_row,
    madbench_busy_row, madbench_io_mode_row, madbench_opens_row;

#endif
