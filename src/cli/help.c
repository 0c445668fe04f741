/* The help text of -h/--help: our own (not HDF5's), listing every option of
 * opt.c with its value and default, the environment and the exit statuses.
 * A table (cli/help.h) that help_print() lays out in two columns and that
 * the man page is generated from (src/cli/help_man.c). Keep it in step with
 * opt.c, finish.c and env.c; printed lines stay under 80 columns. It only
 * writes to the stream it is given. */
#include "cli/help.h"

#include <string.h>

#include "api/api.h"
#include "cli/cli.h"
#include "exit_status.h"

/* Where the descriptions start: column 29 for options, 19 for variables. */
#define HELP_OPTION_COLUMN 29
#define HELP_ENV_COLUMN    19

const struct help_item help_items[] = {
    {HELP_PARA, NULL,
     "Measures the parallel write and read throughput of POSIX, MPI-IO,\n"
     "parallel HDF5 and PnetCDF (where built in) for a sweep of process counts\n"
     "(halving from -P down to -p) and transfer sizes (doubling from -x up to\n"
     "-X); with --pattern block, of an N-dimensional array decomposed in blocks\n"
     "over the processes; with --pattern particles, of particle arrays with\n"
     "uneven counts per process."},
    {HELP_PARA, NULL,
     "S is a size in bytes: digits with an optional K, M or G (x1024, x1048576,\n"
     "x1073741824) and an optional B, e.g. 512, 64K, 256KB, 1m; it must be above\n"
     "0 and below 2^63. N is a whole number from 1 to 2147483647.\n"
     "Long options take their value as --name=V or --name V; short options as\n"
     "-xV or -x V. Short flags combine (-wIC). The last occurrence of an option\n"
     "wins, except that -A and -D add up."},
    {HELP_HEADING, NULL, "Options:"},
    {HELP_OPTION, "-h, --help", "print this help and exit"},
    {HELP_OPTION, "--version",
     "print the versions of h5perf, its commit, HDF5,\n"
     "MPI and each API's library, and exit"},
    {HELP_OPTION, "-A, --api=LIST",
     "the APIs to run, comma-separated, any case:\n"
     "posix, mpiio, phdf5, pnetcdf (when this build\n"
     "includes PnetCDF: \"APIs in this build\" below)\n"
     "[posix, mpiio, phdf5]"},
    {HELP_OPTION, "-e, --num-bytes=S",
     "bytes per process per dataset; with -g the\n"
     "dataset is a square of side -e x processes\n"
     "[256K; 8K with -g]"},
    {HELP_OPTION, "-x, --min-xfer-size=S", "smallest transfer size [half of -e]"},
    {HELP_OPTION, "-X, --max-xfer-size=S", "largest transfer size [-e]"},
    {HELP_OPTION, "-B, --block-size=S",
     "block size, a divisor of every transfer size\n"
     "[half of -e]"},
    {HELP_OPTION, "-I, --interleaved",
     "interleaved blocks of the processes\n"
     "[contiguous]"},
    {HELP_OPTION, "-c, --chunk",
     "chunked HDF5 datasets of -B bytes\n"
     "[contiguous]"},
    {HELP_OPTION, "-C, --collective",
     "collective MPI-IO, HDF5 and PnetCDF I/O\n"
     "[independent]"},
    {HELP_OPTION, "-d, --num-dsets=N", "datasets per file [1]"},
    {HELP_OPTION, "-F, --num-files=N", "files per run [1]"},
    {HELP_OPTION, "-i, --num-iterations=N", "iterations of each run [1]"},
    {HELP_OPTION, "-p, --min-num-processes=N", "smallest process count [1]"},
    {HELP_OPTION, "-P, --max-num-processes=N",
     "largest process count, at most the processes\n"
     "started [the processes started]"},
    {HELP_OPTION, "-w, --write-only", "skip the read phase"},
    {HELP_OPTION, "-a, --align=S",
     "HDF5 alignment (H5Pset_alignment); PnetCDF's\n"
     "nc_var_align_size, at most 1G with pnetcdf [1]"},
    {HELP_OPTION, "-T, --threshold=S", "HDF5 alignment threshold [1]"},
    {HELP_OPTION, "-o, --output=FILE",
     "write the report to FILE, replacing it; never\n"
     "a data file of the run [standard output]"},
    {HELP_OPTION, "-D, --debug=LIST",
     "comma-separated: a level 0-4 (1: parameters\n"
     "and file names from every process, 3: times\n"
     "of each iteration, 4: timer details; above 4\n"
     "means 4), r (raw data throughput), t (times),\n"
     "v (verify the data read) [0]"},
    {HELP_OPTION, "--overwrite",
     "replace data files that exist already (an\n"
     "earlier run with HDF5_NOCLEANUP leaves some);\n"
     "only regular files of yours with one link,\n"
     "nothing mounted on them"},
    {HELP_OPTION, "--read-only",
     "only read (and with -D v verify) the data files\n"
     "an earlier run with the same options and\n"
     "HDF5_NOCLEANUP left; they are not removed"},
    {HELP_OPTION, "--watchdog=N",
     "seconds a process that failed waits for the\n"
     "others to agree before it aborts the job; a\n"
     "library call stuck for twice N (plus 1 s per\n"
     "MiB it moves) aborts it too [120]"},
    {HELP_OPTION, "--format=F",
     "the report on standard output (or -o): text\n"
     "(the original's layout), json or csv [text]"},
    {HELP_OPTION, "--results=FILE",
     "also write every sample to FILE, as JSON or CSV\n"
     "by its extension (.json, .csv), replacing it;\n"
     "never the report or a data file"},
    {HELP_OPTION, "--progress", "print what runs and the time left to stderr"},
    {HELP_OPTION, "--overhead",
     "end the text report with the throughput ratios\n"
     "HDF5/MPI-IO and MPI-IO/POSIX"},
    {HELP_OPTION, "--fsync",
     "flush each file to storage before it is closed\n"
     "after writing (in the open-close time)"},
    {HELP_OPTION, "--direct",
     "POSIX with O_DIRECT, bypassing the page cache;\n"
     "-e and -B must be multiples of 4K"},
    {HELP_OPTION, "--read-shift=N",
     "process r reads the data process (r+N) mod P\n"
     "wrote, so that with processes on several hosts\n"
     "reads do not come from the writer's cache"},
    {HELP_OPTION, "--no-memory-check",
     "allocate the transfer buffers even where they\n"
     "exceed the memory available on a host (or in\n"
     "its memory cgroup) [refuse]"},
    {HELP_OPTION, "-g, --geometry",
     "2D geometry: square datasets of side -e times\n"
     "the processes, blocks of -B x -B, transfer\n"
     "buffers of -B x transfer size (-I: transfer\n"
     "size x -B); -c stores -B x -B chunks [1D]"},
    {HELP_OPTION, "-m, --mpi-posix",
     "refused: the MPI-POSIX driver was removed from\n"
     "HDF5 in 1.8.13"},
    {HELP_PARA, NULL,
     "The block pattern takes -A, -C, -i, -p, -P, -w, -a, -T, -o, -D v and the\n"
     "long options above but --direct, --read-shift and --overhead (its report\n"
     "always has the ratios):"},
    {HELP_OPTION, "--pattern=P",
     "guide (the options above), block or particles\n"
     "[guide]"},
    {HELP_OPTION, "--global=DIMS",
     "the array, 1 to 3 dimensions in elements,\n"
     "slowest first: 1024, 512x512, 256x256x256"},
    {HELP_OPTION, "--grid=DIMS",
     "the process grid, as many dimensions as\n"
     "--global; it fixes the process count\n"
     "[MPI_Dims_create at each process count]"},
    {HELP_OPTION, "--element-size=N", "bytes per element: 1, 2, 4 or 8 [8]"},
    {HELP_OPTION, "--vars=N", "variables (arrays of --global) per file [1]"},
    {HELP_OPTION, "--layout=LIST",
     "comma-separated: shared (one array in C\n"
     "order), chunked (one array, each block a\n"
     "chunk, stored block after block), fpp (a\n"
     "file per process) [all three]"},
    {HELP_OPTION, "--read-grid=DIMS",
     "read the shared file back with this grid, of\n"
     "as many processes as --grid [--grid]"},
    {HELP_PARA, NULL,
     "The particles pattern takes the same options as the block pattern but\n"
     "--global, --grid, --element-size and --read-grid; its variables are\n"
     "VPIC-IO's x, y, z, px, py, pz (32-bit floats), id_1 (32-bit integers) and\n"
     "id_2 (floats), and --vars takes the first N of them [8]; --layout is\n"
     "shared or fpp [both]:"},
    {HELP_OPTION, "--particles=N",
     "the mean count per process, at most 2^40\n"
     "[1048576]"},
    {HELP_OPTION, "--distribution=D",
     "the counts per process: uniform (N each),\n"
     "imbalance:F (from (1-F)N to (1+F)N, F from\n"
     "0 to 1), normal:SD (drawn around N, SD in\n"
     "particles, below zero counts 0), list:n0,n1,...\n"
     "(one count per process; it fixes the process\n"
     "count) [uniform]"},
    {HELP_OPTION, "--seed=N", "the draw of normal:SD, 0 to 2^63-1 [1]"},
    {HELP_PARA, NULL,
     "Both patterns place the data of their shared POSIX and MPI-IO files\n"
     "(HDF5 and the files per process run once, packed):"},
    {HELP_OPTION, "--align-data=LIST",
     "sizes, each in turn: every variable, and each\n"
     "process's particles (each block of the\n"
     "chunked layout), from a multiple of it [packed]"},
    {HELP_OPTION, "--shift=LIST",
     "bytes, each in turn, added to every offset\n"
     "(unaligned on purpose) [0]"},
    {HELP_OPTION, "--transfer-size=S",
     "each call moves at most S bytes (whole\n"
     "elements) of a process's part of a variable,\n"
     "in its C order [the whole part in one call]"},
    {HELP_PARA, NULL,
     "A transfer size must be a multiple of -B and must divide -e (in 2D: the\n"
     "dataset side, and -B must divide -e). Transfer sizes above -e (1D), -x\n"
     "above -X, -B above -e and -p above -P are lowered with a warning."},
    {HELP_HEADING, NULL, "Environment:"},
    {HELP_ENV, "HDF5_PARAPREFIX",
     "directory of the data files; a subdirectory named after\n"
     "$USER (or $LOGIN) is created in it [current directory]"},
    {HELP_ENV, "HDF5_NOCLEANUP", "if set, even to nothing, the data files are kept"},
    {HELP_ENV, "HDF5_MPI_INFO",
     "MPI-IO hints key=value;key=value, given to MPI-IO,\n"
     "HDF5 and PnetCDF (blanks around keys and values are\n"
     "ignored)"},
};

