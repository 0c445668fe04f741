/* Test shim (LD_PRELOAD) that logs the system calls a process makes on the
 * files whose path contains $IOLOG_MARKER (a directory name), one line each,
 * into its own file $IOLOG_FILE.<rank>.<pid> (rank from OMPI_COMM_WORLD_RANK
 * or PMI_RANK, "x" if neither is set). It changes no call's behaviour.
 * With $IOLOG_SHARED set, every process appends to $IOLOG_FILE itself
 * instead, first a line "<pid> rank <rank>": a call's line is written
 * before the call, in one write, so the lines keep the order in which the
 * processes made their calls (tests/mpi/madbench.py, the token order).
 * Lines (fields separated by one space):
 *   <pid> open <fd> <flags, hex> <path>        open, open64, openat(64), creat(64)
 *   <pid> <op> <fd> <offset> <length>          pwrite pread pwritev preadv
 *                                              (and 64/v2 variants), write read
 *                                              writev readv (offset: the file
 *                                              position), ftruncate (<length> 0),
 *                                              lseek (<offset> <whence>),
 *                                              fsync fdatasync fstat close (0 0)
 * Lengths are those asked for. With $IOLOG_ADDRESS set, the lines of
 * pwrite, pread and their vector forms end with one more field: where the
 * (first) buffer starts past a 4096-byte boundary (--buffer-offset's test).
 * Files are followed by descriptor from their
 * open (descriptors above 65535, dup() copies and fopen() are not). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define IOLOG_MAX_FD 65536

/* File-static state of the shim: the descriptors being followed and the log. */
static unsigned char iolog_fds[IOLOG_MAX_FD];
static int iolog_fd = -1;
static pid_t iolog_pid;

/* The next definition of a symbol (the C library's). */
#define IOLOG_REAL(var, name)                                                                      \
    do {                                                                                           \
        if (!(var)) {                                                                              \
            void *p_ = dlsym(RTLD_NEXT, name);                                                     \
            memcpy(&(var), &p_, sizeof(var));                                                      \
        }                                                                                          \
    } while (0)

static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_open)(const char *, int, ...);
static off_t (*real_lseek)(int, off_t, int);

static int iolog_out(void)
{
    if (iolog_fd >= 0 && iolog_pid == getpid())
        return iolog_fd;
    const char *file = getenv("IOLOG_FILE");
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    char path[4200];
    if (!file)
        return -1;
    if (!rank)
        rank = getenv("PMI_RANK");
    iolog_pid = getpid();
    bool shared = getenv("IOLOG_SHARED") != NULL;
    if (shared)
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s.%s.%ld", file, rank ? rank : "x", (long)iolog_pid);
    IOLOG_REAL(real_open, "open");
    iolog_fd = real_open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (shared && iolog_fd >= 0) {
        char line[128];
        int n = snprintf(line, sizeof line, "%ld rank %s\n", (long)iolog_pid, rank ? rank : "x");
        IOLOG_REAL(real_write, "write");
        if (real_write(iolog_fd, line, (size_t)n) < 0)
            return iolog_fd;
    }
    return iolog_fd;
}

/* One line, written with one call (O_APPEND keeps lines whole). */
static void iolog_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void iolog_line(const char *fmt, ...)
{
    char line[4400];
    va_list ap;
    int fd = iolog_out();
    if (fd < 0)
        return;
    int n = snprintf(line, sizeof line, "%ld ", (long)getpid());
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof line)
        n = (int)sizeof line - 1;
    IOLOG_REAL(real_write, "write");
    if (real_write(fd, line, (size_t)n) < 0)
        return;
}

static int iolog_tracked(int fd)
{
    return fd >= 0 && fd < IOLOG_MAX_FD && fd != iolog_fd && iolog_fds[fd];
}

static void iolog_data(const char *op, int fd, long long off, long long len)
{
    if (iolog_tracked(fd))
        iolog_line("%s %d %lld %lld\n", op, fd, off, len);
}

