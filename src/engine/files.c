/* Created-files registry, the interrupt handler and the cleanup process
 * (files.h). The registry lives in one mapping: with the cleanup process, a
 * memory file both processes share (the cleanup process reads it once this
 * process is gone), else private memory. Its layout: a header, one created
 * flag per slot, one path offset per slot, the paths. It is file-static
 * because a signal handler can reach nothing else; the handler only reads
 * flags and paths that were complete before the first data file existed,
 * calls unlink() and _exit(). */
#define _GNU_SOURCE /* memfd_create, pipe2, close_range (Linux) */
#include "engine/files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include "exit_status.h"

#define FILES_MAGIC UINT64_C(0x6835706572666c73) /* "h5perfls" */

struct files_header {
    uint64_t magic; /* FILES_MAGIC once complete; 0 once released */
    int64_t nslots;
    int64_t keep;
    int64_t by_name; /* the cleanup process may remove a file it cannot identify */
    int64_t pid;     /* the h5perf process's: the name of ompio's lock files */
};

/* A slot's created flag: not created, created, created and identified (its
 * device and inode recorded); FILES_OWN added for a file of this process
 * alone (the block pattern's file per process), which it removes itself;
 * FILES_OUTPUT for an output not written yet (files_add_output()). */
enum { FILES_NONE = 0, FILES_CREATED = 1, FILES_IDENTIFIED = 2, FILES_OWN = 4, FILES_OUTPUT = 8 };
#define FILES_KIND (FILES_CREATED | FILES_IDENTIFIED)

/* The only mutable globals of h5perf besides the watchdog's, shared with
 * the signal handler. */
static struct files_header *reg;           /* the mapping */
static size_t reg_bytes;                   /* its size */
static volatile sig_atomic_t *reg_created; /* [nslots], in the mapping */
static const uint64_t *reg_offset;         /* [nslots]: path offset, 0 = none */
static int reg_slots;
static volatile sig_atomic_t reg_keep;
static bool reg_installed;
static struct sigaction old_int, old_term, old_xfsz;
static int guard_fd = -1; /* the memory file shared with the cleanup process */
static int guard_errno;

/* Where the path offsets start: after the header and the flags, 8-byte
 * aligned; then come the devices and the inodes, then the paths. */
static size_t files_offsets_at(int64_t nslots)
{
    size_t head = sizeof(struct files_header) + (size_t)nslots * sizeof(sig_atomic_t);
    return (head + 7) & ~(size_t)7;
}

static uint64_t *files_ids(struct files_header *h)
{
    return (uint64_t *)((char *)h + files_offsets_at(h->nslots)) + h->nslots;
}

/* The side-file prefixes (files_side()), FILES_SIDE_MAX bytes per slot,
 * after the offsets, devices and inodes; then as many for the patterns
 * (files_side_pattern()). */
static char *files_sides(const struct files_header *h)
{
    return (char *)h + files_offsets_at(h->nslots) + 3 * (size_t)h->nslots * sizeof(uint64_t);
}

/* The prefix of slot i's side files: the one recorded once the file was
 * made, else the pattern registered before it was (a process killed
 * inside the create: the library may have made some already). */
static const char *files_side_of(const struct files_header *h, int64_t i)
{
    const char *side = files_sides(h) + i * FILES_SIDE_MAX;
    return side[0] ? side : files_sides(h) + (h->nslots + i) * FILES_SIDE_MAX;
}

/* Which names beside a data file (base) are its side files: those named
 * after it and side, then '_' or '.' (files_side()), or, when side is NULL,
 * the lock file that Open MPI's ompio makes beside a file it opens when its
 * shared-file-pointer component is "lockedfile", "<file>-<job>-<pid>.lock"
 * with the pid of the opening communicator's first process (this one's for
 * its own files), which ompio removes at MPI_File_close and nobody after a
 * kill inside the open (docs/multihost.md). */
struct files_match {
    const char *side;
    int64_t pid;
};

