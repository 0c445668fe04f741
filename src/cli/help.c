/* The help text of -h/--help: our own (not HDF5's), listing every option of
 * opt.c with its value and default, the environment and the exit statuses.
 * Keep it in step with opt.c, finish.c and env.c; lines under 80 columns.
 * It only writes to the stream it is given. */
#include "cli/cli.h"
#include "exit_status.h"

static const char *const help_text[] = {
    "usage: mpiexec -n N h5perf [options]",
    "",
    "Measures the parallel write and read throughput of POSIX, MPI-IO and",
    "parallel HDF5 for a sweep of process counts (halving from -P down to -p)",
    "and transfer sizes (doubling from -x up to -X).",
    "",
    "S is a size in bytes: digits with an optional K, M or G (x1024, x1048576,",
    "x1073741824) and an optional B, e.g. 512, 64K, 256KB, 1m; it must be above",
    "0 and below 2^63. N is a whole number from 1 to 2147483647.",
    "Long options take their value as --name=V or --name V; short options as",
    "-xV or -x V. Short flags combine (-wIC). The last occurrence of an option",
    "wins, except that -A and -D add up.",
    "",
    "Options:",
    "  -h, --help                 print this help and exit",
    "  -A, --api=LIST             the APIs to run, comma-separated, any case:",
    "                             posix, mpiio, phdf5 [all three]",
    "  -e, --num-bytes=S          bytes per process per dataset; with -g the",
    "                             dataset is a square of side -e x processes",
    "                             [256K; 8K with -g]",
    "  -x, --min-xfer-size=S      smallest transfer size [half of -e]",
    "  -X, --max-xfer-size=S      largest transfer size [-e]",
    "  -B, --block-size=S         block size, a divisor of every transfer size",
    "                             [half of -e]",
    "  -I, --interleaved          interleaved blocks of the processes",
    "                             [contiguous]",
    "  -c, --chunk                chunked HDF5 datasets of -B bytes",
    "                             [contiguous]",
    "  -C, --collective           collective MPI-IO and HDF5 I/O [independent]",
    "  -d, --num-dsets=N          datasets per file [1]",
    "  -F, --num-files=N          files per run [1]",
    "  -i, --num-iterations=N     iterations of each run [1]",
    "  -p, --min-num-processes=N  smallest process count [1]",
    "  -P, --max-num-processes=N  largest process count, at most the processes",
    "                             started [the processes started]",
    "  -w, --write-only           skip the read phase",
    "  -a, --align=S              HDF5 alignment (H5Pset_alignment) [1]",
    "  -T, --threshold=S          HDF5 alignment threshold [1]",
    "  -o, --output=FILE          write the report to FILE, replacing it",
    "                             [standard output]",
    "  -D, --debug=LIST           comma-separated: a level 0-4 (1: parameters",
    "                             and file names from every process, 3: times",
    "                             of each iteration, 4: timer details; above 4",
    "                             means 4), r (raw data throughput), t (times),",
    "                             v (verify the data read) [0]",
    "      --overwrite            replace data files that exist already (an",
    "                             earlier run with HDF5_NOCLEANUP leaves some)",
    "      --read-only            only read (and with -D v verify) the data files",
    "                             an earlier run with the same options and",
    "                             HDF5_NOCLEANUP left; they are not removed",
    "      --watchdog=N           seconds a process that failed waits for the",
    "                             others to agree before it aborts the job [120]",
    "      --format=F             the report on standard output (or -o): text",
    "                             (the original's layout), json or csv [text]",
    "      --results=FILE         also write every sample to FILE, as JSON or CSV",
    "                             by its extension (.json, .csv), replacing it",
    "      --progress             print what runs and the time left to stderr",
    "      --overhead             end the text report with the throughput ratios",
    "                             HDF5/MPI-IO and MPI-IO/POSIX",
    "  -g, --geometry             2D geometry: square datasets of side -e times",
    "                             the processes, blocks of -B x -B, transfer",
    "                             buffers of -B x transfer size (-I: transfer",
    "                             size x -B); -c stores -B x -B chunks [1D]",
    "  -m, --mpi-posix            refused: the MPI-POSIX driver was removed from",
    "                             HDF5 in 1.8.13",
    "",
    "A transfer size must be a multiple of -B and must divide -e (in 2D: the",
    "dataset side, and -B must divide -e). Transfer sizes above -e (1D), -x",
    "above -X, -B above -e and -p above -P are lowered with a warning.",
    "",
    "Environment:",
    "  HDF5_PARAPREFIX  directory of the data files; a subdirectory named after",
    "                   $USER (or $LOGIN) is created in it [current directory]",
    "  HDF5_NOCLEANUP   if set, even to nothing, the data files are kept",
    "  HDF5_MPI_INFO    MPI-IO hints key=value;key=value, given to MPI-IO and",
    "                   HDF5 (blanks around keys and values are ignored)",
    "",
    "Exit status:",
};

void help_print(FILE *out)
{
    for (size_t i = 0; i < sizeof help_text / sizeof help_text[0]; i++)
        fprintf(out, "%s\n", help_text[i]);
    fprintf(out, "  %-6d every run succeeded\n", EXIT_OK);
    fprintf(out, "  %-6d a run failed: an I/O error or a data verification mismatch\n",
            EXIT_RUN_FAILED);
    fprintf(out, "  %-6d bad usage, input or environment; no data file was created\n", EXIT_USAGE);
    fprintf(out, "  %d+n  ended by signal n, after removing the data files it created\n",
            EXIT_SIGNAL_BASE);
}
