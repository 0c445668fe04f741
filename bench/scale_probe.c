/* LD_PRELOAD probe of bench/scale_cost.py: when each process of a run
 * reached the points of its life that h5perf and the bare program share,
 * read from outside, through MPI's profiling interface and glibc's
 * symbols, without touching either program's code. Per process, one line
 * appended to $SCALE_PROBE_FILE at MPI_Finalize (CLOCK_REALTIME, ns: one
 * clock for every process of the host):
 *   probe RANK SIZE START INIT_IN INIT_OUT FIRST_IO LAST_IO FINALIZE PRE_MPI_CHILDREN
 *         FS_NS FS_CALLS CPU_INIT_OUT CPU_FIRST_IO CPU_LAST_IO
 *         CPU_FINALIZE N_TREE N_LINEAR N_COMM
 * START is the probe's constructor (before main), FIRST_IO and LAST_IO the
 * first and last pwrite or pread (0 if none), PRE_MPI_CHILDREN the fork()s
 * before MPI_Init (h5perf's cleanup process), FS_NS and FS_CALLS the time
 * in, and the number of, the file-system calls the process made itself
 * (open, unlink, stat, statvfs, access, mkdir, rmdir and their variants)
 * from MPI_Init's return to its first data call: the pre-flight checks'
 * (and the data file's open). Calls glibc makes inside its own functions
 * (fopen's open) are not seen. CPU_* are the process's own processor
 * time (user and system, getrusage) at MPI_Init's return, after its first
 * and its last data call and at MPI_Finalize: the work of each process, which
 * oversubscription does not multiply as it does the elapsed times. N_* are
 * the collective calls the process made from MPI_Init to MPI_Finalize:
 * those whose time grows as log P (all-reduce, reduce, broadcast,
 * barrier, scans), those that move a part per process to or from one
 * (gather, scatter and their v and all forms, all-to-all), and the
 * communicators it created (split, split by type, dup, create). With $SCALE_PROBE_NO_CLEANER
 * set, memfd_create of h5perf's registry ("h5perf-files") fails with
 * ENOSYS, so that h5perf runs without its cleanup process (it warns).
 * It adds a clock read and a getrusage to each data call (about a
 * microsecond, to both contenders alike) and nothing else. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static int64_t t_start, t_init_in, t_init_out, t_first_io, t_last_io;
static int pre_mpi_children;
static int64_t fs_ns, fs_calls;
static int64_t cpu_init_out, cpu_first_io, cpu_last_io;
static long n_tree, n_linear, n_comm;
static int mpi_up;

static int64_t probe_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

__attribute__((constructor)) static void probe_start(void)
{
    t_start = probe_now();
}

/* This process's processor time, user and system, in ns. */
static int64_t probe_cpu(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return -1;
    return ((int64_t)u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000 +
           ((int64_t)u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000;
}

static void probe_io(void)
{
    int64_t t = probe_now();
    if (!t_first_io) {
        t_first_io = t;
        cpu_first_io = probe_cpu();
    }
    cpu_last_io = probe_cpu();
    t_last_io = t;
}

typedef ssize_t (*rw_fn)(int, void *, size_t, off_t);

static ssize_t probe_rw(const char *name, rw_fn *fn, int fd, void *buf, size_t n, off_t off)
{
    if (!*fn) {
        void *sym = dlsym(RTLD_NEXT, name);
        memcpy(fn, &sym, sizeof *fn);
    }
    ssize_t r = (*fn)(fd, buf, n, off);
    probe_io();
    return r;
}

static rw_fn real_pwrite, real_pwrite64, real_pread, real_pread64;

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    return probe_rw("pwrite", &real_pwrite, fd, (void *)buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
    return probe_rw("pwrite64", &real_pwrite64, fd, (void *)buf, n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    return probe_rw("pread", &real_pread, fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
    return probe_rw("pread64", &real_pread64, fd, buf, n, off);
}

pid_t fork(void)
{
    static pid_t (*real)(void);
    if (!real) {
        void *sym = dlsym(RTLD_NEXT, "fork");
        memcpy(&real, &sym, sizeof real);
    }
    if (!mpi_up)
        pre_mpi_children++;
    return real();
}

int memfd_create(const char *name, unsigned int flags)
{
    static int (*real)(const char *, unsigned int);
    if (getenv("SCALE_PROBE_NO_CLEANER") && strcmp(name, "h5perf-files") == 0) {
        errno = ENOSYS;
        return -1;
    }
    if (!real) {
        void *sym = dlsym(RTLD_NEXT, "memfd_create");
        memcpy(&real, &sym, sizeof real);
    }
    return real(name, flags);
}

/* The symbol's next definition, looked up once. */
static void *probe_next(void **slot, const char *name)
{
    if (!*slot)
        *slot = dlsym(RTLD_NEXT, name);
    return *slot;
}

/* Counts a file-system call between MPI_Init's return and the first data call. */
static void probe_fs(int64_t t0)
{
    if (t_init_out && !t_first_io) {
        fs_ns += probe_now() - t0;
        fs_calls++;
    }
}

#define PROBE_FS(ret, name, params, args)                                                          \
    ret name params                                                                                \
    {                                                                                              \
        static void *slot;                                                                         \
        ret(*real) params;                                                                         \
        void *sym = probe_next(&slot, #name);                                                      \
        memcpy(&real, &sym, sizeof real);                                                          \
        int64_t t0 = probe_now();                                                                  \
        ret r = real args;                                                                         \
        probe_fs(t0);                                                                              \
        return r;                                                                                  \
    }

PROBE_FS(int, unlink, (const char *p), (p))
PROBE_FS(int, unlinkat, (int d, const char *p, int f), (d, p, f))
PROBE_FS(int, stat, (const char *p, struct stat *b), (p, b))
PROBE_FS(int, stat64, (const char *p, struct stat64 *b), (p, b))
PROBE_FS(int, lstat, (const char *p, struct stat *b), (p, b))
PROBE_FS(int, lstat64, (const char *p, struct stat64 *b), (p, b))
PROBE_FS(int, fstatat, (int d, const char *p, struct stat *b, int f), (d, p, b, f))
PROBE_FS(int, fstatat64, (int d, const char *p, struct stat64 *b, int f), (d, p, b, f))
PROBE_FS(int, statx, (int d, const char *p, int f, unsigned m, struct statx *b), (d, p, f, m, b))
PROBE_FS(int, statvfs, (const char *p, struct statvfs *b), (p, b))
PROBE_FS(int, statvfs64, (const char *p, struct statvfs64 *b), (p, b))
PROBE_FS(int, statfs, (const char *p, struct statfs *b), (p, b))
PROBE_FS(int, access, (const char *p, int m), (p, m))
PROBE_FS(int, mkdir, (const char *p, mode_t m), (p, m))
PROBE_FS(int, rmdir, (const char *p), (p))

/* open and its variants take a mode only with O_CREAT or O_TMPFILE. */
#define PROBE_OPEN(name, params, args)                                                             \
    int name params                                                                                \
    {                                                                                              \
        static void *slot;                                                                         \
        int(*real) params;                                                                         \
        void *sym = probe_next(&slot, #name);                                                      \
        memcpy(&real, &sym, sizeof real);                                                          \
        mode_t mode = 0;                                                                           \
        if (flags & (O_CREAT | O_TMPFILE)) {                                                       \
            va_list ap;                                                                            \
            va_start(ap, flags);                                                                   \
            mode = (mode_t)va_arg(ap, int);                                                        \
            va_end(ap);                                                                            \
        }                                                                                          \
        int64_t t0 = probe_now();                                                                  \
        int r = real args;                                                                         \
        probe_fs(t0);                                                                              \
        return r;                                                                                  \
    }

PROBE_OPEN(open, (const char *p, int flags, ...), (p, flags, mode))
PROBE_OPEN(open64, (const char *p, int flags, ...), (p, flags, mode))
PROBE_OPEN(openat, (int d, const char *p, int flags, ...), (d, p, flags, mode))
PROBE_OPEN(openat64, (int d, const char *p, int flags, ...), (d, p, flags, mode))

int MPI_Init(int *argc, char ***argv)
{
    t_init_in = probe_now();
    mpi_up = 1;
    int rc = PMPI_Init(argc, argv);
    t_init_out = probe_now();
    cpu_init_out = probe_cpu();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    t_init_in = probe_now();
    mpi_up = 1;
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    t_init_out = probe_now();
    cpu_init_out = probe_cpu();
    return rc;
}

/* A collective, counted and made as PMPI_NAME. */
#define PROBE_COLL(counter, name, params, args)                                                    \
    int MPI_##name params                                                                          \
    {                                                                                              \
        counter++;                                                                                 \
        return PMPI_##name args;                                                                   \
    }

PROBE_COLL(n_tree, Allreduce, (const void *a, void *b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),
           (a, b, n, t, o, c))
PROBE_COLL(n_tree, Reduce,
           (const void *a, void *b, int n, MPI_Datatype t, MPI_Op o, int r, MPI_Comm c),
           (a, b, n, t, o, r, c))
PROBE_COLL(n_tree, Bcast, (void *a, int n, MPI_Datatype t, int r, MPI_Comm c), (a, n, t, r, c))
PROBE_COLL(n_tree, Barrier, (MPI_Comm c), (c))
PROBE_COLL(n_tree, Scan, (const void *a, void *b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),
           (a, b, n, t, o, c))
PROBE_COLL(n_tree, Exscan, (const void *a, void *b, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),
           (a, b, n, t, o, c))
PROBE_COLL(n_linear, Gather,
           (const void *a, int n, MPI_Datatype t, void *b, int m, MPI_Datatype u, int r,
            MPI_Comm c),
           (a, n, t, b, m, u, r, c))
PROBE_COLL(n_linear, Gatherv,
           (const void *a, int n, MPI_Datatype t, void *b, const int *m, const int *d,
            MPI_Datatype u, int r, MPI_Comm c),
           (a, n, t, b, m, d, u, r, c))
PROBE_COLL(n_linear, Scatter,
           (const void *a, int n, MPI_Datatype t, void *b, int m, MPI_Datatype u, int r,
            MPI_Comm c),
           (a, n, t, b, m, u, r, c))
PROBE_COLL(n_linear, Scatterv,
           (const void *a, const int *n, const int *d, MPI_Datatype t, void *b, int m,
            MPI_Datatype u, int r, MPI_Comm c),
           (a, n, d, t, b, m, u, r, c))
PROBE_COLL(n_linear, Allgather,
           (const void *a, int n, MPI_Datatype t, void *b, int m, MPI_Datatype u, MPI_Comm c),
           (a, n, t, b, m, u, c))
PROBE_COLL(n_linear, Alltoall,
           (const void *a, int n, MPI_Datatype t, void *b, int m, MPI_Datatype u, MPI_Comm c),
           (a, n, t, b, m, u, c))
PROBE_COLL(n_comm, Comm_split, (MPI_Comm c, int colour, int key, MPI_Comm *out),
           (c, colour, key, out))
PROBE_COLL(n_comm, Comm_split_type, (MPI_Comm c, int type, int key, MPI_Info i, MPI_Comm *out),
           (c, type, key, i, out))
PROBE_COLL(n_comm, Comm_dup, (MPI_Comm c, MPI_Comm *out), (c, out))
PROBE_COLL(n_comm, Comm_create, (MPI_Comm c, MPI_Group g, MPI_Comm *out), (c, g, out))

int MPI_Finalize(void)
{
    int64_t t = probe_now(), cpu = probe_cpu();
    int rank = -1, size = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *path = getenv("SCALE_PROBE_FILE");
    if (path) {
        char line[384];
        int n = snprintf(
            line, sizeof line,
            "probe %d %d %lld %lld %lld %lld %lld %lld %d %lld %lld %lld %lld %lld %lld %ld %ld "
            "%ld\n",
            rank, size, (long long)t_start, (long long)t_init_in, (long long)t_init_out,
            (long long)t_first_io, (long long)t_last_io, (long long)t, pre_mpi_children,
            (long long)fs_ns, (long long)fs_calls, (long long)cpu_init_out, (long long)cpu_first_io,
            (long long)cpu_last_io, (long long)cpu, n_tree, n_linear, n_comm);
        int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        /* One write of a short line to an O_APPEND file: whole, in some order. */
        if (fd >= 0 && n > 0) {
            if (write(fd, line, (size_t)n) != n)
                perror("scale_probe: write");
            close(fd);
        }
    }
    return PMPI_Finalize();
}