/* Does name start with base then s, then '_' or '.'? */
static bool files_side_match(const char *name, const char *base, size_t base_len,
                             const struct files_match *m)
{
    size_t i = 0;
    for (; i < base_len; i++)
        if (name[i] != base[i])
            return false;
    if (!m->side) {
        if (name[i++] != '-')
            return false;
        size_t job = i;
        while (name[i] >= '0' && name[i] <= '9')
            i++;
        if (i == job || name[i++] != '-')
            return false;
        char digits[24];
        int n = 0;
        for (int64_t p = m->pid; n == 0 || p > 0; p /= 10)
            digits[n++] = (char)('0' + p % 10);
        while (n > 0)
            if (name[i++] != digits[--n])
                return false;
        for (const char *ext = ".lock"; *ext; ext++, i++)
            if (name[i] != *ext)
                return false;
        return name[i] == '\0';
    }
    for (const char *side = m->side; *side; side++, i++)
        if (name[i] != *side)
            return false;
    return name[i] == '_' || name[i] == '.';
}

/* Unlinks the side files of the data file at path that m names: its
 * directory's entries that files_side_match(). Async-signal-safe: open,
 * the getdents64 system call, unlinkat, close. */
static void files_unlink_side(const char *path, const struct files_match *m)
{
#ifdef SYS_getdents64
    char dir[4096];
    size_t slash = 0, n = 0;
    for (; path[n]; n++)
        if (path[n] == '/')
            slash = n + 1;
    if ((m->side && !m->side[0]) || slash >= sizeof dir)
        return;
    for (size_t i = 0; i < slash; i++)
        dir[i] = path[i];
    dir[slash] = '\0';
    if (slash == 0) { /* a name in the current directory */
        dir[0] = '.';
        dir[1] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    /* Entries are read again after each batch of unlinks, until one read
     * unlinks nothing: the offsets of a directory changed under a reader
     * are not to be trusted. */
    for (bool again = true; again;) {
        again = false;
        lseek(fd, 0, SEEK_SET);
        union {
            char bytes[4096];
            uint64_t align;
        } buf;
        long got;
        while ((got = syscall(SYS_getdents64, fd, buf.bytes, sizeof buf.bytes)) > 0)
            for (long at = 0; at < got;) {
                /* struct linux_dirent64: ino, off, reclen, type, name */
                unsigned short reclen;
                memcpy(&reclen, buf.bytes + at + 16, sizeof reclen);
                const char *name = buf.bytes + at + 19;
                if (files_side_match(name, path + slash, n - slash, m) &&
                    unlinkat(fd, name, 0) == 0)
                    again = true;
                at += reclen;
            }
    }
    close(fd);
#else
    (void)path, (void)m;
#endif
}

static const char *files_at(int slot)
{
    return reg_offset[slot] ? (const char *)reg + reg_offset[slot] : NULL;
}

/* Unlinks every created file of the registry at h (this process's or, in
 * the cleanup process, the one it read) unless kept; clears the flags so
 * that no one unlinks a name twice. Later (cleanup true: a cleanup process
 * whose process died, perhaps long after a stuck write) a new run may have
 * made a file of the same name: a file of known identity is unlinked only
 * if the name still leads to it, one of unknown identity only by_name.
 * Async-signal-safe. */
static void files_unlink_created(struct files_header *h, bool cleanup)
{
    if (h->magic != FILES_MAGIC)
        return;
    volatile sig_atomic_t *created = (volatile sig_atomic_t *)(h + 1);
    const uint64_t *offset = (const uint64_t *)((const char *)h + files_offsets_at(h->nslots));
    const uint64_t *dev = files_ids(h), *ino = dev + h->nslots;
    for (int64_t i = 0; i < h->nslots; i++) {
        if (!created[i] || !offset[i])
            continue;
        const char *path = (const char *)h + offset[i];
        /* ompio's lock file, left by a kill inside MPI_File_open or before
         * MPI_File_close: no data, so not kept with HDF5_NOCLEANUP. */
        files_unlink_side(path, &(struct files_match){.side = NULL, .pid = h->pid});
        /* HDF5_NOCLEANUP keeps the data files, not an output left empty. */
        if (h->keep && !(created[i] & FILES_OUTPUT))
            continue;
        struct stat st;
        bool same = (created[i] & FILES_KIND) == FILES_IDENTIFIED
                        ? lstat(path, &st) == 0 && (uint64_t)st.st_dev == dev[i] &&
                              (uint64_t)st.st_ino == ino[i]
                        : !cleanup || h->by_name || (created[i] & FILES_OWN);
        if (same)
            unlink(path);
        /* Its side files carry its inode in their names: ours whatever
         * now has the name. */
        files_unlink_side(path, &(struct files_match){.side = files_side_of(h, i)});
        created[i] = FILES_NONE;
    }
}

static void files_on_signal(int sig)
{
    if (reg)
        files_unlink_created(reg, false);
    _exit(EXIT_SIGNAL_BASE + sig);
}

#ifdef __linux__
/* The cleanup process: keeps the registry (mfd) and the pipe (rfd) whose
 * other end only its parent holds, closes everything else (the launcher
 * must not wait for it), leaves the job's session and signals, and waits
 * for the end of file that its parent's end brings. Does not return. */
static void files_cleaner(int mfd, int rfd)
{
    mfd = fcntl(mfd, F_DUPFD, 10);
    rfd = fcntl(rfd, F_DUPFD, 10);
    if (mfd < 0 || rfd < 0)
        _exit(1);
    int lo = mfd < rfd ? mfd : rfd, hi = mfd < rfd ? rfd : mfd;
#ifdef SYS_close_range
    /* lo >= 10 and hi > lo; the middle range is empty when they touch. */
    if (syscall(SYS_close_range, 0u, (unsigned)lo - 1, 0u) < 0 ||
        (hi > lo + 1 && syscall(SYS_close_range, (unsigned)lo + 1, (unsigned)hi - 1, 0u) < 0) ||
        syscall(SYS_close_range, (unsigned)hi + 1, ~0u, 0u) < 0)
#endif
    {
        long max = sysconf(_SC_OPEN_MAX);
        for (int fd = 0; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            if (fd != mfd && fd != rfd)
                close(fd);
    }
    int null = open("/dev/null", O_RDWR);
    for (int fd = 0; null >= 0 && fd < 3; fd++)
        if (fd != null)
            dup2(null, fd);
    setsid();
    int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        signal(ignored[i], SIG_IGN);
    prctl(PR_SET_NAME, "h5perf-cleanup", 0, 0, 0);
    char c;
    for (;;) {
        ssize_t n = read(rfd, &c, 1);
        if (n == 0 || (n < 0 && errno != EINTR))
            break;
    }
    struct stat st;
    if (fstat(mfd, &st) == 0 && (size_t)st.st_size >= sizeof(struct files_header)) {
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
        if (map != MAP_FAILED)
            files_unlink_created(map, true);
    }
    _exit(0);
}
#endif

/* Standard input, output and error that were closed (`>&-`) get /dev/null
 * opened read-only in their place: otherwise the registry's memory file,
 * the pipe or one of MPI's sockets would become descriptor 1, and the
 * report would be written into it. A write to a read-only descriptor fails
 * with EBADF, as on the closed one, so the run still says the report was
 * lost. */
static void files_hold_std_fds(void)
{
    /* open() takes the lowest free descriptor: fd, the lower ones being
     * open by then. */
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDONLY) < 0)
            return;
}

