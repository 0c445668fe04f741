/* Unit tests of data file naming (docs/original.md §4.1): prefix, $USER level,
 * collapsed slashes, the length limit, and the probe. Uses a temporary
 * directory; no MPI calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/check.h"
#include "backend/backend.h"
#include "engine/names.h"

static void touch(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
}

/* names_canonical()/names_same_file(): every path that leads to one file. */
static void check_same_file(void)
{
    char tmp[] = "/tmp/h5perf-same-XXXXXX", a[256], out[4096];
    CHECK(mkdtemp(tmp) != NULL);
    CHECK(chdir(tmp) == 0);
    CHECK(mkdir("sub", 0755) == 0);
    /* Neither exists: the same canonical path through "sub/..", "./". */
    CHECK(names_same_file("sub/../x.json", "./x.json"));
    CHECK(!names_same_file("x.json", "y.json"));
    CHECK(names_canonical("sub/../x.json", out, sizeof out) == 0);
    snprintf(a, sizeof a, "%s/x.json", tmp);
    CHECK_STR(out, a);
    /* A dangling symbolic link leads where open(O_CREAT) would create. */
    CHECK(symlink("sub/target", "link") == 0);
    CHECK(names_same_file("link", "sub/target"));
    CHECK(symlink("link", "link2") == 0); /* a chain */
    CHECK(names_same_file("link2", "sub/target"));
    /* A directory reached through a symbolic link. */
    CHECK(symlink("sub", "subl") == 0);
    CHECK(names_same_file("subl/target", "sub/target"));
    /* Existing files: hard links are one file; distinct files are not. */
    touch(tmp, "sub/target");
    CHECK(link("sub/target", "hard") == 0);
    CHECK(names_same_file("hard", "link2"));
    touch(tmp, "other");
    CHECK(!names_same_file("other", "hard"));
    const char *rm[] = {"hard", "other", "sub/target", "link", "link2", "subl"};
    for (size_t i = 0; i < sizeof rm / sizeof rm[0]; i++)
        CHECK(unlink(rm[i]) == 0);
    CHECK(rmdir("sub") == 0);
    CHECK(chdir("/") == 0 && rmdir(tmp) == 0);
    /* The root's canonical form has one slash. */
    CHECK(names_canonical("/", out, sizeof out) == 0);
    CHECK_STR(out, "/");
}

/* backend_replaceable() and names_mount_point(): what --overwrite may
 * replace. */
static void check_replaceable(void)
{
    char tmp[] = "/tmp/h5perf-repl-XXXXXX", why[160], want[160];
    struct stat st;
    CHECK(mkdtemp(tmp) != NULL);
    CHECK(chdir(tmp) == 0);
    touch(tmp, "mine");
    CHECK(lstat("mine", &st) == 0);
    CHECK(backend_replaceable(&st, true, why, sizeof why) == 0);
    CHECK(!names_mount_point("mine"));
    CHECK(link("mine", "second") == 0);
    CHECK(lstat("mine", &st) == 0);
    CHECK(backend_replaceable(&st, true, why, sizeof why) == -1);
    CHECK_STR(why, "has 2 hard links (other names share its data)");
    CHECK(symlink("mine", "sym") == 0);
    CHECK(lstat("sym", &st) == 0);
    CHECK(backend_replaceable(&st, true, why, sizeof why) == -1);
    CHECK_STR(why, "exists and is not a regular file (a symbolic link?)");
    CHECK(!names_mount_point("sym"));
    CHECK(unlink("second") == 0);
    CHECK(lstat("mine", &st) == 0);
    st.st_uid = geteuid() + 1; /* as if another user's */
    CHECK(backend_replaceable(&st, true, why, sizeof why) == -1);
    snprintf(want, sizeof want, "belongs to user %u, not to the user running h5perf (%u)",
             (unsigned)geteuid() + 1, (unsigned)geteuid());
    CHECK_STR(why, want);
    CHECK(backend_replaceable(&st, false, why, sizeof why) == 0); /* a file this run made */
    CHECK(names_mount_point("/proc")); /* another file system on the name */
    CHECK(unlink("sym") == 0 && unlink("mine") == 0);
    CHECK(chdir("/") == 0 && rmdir(tmp) == 0);
}

int main(void)
{
    struct cli_msg m;
    char out[4096], dir[4096];

    CHECK(names_file("", 1, -1, ".posix", out, sizeof out, &m) == 0);
    CHECK_STR(out, "#pio_tmp_1.posix");
    CHECK(names_file("/a//b/", 12, -1, ".h5", out, sizeof out, &m) == 0);
    CHECK_STR(out, "/a/b/#pio_tmp_12.h5");
    CHECK(names_file("/a/", 1, 7, ".posix", out, sizeof out, &m) == 0);
    CHECK_STR(out, "/a/#pio_tmp_1.7.posix");
    CHECK(names_file("/a", 1, -1, ".mpio", out, 10, &m) == -1);
    CHECK_STR(m.line, "h5perf: HDF5_PARAPREFIX: data file names would be longer than 9 characters");

    CHECK(names_dir(NULL, "alice", true, dir, sizeof dir, NULL, &m) == 0);
    CHECK_STR(dir, "");
    CHECK(names_dir("", "alice", true, dir, sizeof dir, NULL, &m) == 0);
    CHECK_STR(dir, "");

    char tmp[] = "/tmp/h5perf-names-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    char prefix[128], want[160];
    snprintf(prefix, sizeof prefix, "%s//", tmp);
    CHECK(names_dir(prefix, "alice", true, dir, sizeof dir, NULL, &m) == 0);
    snprintf(want, sizeof want, "%s/alice", tmp);
    CHECK_STR(dir, want);
    struct stat st;
    CHECK(stat(want, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK(names_probe(prefix, dir, &m) == 0);
    CHECK(rmdir(want) == 0); /* the probe left nothing behind */
    CHECK(names_dir(tmp, NULL, true, dir, sizeof dir, NULL, &m) == 0);
    CHECK_STR(dir, tmp);
    /* create == false: a missing $USER level is not made; the prefix serves */
    CHECK(names_dir(tmp, "bob", false, dir, sizeof dir, NULL, &m) == 0);
    snprintf(want, sizeof want, "%s/bob", tmp);
    CHECK(stat(want, &st) < 0);
    CHECK_STR(dir, tmp);

    CHECK(names_dir("/nonexistent/h5perf", "alice", true, dir, sizeof dir, NULL, &m) == -1);
    CHECK_STR(m.line, "h5perf: HDF5_PARAPREFIX '/nonexistent/h5perf': no such directory");
    CHECK(names_probe("/proc", "/proc", &m) == -1);
    const char *want_probe = "h5perf: HDF5_PARAPREFIX '/proc': cannot create files in '/proc': ";
    CHECK(strncmp(m.line, want_probe, strlen(want_probe)) == 0);
    CHECK(rmdir(tmp) == 0);
    check_same_file();
    check_replaceable();
    return check_done("test_names");
}
