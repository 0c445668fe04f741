/* The reading a pattern's load() is lent on process 0 (pattern/pattern.h,
 * struct pattern_files): whole files, and the dimensions, file attributes
 * and 1D integer variables of HDF5 files and netCDF classic files (through
 * PnetCDF on MPI_COMM_SELF, where the build has it). It reads only what the
 * pattern asks for and never writes. Local (process 0); input_send()
 * then sends what it made to every process. */
#ifndef H5PERF_INPUT_H
#define H5PERF_INPUT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "pattern/pattern.h"

/* The state of one open file: HDF5's or PnetCDF's handle; and of a
 * pattern's parts streamed from process 0 (input_send.c). */
struct input_ctx {
    enum pattern_file_kind kind;
    int64_t hid; /* hid_t of an open HDF5 file, or -1 */
    int ncid;    /* an open netCDF file, or -1 */
    MPI_Comm comm;
    int nprocs;
    int next;           /* the process whose part comes next; -1: no common part sent yet */
    bool broken;        /* the stream cannot go on (a process could not take the common part) */
    unsigned char *own; /* process 0's common part, then its own part */
    size_t common, len; /* the common part's bytes, and own's */
};

/* Local: opens the file at path for reading, never waiting (a FIFO
 * would wait for a writer), and refuses anything but a regular file (a
 * directory, a FIFO, a device) before a byte is read. Returns the
 * descriptor (blocking again), with *st; or -1 with why: the system's
 * reason, or "is not a regular file". input_fopen() is the same as a
 * stream (NULL on failure). */
int input_open_regular(const char *path, struct stat *st, char *why, size_t wlen);
FILE *input_fopen(const char *path, struct stat *st, char *why, size_t wlen);

/* Fills files with the functions, ctx their state. */
void input_files(struct pattern_files *files, struct input_ctx *ctx);

/* Collective (input_send.c): the pattern's input, n bytes that its load()
 * made in *bytes on process 0 (n given on every process), to every
 * process of comm: whole, or, where the pattern has input_parts(), the
 * common part and the process's own part only. On every process *bytes
 * (malloc'd; process 0's replaced) and *len are then what it received.
 * Returns true on every process, or false on every process with m (out
 * of memory, or bytes that do not divide). */
bool input_send(const struct pattern_desc *pd, MPI_Comm comm, int64_t n, unsigned char **bytes,
                size_t *len, struct cli_msg *m);

/* Process 0, before load(): lends files send_common() and send_part()
 * (pattern.h), which stream the pattern's parts to the processes of comm,
 * each waiting in input_receive(). Local until load() calls them. */
void input_stream_lend(struct pattern_files *files, struct input_ctx *ctx, MPI_Comm comm);

/* Process 0, after load() (ok: it returned 0): whether load() streamed
 * (else the caller goes on as without a stream, broadcasting {n, 0}).
 * If it did, the processes still waiting are sent an empty part (ok) or
 * told that the stream ended (not ok), and *bytes and *len become process
 * 0's common and own part. Collective when it returns true. */
bool input_stream_end(struct input_ctx *ctx, bool ok, unsigned char **bytes, size_t *len);

/* Every process but 0, after the broadcast of {n, streamed} that load()'s
 * send_common() or setup made (n: the common part's bytes): the common
 * part and this process's own into *bytes (malloc'd) and *len. Returns
 * true, or false with m (out of memory, or process 0 stopped: its line
 * is the one printed). Collective with process 0's stream. */
bool input_receive(MPI_Comm comm, int64_t n, const char *title, unsigned char **bytes, size_t *len,
                   struct cli_msg *m);

#endif