int files_guard(void)
{
    files_hold_std_fds();
#ifdef __linux__
    int pipe_fd[2];
    int mfd = memfd_create("h5perf-files", MFD_CLOEXEC);
    if (mfd < 0 || pipe2(pipe_fd, O_CLOEXEC) < 0) {
        guard_errno = errno;
        if (mfd >= 0)
            close(mfd);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0)
        files_cleaner(mfd, pipe_fd[0]);
    guard_errno = pid < 0 ? errno : 0;
    close(pipe_fd[0]);
    if (pid < 0) {
        close(pipe_fd[1]);
        close(mfd);
        return -1;
    }
    /* pipe_fd[1] stays open, unused, until this process ends. */
    guard_fd = mfd;
    return 0;
#else
    guard_errno = ENOSYS;
    return -1;
#endif
}

int files_guard_errno(void)
{
    return guard_errno;
}

/* The mapping of bytes for the registry: the shared memory file when the
 * cleanup process has one, else private memory. */
static void *files_map(size_t bytes)
{
    if (guard_fd >= 0 && ftruncate(guard_fd, (off_t)bytes) == 0) {
        void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, guard_fd, 0);
        if (map != MAP_FAILED)
            return map;
    }
    void *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return map == MAP_FAILED ? NULL : map;
}

