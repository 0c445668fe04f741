/* Names and words of base/iomode.h, the record of a transfer and the
 * stderr line. Pure: no MPI, no HDF5, no I/O. */
#include "base/iomode.h"

#include <stdio.h>

void io_mode_add(struct io_mode_seen *s, enum io_mode mode, uint32_t local_cause,
                 uint32_t global_cause)
{
    if ((int)mode < 0 || mode >= IO_MODE_COUNT)
        mode = IO_MODE_UNKNOWN;
    s->calls++;
    s->modes |= 1u << mode;
    s->local_cause |= local_cause;
    s->global_cause |= global_cause;
}

const char *io_mode_name(enum io_mode m)
{
    static const char *const names[IO_MODE_COUNT] = {"no_collective",         "chunk_independent",
                                                     "chunk_collective",      "chunk_mixed",
                                                     "contiguous_collective", "unknown"};
    return (int)m >= 0 && m < IO_MODE_COUNT ? names[m] : "unknown";
}

const char *io_mode_phase_mode(const struct io_mode_phase *p)
{
    if (p->calls == 0 || p->modes == 0)
        return "none";
    if (p->modes & (p->modes - 1))
        return "mixed";
    for (int m = 0; m < IO_MODE_COUNT; m++)
        if (p->modes == 1u << m)
            return io_mode_name((enum io_mode)m);
    return "unknown";
}

bool io_mode_fell_back(const struct io_mode_phase *p)
{
    uint32_t collective = 1u << IO_MODE_CHUNK_COLLECTIVE | 1u << IO_MODE_CONTIGUOUS_COLLECTIVE;
    return p->calls > 0 && ((p->modes & ~collective) != 0 || p->cause != 0);
}

void io_mode_cause_words(uint32_t cause, char *buf, size_t len)
{
    /* HDF5's own descriptions of the bits (H5Ppublic.h), shortened. */
    static const struct {
        uint32_t bit;
        const char *words;
    } causes[] = {
        {IO_CAUSE_SET_INDEPENDENT, "independent I/O was set"},
        {IO_CAUSE_DATATYPE_CONVERSION, "datatype conversion"},
        {IO_CAUSE_DATA_TRANSFORMS, "data transforms"},
        {IO_CAUSE_MPI_OPT_TYPES_DISABLED, "MPI derived types disabled (HDF5_MPI_OPT_TYPES)"},
        {IO_CAUSE_NOT_SIMPLE_OR_SCALAR_DATASPACES, "not simple or scalar dataspaces"},
        {IO_CAUSE_NOT_CONTIGUOUS_OR_CHUNKED_DATASET, "not contiguous or chunked dataset"},
        {IO_CAUSE_PARALLEL_FILTERED_WRITES_DISABLED, "parallel filtered writes disabled"},
        {IO_CAUSE_ERROR_WHILE_CHECKING, "error while checking whether collective I/O is possible"},
        {IO_CAUSE_NO_SELECTION_IO, "selection or vector I/O disabled"},
    };
    size_t used = 0;
    if (len > 0)
        buf[0] = '\0';
    for (int b = 0; b < 32 && used < len; b++) {
        uint32_t bit = 1u << b;
        if (!(cause & bit))
            continue;
        const char *words = NULL;
        for (size_t i = 0; i < sizeof causes / sizeof causes[0]; i++)
            if (causes[i].bit == bit)
                words = causes[i].words;
        int n = words ? snprintf(buf + used, len - used, "%s%s", used ? ", " : "", words)
                      : snprintf(buf + used, len - used, "%sunknown cause 0x%x", used ? ", " : "",
                                 (unsigned)bit);
        used += n > 0 ? (size_t)n : 0;
    }
}

void io_mode_warning(char *buf, size_t len, const struct io_mode_phase p[2], int nprocs,
                     const char *what)
{
    bool w = io_mode_fell_back(&p[0]), r = io_mode_fell_back(&p[1]);
    if (len > 0)
        buf[0] = '\0';
    if (!w && !r)
        return;
    uint32_t cause = (w ? p[0].cause : 0) | (r ? p[1].cause : 0);
    int with_cause = 0;
    bool agree = true;
    for (int i = 0; i < 2; i++)
        if (i == 0 ? w : r) {
            with_cause = p[i].cause_processes > with_cause ? p[i].cause_processes : with_cause;
            agree = agree && p[i].agree;
        }
    char words[256], on[64] = "";
    io_mode_cause_words(cause, words, sizeof words);
    if (!cause)
        snprintf(words, sizeof words, "HDF5 gave no cause (mode %s)",
                 io_mode_phase_mode(w ? &p[0] : &p[1]));
    /* HDF5 falls back on every process when one cannot do collective I/O. */
    if (cause && with_cause < nprocs)
        snprintf(on, sizeof on, " (on %d of %d processes)", with_cause, nprocs);
    snprintf(buf, len,
             "h5perf: warning: HDF5 did independent I/O where collective was asked (%d process%s, "
             "%s, %s): %s%s%s",
             nprocs, nprocs == 1 ? "" : "es", what,
             w && r ? "write and read"
             : w    ? "write"
                    : "read",
             words, on, agree ? "" : "; the processes reported different modes");
}
