/* Unit tests of data file naming (SPEC 4.1): prefix, $USER level, collapsed
 * slashes, the length limit, and the probe. Uses a temporary directory; no
 * MPI calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/check.h"
#include "engine/names.h"

int main(void)
{
    struct cli_msg m;
    char out[4096], dir[4096];

    CHECK(names_file("", 1, ".posix", out, sizeof out, &m) == 0);
    CHECK_STR(out, "#pio_tmp_1.posix");
    CHECK(names_file("/a//b/", 12, ".h5", out, sizeof out, &m) == 0);
    CHECK_STR(out, "/a/b/#pio_tmp_12.h5");
    CHECK(names_file("/a", 1, ".mpio", out, 10, &m) == -1);
    CHECK_STR(m.line, "h5perf: HDF5_PARAPREFIX: data file names would be longer than 9 characters");

    CHECK(names_dir(NULL, "alice", true, dir, sizeof dir, &m) == 0);
    CHECK_STR(dir, "");
    CHECK(names_dir("", "alice", true, dir, sizeof dir, &m) == 0);
    CHECK_STR(dir, "");

    char tmp[] = "/tmp/h5perf-names-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    char prefix[128], want[160];
    snprintf(prefix, sizeof prefix, "%s//", tmp);
    CHECK(names_dir(prefix, "alice", true, dir, sizeof dir, &m) == 0);
    snprintf(want, sizeof want, "%s/alice", tmp);
    CHECK_STR(dir, want);
    struct stat st;
    CHECK(stat(want, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK(names_probe(prefix, dir, &m) == 0);
    CHECK(rmdir(want) == 0); /* the probe left nothing behind */
    CHECK(names_dir(tmp, NULL, true, dir, sizeof dir, &m) == 0);
    CHECK_STR(dir, tmp);
    /* create == false: a missing $USER level is not made; the prefix serves */
    CHECK(names_dir(tmp, "bob", false, dir, sizeof dir, &m) == 0);
    snprintf(want, sizeof want, "%s/bob", tmp);
    CHECK(stat(want, &st) < 0);
    CHECK_STR(dir, tmp);

    CHECK(names_dir("/nonexistent/h5perf", "alice", true, dir, sizeof dir, &m) == -1);
    CHECK_STR(m.line, "h5perf: HDF5_PARAPREFIX '/nonexistent/h5perf': no such directory");
    CHECK(names_probe("/proc", "/proc", &m) == -1);
    const char *want_probe = "h5perf: HDF5_PARAPREFIX '/proc': cannot create files in '/proc': ";
    CHECK(strncmp(m.line, want_probe, strlen(want_probe)) == 0);
    CHECK(rmdir(tmp) == 0);
    return check_done("test_names");
}
