/* names_dir(), names_probe(), names_file() (names.h). The probe is the only
 * file h5perf creates before validation ends; it is created exclusively under
 * a name of its own and removed at once. */
/* O_DIRECT is a Linux extension. */
#define _GNU_SOURCE
#include "engine/names.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void names_collapse(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++)
        if (!(*r == '/' && w > s && w[-1] == '/'))
            *w++ = *r;
    *w = '\0';
}

int names_dir(const char *prefix, const char *user, bool create, char *dir, size_t len, bool *made,
              struct cli_msg *m)
{
    dir[0] = '\0';
    if (made)
        *made = false;
    if (!prefix || !prefix[0])
        return 0;
    struct stat st;
    const char *why = NULL;
    if (stat(prefix, &st) < 0)
        why = errno == ENOENT ? "no such directory" : strerror(errno);
    else if (!S_ISDIR(st.st_mode))
        why = "not a directory";
    if (why) {
        cli_fail(m, "h5perf: HDF5_PARAPREFIX '%s': %s", prefix, why);
        return -1;
    }
    int n = snprintf(dir, len, "%s", prefix);
    if (user && user[0]) {
        n = snprintf(dir, len, "%s/%s", prefix, user);
        if (n >= 0 && (size_t)n < len && stat(dir, &st) < 0) {
            bool ok = create && mkdir(dir, 0755) == 0;
            if (made)
                *made = ok;
            if (!ok && !(create && errno == EEXIST))
                n = snprintf(dir, len, "%s", prefix);
        }
    }
    if (n < 0 || (size_t)n >= len) {
        cli_fail(m, "h5perf: HDF5_PARAPREFIX '%.200s%s': path too long", prefix,
                 strlen(prefix) > 200 ? "..." : "");
        return -1;
    }
    names_collapse(dir);
    return 0;
}

/* Creates a probe file of a name no one uses (".h5perf-probe<tag>-<pid>-<n>"
 * in dir) with the extra open flags. Returns its descriptor, with its path
 * in path, or -errno. */
static int names_probe_create(const char *dir, const char *tag, int flags, char *path, size_t len)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        snprintf(path, len, "%s%s.h5perf-probe%s-%ld-%d", dir, dir[0] ? "/" : "", tag,
                 (long)getpid(), attempt);
        int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | flags, 0600);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            return -errno;
    }
    return -EEXIST;
}

int names_probe(const char *prefix, const char *dir, struct cli_msg *m)
{
    char path[4200];
    int fd = names_probe_create(dir, "", 0, path, sizeof path);
    if (fd >= 0) {
        close(fd);
        unlink(path);
        return 0;
    }
    if (prefix && prefix[0]) {
        cli_fail(m, "h5perf: HDF5_PARAPREFIX '%s': cannot create files in '%s': %s", prefix, dir,
                 strerror(-fd));
    } else {
        char cwd[2048];
        if (!getcwd(cwd, sizeof cwd))
            snprintf(cwd, sizeof cwd, ".");
        cli_fail(m,
                 "h5perf: cannot create files in the current directory '%s': %s "
                 "(set HDF5_PARAPREFIX to a writable directory)",
                 cwd, strerror(-fd));
    }
    return -1;
}

int names_probe_size(const char *dir, int64_t size)
{
    char path[4200];
    int fd = names_probe_create(dir, "-size", 0, path, sizeof path), errnum = 0;
    if (fd < 0)
        return -fd;
    /* Past a file-size limit (ulimit -f) the kernel raises SIGXFSZ, whose
     * default kills the process and leaves the probe behind: ignored, the
     * extension fails with EFBIG instead. */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    bool restore = sigaction(SIGXFSZ, &ign, &old) == 0;
    if (ftruncate(fd, (off_t)size) < 0)
        errnum = errno;
    if (restore)
        sigaction(SIGXFSZ, &old, NULL);
    close(fd);
    unlink(path);
    return errnum;
}