int files_init(int nslots, char *const *paths, bool keep, bool by_name)
{
    size_t text = 0;
    for (int i = 0; i < nslots; i++)
        text += paths[i] ? strlen(paths[i]) + 1 : 0;
    size_t head = files_offsets_at(nslots);
    size_t bytes =
        head + 3 * (size_t)nslots * sizeof(uint64_t) + 2 * (size_t)nslots * FILES_SIDE_MAX + text;
    struct files_header *h = files_map(bytes);
    if (!h)
        return -1;
    memset(h, 0, bytes);
    h->nslots = nslots;
    h->keep = keep;
    h->by_name = by_name;
    h->pid = getpid();
    uint64_t *offset = (uint64_t *)((char *)h + head);
    char *next = (char *)(offset + 3 * (size_t)nslots) + 2 * (size_t)nslots * FILES_SIDE_MAX;
    for (int i = 0; i < nslots; i++) {
        if (!paths[i])
            continue;
        offset[i] = (uint64_t)(next - (char *)h);
        size_t n = strlen(paths[i]) + 1;
        memcpy(next, paths[i], n);
        next += n;
    }
    h->magic = FILES_MAGIC;
    reg_bytes = bytes;
    reg_created = (volatile sig_atomic_t *)(h + 1);
    reg_offset = offset;
    reg_slots = nslots;
    reg_keep = keep;
    reg = h;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = files_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &sa, &old_xfsz);
    reg_installed = true;
    return 0;
}

const char *files_path(int slot)
{
    return files_at(slot);
}

void files_add(int slot, bool own)
{
    reg_created[slot] = FILES_CREATED | (own ? FILES_OWN : 0);
}

void files_identify(int slot, uint64_t dev, uint64_t ino)
{
    if (!reg_created[slot])
        return;
    uint64_t *ids = files_ids(reg);
    ids[slot] = dev;
    ids[reg_slots + slot] = ino;
    reg_created[slot] = FILES_IDENTIFIED | (reg_created[slot] & (FILES_OWN | FILES_OUTPUT));
}

void files_side(int slot, const char *prefix)
{
    char *side = files_sides(reg) + slot * FILES_SIDE_MAX;
    size_t n = strlen(prefix);
    if (!reg_created[slot] || n >= FILES_SIDE_MAX)
        return;
    memcpy(side, prefix, n + 1);
}

void files_side_pattern(int slot, const char *prefix)
{
    char *side = files_sides(reg) + (reg_slots + slot) * FILES_SIDE_MAX;
    size_t n = strlen(prefix);
    if (n < FILES_SIDE_MAX)
        memcpy(side, prefix, n + 1);
}

void files_forget(int slot)
{
    reg_created[slot] = FILES_NONE;
}

bool files_contains(int slot)
{
    return reg_created[slot] != 0;
}

void files_add_output(int slot, uint64_t dev, uint64_t ino)
{
    reg_created[slot] = FILES_CREATED | FILES_OWN;
    files_identify(slot, dev, ino);
    reg_created[slot] |= FILES_OUTPUT;
}

void files_remove(int slot, bool do_unlink)
{
    if (!reg_created[slot] || reg_keep || (reg_created[slot] & FILES_OUTPUT))
        return;
    if (do_unlink || (reg_created[slot] & FILES_OWN)) {
        unlink(files_at(slot));
        files_unlink_side(files_at(slot), &(struct files_match){.side = files_side_of(reg, slot)});
    }
    files_sides(reg)[slot * FILES_SIDE_MAX] = '\0';
    reg_created[slot] = FILES_NONE;
}

void files_remove_all(bool do_unlink)
{
    for (int i = 0; i < reg_slots; i++)
        files_remove(i, do_unlink);
}

void files_release(void)
{
    if (reg_installed) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        sigaction(SIGXFSZ, &old_xfsz, NULL);
        reg_installed = false;
    }
    if (!reg)
        return;
    struct files_header *h = reg;
    reg = NULL;
    reg_slots = 0;
    h->magic = 0; /* nothing left for the cleanup process */
    munmap(h, reg_bytes);
}