/* iolog_data() of a call from buffer buf. */
static void iolog_buf(const char *op, int fd, long long off, long long len, const void *buf)
{
    if (!getenv("IOLOG_ADDRESS"))
        iolog_data(op, fd, off, len);
    else if (iolog_tracked(fd))
        iolog_line("%s %d %lld %lld %u\n", op, fd, off, len, (unsigned)((uintptr_t)buf % 4096));
}

/* After an open: follow fd if the path has the marker. */
static int iolog_opened(int fd, const char *path, int flags)
{
    const char *marker = getenv("IOLOG_MARKER");
    if (fd < 0 || fd >= IOLOG_MAX_FD || !path || !marker || !strstr(path, marker))
        return fd;
    iolog_fds[fd] = 1;
    iolog_line("open %d 0x%x %s\n", fd, (unsigned)flags, path);
    return fd;
}

static long long iolog_iov_len(const struct iovec *iov, int n)
{
    long long sum = 0;
    for (int i = 0; i < n; i++)
        sum += (long long)iov[i].iov_len;
    return sum;
}

/* --- opens ------------------------------------------------------------------ */

#define IOLOG_MODE(flags, mode)                                                                    \
    do {                                                                                           \
        if ((flags) & (O_CREAT | O_TMPFILE)) {                                                     \
            va_list ap;                                                                            \
            va_start(ap, flags);                                                                   \
            mode = va_arg(ap, mode_t);                                                             \
            va_end(ap);                                                                            \
        }                                                                                          \
    } while (0)