int names_file(const char *dir, int f, int rank, const char *suffix, char *out, size_t len,
               struct cli_msg *m)
{
    int n = rank < 0 ? snprintf(out, len, "%s%s#pio_tmp_%d%s", dir, dir[0] ? "/" : "", f, suffix)
                     : snprintf(out, len, "%s%s#pio_tmp_%d.%d%s", dir, dir[0] ? "/" : "", f, rank,
                                suffix);
    if (n < 0 || (size_t)n >= len) {
        cli_fail(m, "h5perf: HDF5_PARAPREFIX: data file names would be longer than %zu characters",
                 len - 1);
        return -1;
    }
    names_collapse(out);
    return 0;
}

/* The directory part of path ("." if none) and its last component. */
static void names_split(const char *path, char *dir, size_t dlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, dlen, ".");
    else if (slash == path)
        snprintf(dir, dlen, "/");
    else
        snprintf(dir, dlen, "%.*s", (int)(slash - path), path);
}

int names_canonical(const char *name, char *out, size_t len)
{
    char cur[PATH_MAX], next[PATH_MAX], dir[PATH_MAX], target[PATH_MAX];
    const char *base;
    snprintf(cur, sizeof cur, "%s", name);
    /* 40 links at most, as the kernel allows (ELOOP beyond). */
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
            break;
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0)
            break;
        target[n] = '\0';
        names_split(cur, dir, sizeof dir, &base);
        int w = target[0] == '/' ? snprintf(next, sizeof next, "%s", target)
                                 : snprintf(next, sizeof next, "%s/%s", dir, target);
        if (w < 0 || (size_t)w >= sizeof next)
            break;
        memcpy(cur, next, (size_t)w + 1);
    }
    names_split(cur, dir, sizeof dir, &base);
    char real[PATH_MAX];
    if (!realpath(dir, real)) {
        snprintf(out, len, "%s", name);
        return -1;
    }
    int w = snprintf(out, len, "%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", base);
    return w >= 0 && (size_t)w < len ? 0 : -1;
}

bool names_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char ca[PATH_MAX], cb[PATH_MAX], da[PATH_MAX], db[PATH_MAX];
    names_canonical(a, ca, sizeof ca);
    names_canonical(b, cb, sizeof cb);
    if (strcmp(ca, cb) == 0)
        return true;
    /* One name in one directory reached by two paths (a bind mount). */
    const char *ba, *bb;
    names_split(ca, da, sizeof da, &ba);
    names_split(cb, db, sizeof db, &bb);
    return strcmp(ba, bb) == 0 && stat(da, &sa) == 0 && stat(db, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The mount a path is on: statx's mount id where the system has it, else
 * the device (which misses a bind mount within one file system). */
static int names_mount_id(const char *path, bool follow, uint64_t *id)
{
#ifdef STATX_MNT_ID
    struct statx sx;
    if (statx(AT_FDCWD, path, follow ? 0 : AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &sx) == 0 &&
        (sx.stx_mask & STATX_MNT_ID)) {
        *id = sx.stx_mnt_id;
        return 0;
    }
#endif
    struct stat st;
    if ((follow ? stat(path, &st) : lstat(path, &st)) < 0)
        return -1;
    *id = (uint64_t)st.st_dev;
    return 0;
}

bool names_mount_point(const char *path)
{
    char dir[PATH_MAX];
    const char *base;
    uint64_t mine, parent;
    names_split(path, dir, sizeof dir, &base);
    return names_mount_id(path, false, &mine) == 0 && names_mount_id(dir, true, &parent) == 0 &&
           mine != parent;
}

int names_direct(const char *dir, const char *option, const char *existing, struct cli_msg *m)
{
#ifdef O_DIRECT
    char path[4200];
    int fd = existing ? open(existing, O_RDONLY | O_NOFOLLOW | O_DIRECT)
                      : names_probe_create(dir, "-direct", O_DIRECT, path, sizeof path);
    int errnum = existing ? errno : -fd;
    if (fd >= 0) {
        close(fd);
        if (!existing)
            unlink(path);
        return 0;
    }
    return cli_fail(m, "h5perf: %s: the file system of '%s' refuses O_DIRECT (%s); run without %s",
                    option, dir[0] ? dir : ".", strerror(errnum), option);
#else
    (void)dir, (void)existing;
    return cli_fail(m, "h5perf: %s: this system has no O_DIRECT", option);
#endif
}
