/* Probes of what a read brought (docs/guarantees.md, "On failure";
 * docs/differences.md, the probes): a read through an API whose library may return from a
 * read without the data and without an error (API_CAP_QUIET_SHORT_READ;
 * HDF5 fills what it missed with zeros, ompio leaves the hole a failed
 * collective write made) is probed: its buffer is poisoned first (outside
 * the timers, as for -D v; every byte the complement of what the file
 * holds, plan.h), and after the read PHASE_PROBES bytes spread over it,
 * its last included, must hold what the file holds. A probe goes to a
 * byte whose value is not zero where one is near, so that zeros are seen.
 * Every read is probed this way: one call per step (phase.c), in a phase
 * that also writes (the madbench pattern's W), a nonblocking read at its
 * wait, and every variable's step of a joined call (phase_join.c). */
#include "engine/phase.h"

#include <inttypes.h>

#define PHASE_PROBE_REACH 16

bool phase_probed(const struct phase_io *io)
{
    /* A phase that writes too poisons its reads' places per variable
     * (fill_per_var: the madbench pattern), never a whole step's buffer,
     * which holds what its writes write. */
    return !io->verify && (io->ops->desc->caps & API_CAP_QUIET_SHORT_READ) &&
           (!phase_writes(io) || io->plan->fill_per_var);
}

void phase_probe_choose(const struct plan_step *s, const unsigned char *buf, struct phase_probes *p)
{
    const unsigned char *b = buf + s->mem_off;
    int64_t stride = s->bytes / PHASE_PROBES + 1;
    p->n = 0;
    for (int64_t end = s->bytes - 1; end >= 0 && p->n < PHASE_PROBES; end -= stride, p->n++) {
        int64_t off = end;
        for (int64_t k = end; k >= 0 && k > end - PHASE_PROBE_REACH && k > end - stride; k--)
            if (b[k] != 0xff) { /* the file holds ~b[k]: not zero */
                off = k;
                break;
            }
        p->at[p->n] = off;
        p->want[p->n] = (unsigned char)~b[off];
    }
}

int phase_probe_check(const struct phase_io *io, const struct plan_step *s,
                      const unsigned char *buf, const struct phase_probes *p, struct err *e)
{
    bool flat = io->ops->desc->caps & API_CAP_FLAT_FILE;
    for (int i = 0; i < p->n; i++) {
        unsigned char got = buf[s->mem_off + p->at[i]];
        if (got == p->want[i])
            continue;
        /* In a flat file (MPI-IO) the data's position is the file's
         * offset; otherwise the library places the data itself, and the
         * position is the data's (the variables one after the other, in
         * C order). */
        int64_t pos = plan_step_file_offset(s, p->at[i]);
        return err_set(e, io->ops->desc->err_name, "read", io->path, flat ? pos : -1,
                       flat ? -1 : s->bytes,
                       "the call reported success, but byte %" PRId64
                       " of the data holds 0x%02x, not the file's 0x%02x (a short read the "
                       "library did not report?)",
                       pos, got, p->want[i]);
    }
    return 0;
}