#define IOLOG_OPEN(name)                                                                           \
    int name(const char *path, int flags, ...)                                                     \
    {                                                                                              \
        static int (*real)(const char *, int, ...);                                                \
        mode_t mode = 0;                                                                           \
        IOLOG_MODE(flags, mode);                                                                   \
        IOLOG_REAL(real, #name);                                                                   \
        return iolog_opened(real(path, flags, mode), path, flags);                                 \
    }

#define IOLOG_OPENAT(name)                                                                         \
    int name(int dirfd, const char *path, int flags, ...)                                          \
    {                                                                                              \
        static int (*real)(int, const char *, int, ...);                                           \
        mode_t mode = 0;                                                                           \
        IOLOG_MODE(flags, mode);                                                                   \
        IOLOG_REAL(real, #name);                                                                   \
        return iolog_opened(real(dirfd, path, flags, mode), path, flags);                          \
    }

IOLOG_OPEN(open)
IOLOG_OPEN(open64)
IOLOG_OPENAT(openat)
IOLOG_OPENAT(openat64)

int creat(const char *path, mode_t mode)
{
    return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

int creat64(const char *path, mode_t mode)
{
    return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/* --- data ------------------------------------------------------------------- */

#define IOLOG_PIO(name, type, off_type)                                                            \
    ssize_t name(int fd, type buf, size_t len, off_type off)                                       \
    {                                                                                              \
        static ssize_t (*real)(int, type, size_t, off_type);                                       \
        IOLOG_REAL(real, #name);                                                                   \
        iolog_buf(#name, fd, (long long)off, (long long)len, buf);                                 \
        return real(fd, buf, len, off);                                                            \
    }

IOLOG_PIO(pwrite, const void *, off_t)
IOLOG_PIO(pwrite64, const void *, off64_t)
IOLOG_PIO(pread, void *, off_t)
IOLOG_PIO(pread64, void *, off64_t)

#define IOLOG_PIOV(name, off_type)                                                                 \
    ssize_t name(int fd, const struct iovec *iov, int n, off_type off)                             \
    {                                                                                              \
        static ssize_t (*real)(int, const struct iovec *, int, off_type);                          \
        IOLOG_REAL(real, #name);                                                                   \
        iolog_buf(#name, fd, (long long)off, iolog_iov_len(iov, n), n > 0 ? iov[0].iov_base : 0);  \
        return real(fd, iov, n, off);                                                              \
    }

IOLOG_PIOV(pwritev, off_t)
IOLOG_PIOV(pwritev64, off64_t)
IOLOG_PIOV(preadv, off_t)
IOLOG_PIOV(preadv64, off64_t)

#define IOLOG_PIOV2(name, off_type)                                                                \
    ssize_t name(int fd, const struct iovec *iov, int n, off_type off, int flags)                  \
    {                                                                                              \
        static ssize_t (*real)(int, const struct iovec *, int, off_type, int);                     \
        IOLOG_REAL(real, #name);                                                                   \
        iolog_buf(#name, fd, (long long)off, iolog_iov_len(iov, n), n > 0 ? iov[0].iov_base : 0);  \
        return real(fd, iov, n, off, flags);                                                       \
    }

IOLOG_PIOV2(pwritev2, off_t)
IOLOG_PIOV2(pwritev64v2, off64_t)
IOLOG_PIOV2(preadv2, off_t)
IOLOG_PIOV2(preadv64v2, off64_t)

/* The file position, for the calls that use it. */
static long long iolog_pos(int fd)
{
    if (!iolog_tracked(fd))
        return -1;
    IOLOG_REAL(real_lseek, "lseek");
    return (long long)real_lseek(fd, 0, SEEK_CUR);
}

ssize_t write(int fd, const void *buf, size_t len)
{
    IOLOG_REAL(real_write, "write");
    iolog_data("write", fd, iolog_pos(fd), (long long)len);
    return real_write(fd, buf, len);
}

ssize_t read(int fd, void *buf, size_t len)
{
    static ssize_t (*real)(int, void *, size_t);
    IOLOG_REAL(real, "read");
    iolog_data("read", fd, iolog_pos(fd), (long long)len);
    return real(fd, buf, len);
}

#define IOLOG_RWV(name)                                                                            \
    ssize_t name(int fd, const struct iovec *iov, int n)                                           \
    {                                                                                              \
        static ssize_t (*real)(int, const struct iovec *, int);                                    \
        IOLOG_REAL(real, #name);                                                                   \
        iolog_data(#name, fd, iolog_pos(fd), iolog_iov_len(iov, n));                               \
        return real(fd, iov, n);                                                                   \
    }

IOLOG_RWV(writev)
IOLOG_RWV(readv)

/* --- the rest: position, size, sync, status, close ------------------------- */

off_t lseek(int fd, off_t off, int whence)
{
    IOLOG_REAL(real_lseek, "lseek");
    iolog_data("lseek", fd, (long long)off, whence);
    return real_lseek(fd, off, whence);
}

off64_t lseek64(int fd, off64_t off, int whence)
{
    static off64_t (*real)(int, off64_t, int);
    IOLOG_REAL(real, "lseek64");
    iolog_data("lseek", fd, (long long)off, whence);
    return real(fd, off, whence);
}

#define IOLOG_TRUNC(name, off_type)                                                                \
    int name(int fd, off_type len)                                                                 \
    {                                                                                              \
        static int (*real)(int, off_type);                                                         \
        IOLOG_REAL(real, #name);                                                                   \
        iolog_data("ftruncate", fd, (long long)len, 0);                                            \
        return real(fd, len);                                                                      \
    }

IOLOG_TRUNC(ftruncate, off_t)
IOLOG_TRUNC(ftruncate64, off64_t)

#define IOLOG_FD_CALL(name, logged, ret, param_type)                                               \
    ret name(int fd, param_type arg)                                                               \
    {                                                                                              \
        static ret (*real)(int, param_type);                                                       \
        IOLOG_REAL(real, #name);                                                                   \
        iolog_data(logged, fd, 0, 0);                                                              \
        return real(fd, arg);                                                                      \
    }

IOLOG_FD_CALL(fstat, "fstat", int, struct stat *)
IOLOG_FD_CALL(fstat64, "fstat", int, struct stat64 *)

int fsync(int fd)
{
    static int (*real)(int);
    IOLOG_REAL(real, "fsync");
    iolog_data("fsync", fd, 0, 0);
    return real(fd);
}

int fdatasync(int fd)
{
    static int (*real)(int);
    IOLOG_REAL(real, "fdatasync");
    iolog_data("fdatasync", fd, 0, 0);
    return real(fd);
}

int close(int fd)
{
    static int (*real)(int);
    IOLOG_REAL(real, "close");
    if (iolog_tracked(fd)) {
        iolog_data("close", fd, 0, 0);
        iolog_fds[fd] = 0;
    }
    return real(fd);
}
