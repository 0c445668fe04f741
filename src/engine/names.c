/* names_dir(), names_probe(), names_file() (names.h). The probe is the only
 * file h5perf creates before validation ends; it is created exclusively under
 * a name of its own and removed at once. */
/* O_DIRECT is a Linux extension. */
#define _GNU_SOURCE
#include "engine/names.h"

#include <errno.h>
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

int names_dir(const char *prefix, const char *user, bool create, char *dir, size_t len,
              struct cli_msg *m)
{
    dir[0] = '\0';
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
        if (n >= 0 && (size_t)n < len && stat(dir, &st) < 0 &&
            (!create || (mkdir(dir, 0755) < 0 && errno != EEXIST)))
            n = snprintf(dir, len, "%s", prefix);
    }
    if (n < 0 || (size_t)n >= len) {
        cli_fail(m, "h5perf: HDF5_PARAPREFIX '%.200s': path too long", prefix);
        return -1;
    }
    names_collapse(dir);
    return 0;
}

int names_probe(const char *prefix, const char *dir, struct cli_msg *m)
{
    char path[4200];
    int fd = -1, errnum = 0;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(path, sizeof path, "%s%s.h5perf-probe-%ld-%d", dir, dir[0] ? "/" : "",
                 (long)getpid(), attempt);
        fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
        errnum = fd < 0 ? errno : 0;
        if (fd < 0 && errnum != EEXIST)
            break;
    }
    if (fd >= 0) {
        close(fd);
        unlink(path);
        return 0;
    }
    if (prefix && prefix[0]) {
        cli_fail(m, "h5perf: HDF5_PARAPREFIX '%s': cannot create files in '%s': %s", prefix, dir,
                 strerror(errnum));
    } else {
        char cwd[2048];
        if (!getcwd(cwd, sizeof cwd))
            snprintf(cwd, sizeof cwd, ".");
        cli_fail(m,
                 "h5perf: cannot create files in the current directory '%s': %s "
                 "(set HDF5_PARAPREFIX to a writable directory)",
                 cwd, strerror(errnum));
    }
    return -1;
}

int names_file(const char *dir, int f, const char *suffix, char *out, size_t len, struct cli_msg *m)
{
    int n = snprintf(out, len, "%s%s#pio_tmp_%d%s", dir, dir[0] ? "/" : "", f, suffix);
    if (n < 0 || (size_t)n >= len) {
        cli_fail(m, "h5perf: HDF5_PARAPREFIX: data file names would be longer than %zu characters",
                 len - 1);
        return -1;
    }
    names_collapse(out);
    return 0;
}

int names_direct(const char *dir, const char *option, const char *existing, struct cli_msg *m)
{
#ifdef O_DIRECT
    char path[4200];
    int fd = -1, errnum = 0;
    if (existing) {
        fd = open(existing, O_RDONLY | O_NOFOLLOW | O_DIRECT);
        errnum = fd < 0 ? errno : 0;
    } else {
        for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
            snprintf(path, sizeof path, "%s%s.h5perf-probe-direct-%ld-%d", dir, dir[0] ? "/" : "",
                     (long)getpid(), attempt);
            fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_DIRECT, 0600);
            errnum = fd < 0 ? errno : 0;
            if (fd < 0 && errnum != EEXIST)
                break;
        }
    }
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
