/* What HDF5 did with the collective transfers it was asked for: its actual
 * I/O modes and its reasons for not doing collective I/O, as the backend
 * reads them after each transfer, as one process saw them in one phase, and
 * as a run point's phase sums them up over its processes; their names and
 * words for the results and stderr (docs/results.md, "actual_io_mode").
 * Pure: no MPI, no HDF5, no I/O. */
#ifndef H5PERF_IOMODE_H
#define H5PERF_IOMODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* HDF5's H5D_mpio_actual_io_mode_t, with the same values (backend/phdf5.c
 * checks them at compile time), and one for a value this h5perf does not
 * know (a newer HDF5). */
enum io_mode {
    IO_MODE_NO_COLLECTIVE = 0,
    IO_MODE_CHUNK_INDEPENDENT = 1,
    IO_MODE_CHUNK_COLLECTIVE = 2,
    IO_MODE_CHUNK_MIXED = 3,
    IO_MODE_CONTIGUOUS_COLLECTIVE = 4,
    IO_MODE_UNKNOWN = 5,
    IO_MODE_COUNT
};

/* The bits of HDF5's H5D_mpio_no_collective_cause_t, with the same values
 * (checked in backend/phdf5.c): 1.10's, and the one of 1.14 and 2.0 that
 * 1.10 lacks (no selection I/O: docs/results.md); other bits of a newer
 * HDF5 are kept and named by value. */
enum {
    IO_CAUSE_SET_INDEPENDENT = 0x01,
    IO_CAUSE_DATATYPE_CONVERSION = 0x02,
    IO_CAUSE_DATA_TRANSFORMS = 0x04,
    IO_CAUSE_MPI_OPT_TYPES_DISABLED = 0x08,
    IO_CAUSE_NOT_SIMPLE_OR_SCALAR_DATASPACES = 0x10,
    IO_CAUSE_NOT_CONTIGUOUS_OR_CHUNKED_DATASET = 0x20,
    IO_CAUSE_PARALLEL_FILTERED_WRITES_DISABLED = 0x40,
    IO_CAUSE_ERROR_WHILE_CHECKING = 0x80,
    IO_CAUSE_NO_SELECTION_IO = 0x100,
};

/* What one process saw in the collective transfers of one phase. */
struct io_mode_seen {
    int64_t calls;         /* transfers whose mode was read (completed ones) */
    uint32_t modes;        /* 1u << enum io_mode, for every mode reported */
    uint32_t local_cause;  /* IO_CAUSE_* of this process's own requests */
    uint32_t global_cause; /* IO_CAUSE_* over every process, as HDF5 agreed them */
};

/* The backend's record of one completed collective transfer. */
void io_mode_add(struct io_mode_seen *s, enum io_mode mode, uint32_t local_cause,
                 uint32_t global_cause);

/* One phase (write or read) of a run point, over its processes. */
struct io_mode_phase {
    int64_t calls;       /* summed over the processes; 0: no collective transfer completed */
    uint32_t modes;      /* every mode any process reported */
    bool agree;          /* every process that made a call reported the same modes */
    uint32_t cause;      /* the global causes, over every transfer */
    int cause_processes; /* processes whose own requests had a cause */
};

/* "no_collective", "chunk_independent", "chunk_collective", "chunk_mixed",
 * "contiguous_collective", "unknown": HDF5's names in lowercase. */
const char *io_mode_name(enum io_mode m);
/* The one mode of every transfer of the phase on every process, or "mixed"
 * (several were reported), or "none" (no transfer completed). */
const char *io_mode_phase_mode(const struct io_mode_phase *p);
/* Did HDF5 do anything but collective I/O in the phase: a mode other than
 * chunk_collective and contiguous_collective, or a cause? */
bool io_mode_fell_back(const struct io_mode_phase *p);
/* The causes in words, joined by ", ": "datatype conversion, data
 * transforms"; "" for none. Truncated to fit len. */
void io_mode_cause_words(uint32_t cause, char *buf, size_t len);
/* The stderr line (no newline) for a run point of nprocs processes, `what`
 * ("transfer size 1MB", "layout shared"), whose phases p (write, read)
 * fell back, or "" when none did: "h5perf: warning: HDF5 did independent
 * I/O where collective was asked (2 processes, transfer size 1MB, write
 * and read): datatype conversion (on 1 of 2 processes)". */
void io_mode_warning(char *buf, size_t len, const struct io_mode_phase p[2], int nprocs,
                     const char *what);

#endif