const int help_item_count = (int)(sizeof help_items / sizeof help_items[0]);

const struct help_status help_statuses[] = {
    {EXIT_OK, "every run succeeded"},
    {EXIT_RUN_FAILED, "a run failed: an I/O error or a data verification mismatch"},
    {EXIT_USAGE, "bad usage, input or environment; no data file was created"},
    {EXIT_SIGNAL_BASE, "ended by signal n, after removing the data files it created"},
};

const int help_status_count = (int)(sizeof help_statuses / sizeof help_statuses[0]);

void help_print_apis(FILE *out)
{
    for (int a = 0; a < API_COUNT; a++)
        if (api_built((enum api_id)a))
            fprintf(out, " %s", api_descs[a].key);
}

/* Each line of text; the first after the term padded to column, the others
 * indented to it. A long-only option's term is indented by four more, under
 * the long names of the options with a short one. */
static void help_print_term(FILE *out, const char *term, const char *text, int column)
{
    int indent = term[0] == '-' && term[1] == '-' ? 6 : 2;
    fprintf(out, "%*s%-*s", indent, "", column - indent, term);
    for (const char *p = text;;) {
        size_t n = strcspn(p, "\n");
        fprintf(out, "%.*s\n", (int)n, p);
        if (p[n] == '\0')
            return;
        p += n + 1;
        fprintf(out, "%*s", column, "");
    }
}

void help_print(FILE *out)
{
    fprintf(out, "%s\n", HELP_USAGE);
    for (int i = 0; i < help_item_count; i++) {
        const struct help_item *it = &help_items[i];
        if (it->kind == HELP_OPTION)
            help_print_term(out, it->term, it->text, HELP_OPTION_COLUMN);
        else if (it->kind == HELP_ENV)
            help_print_term(out, it->term, it->text, HELP_ENV_COLUMN);
        else
            fprintf(out, "\n%s\n", it->text);
    }
    fprintf(out, "\nAPIs in this build:");
    help_print_apis(out);
    fprintf(out, "\n\nExit status:\n");
    for (int i = 0; i < help_status_count; i++) {
        const struct help_status *s = &help_statuses[i];
        if (s->code == EXIT_SIGNAL_BASE)
            fprintf(out, "  %d+n  %s\n", s->code, s->text);
        else
            fprintf(out, "  %-6d %s\n", s->code, s->text);
    }
}
