/* Unit tests of --version: how the parser takes it (like -h, it wins over
 * errors; the first of -h and --version wins) and report_version()'s exact
 * lines for a fixed run context. No MPI. */
#include <stdio.h>
#include <string.h>

#include "../unit/check.h"
#include "cli/cli.h"
#include "report/version.h"
#include "options/options.h"
#include "pattern/guide_options.h"

/* opt_parse of "h5perf" and up to 4 arguments. */
static int parse(const char *a0, const char *a1, const char *a2, struct config *cfg,
                 struct cli_msg *msg)
{
    const char *argv[5] = {"h5perf", a0, a1, a2, NULL};
    int argc = 1;
    while (argc < 4 && argv[argc] != NULL)
        argc++;
    config_init(cfg);
    return opt_parse(argc, (char *const *)argv, cfg, msg);
}

static void test_parse(void)
{
    struct config cfg;
    struct cli_msg msg;

    CHECK_I64(parse("--version", NULL, NULL, &cfg, &msg), 0);
    CHECK(cfg.version && !cfg.help);
    CHECK_STR(msg.line, "");
    /* an error before it, or after it, does not matter */
    CHECK_I64(parse("-Q", "--version", NULL, &cfg, &msg), 0);
    CHECK(cfg.version);
    CHECK_STR(msg.line, "");
    CHECK_I64(parse("--version", "-e", "10Q", &cfg, &msg), 0);
    CHECK(cfg.version && guide_of(&cfg)->bytes == 0);
    /* the first of -h and --version wins */
    CHECK_I64(parse("--version", "-h", NULL, &cfg, &msg), 0);
    CHECK(cfg.version && !cfg.help);
    CHECK_I64(parse("-h", "--version", NULL, &cfg, &msg), 0);
    CHECK(cfg.help && !cfg.version);
    /* a flag: no value, no short form, no abbreviation */
    CHECK_I64(parse("--version=x", NULL, NULL, &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --version 'x': this option takes no value");
    CHECK_I64(parse("--vers", NULL, NULL, &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: unknown option '--vers'");
    CHECK_I64(parse("-V", NULL, NULL, &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: unknown option '-V'");
}

static void test_lines(void)
{
    struct run_context c;
    char text[4096], want[4096] = "";
    memset(&c, 0, sizeof c);
    snprintf(c.version, sizeof c.version, "1.2.3");
    snprintf(c.commit, sizeof c.commit, "0123456789ab");
    snprintf(c.build_type, sizeof c.build_type, "Release");
    snprintf(c.compiler, sizeof c.compiler, "GNU 12.2.0");
    snprintf(c.c_flags, sizeof c.c_flags, "-O3 -DNDEBUG");
    snprintf(c.hdf5_version, sizeof c.hdf5_version, "1.10.8");
    snprintf(c.mpi_library, sizeof c.mpi_library, "Open MPI v4.1.4, package: Debian OpenMPI");
    snprintf(c.mpi_version, sizeof c.mpi_version, "3.1");
    snprintf(c.api_versions[API_POSIX], sizeof c.api_versions[0], "glibc 2.36, Linux 6.1.0");
    snprintf(c.api_versions[API_PHDF5], sizeof c.api_versions[0], "HDF5 1.10.8");

    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f == NULL)
        return;
    CHECK_I64(report_version(f, &c), 0);
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);

    strcat(want, "h5perf 1.2.3\n"
                 "commit: 0123456789ab\n"
                 "build: Release; GNU 12.2.0; -O3 -DNDEBUG\n"
                 "hdf5: 1.10.8\n"
                 "mpi: Open MPI v4.1.4, package: Debian OpenMPI (MPI 3.1)\n"
                 "apis: posix mpiio phdf5");
    if (api_built(API_PNETCDF))
        strcat(want, " pnetcdf");
    strcat(want, "\nposix: glibc 2.36, Linux 6.1.0\n"
                 "phdf5: HDF5 1.10.8\n");
    CHECK_STR(text, want);
}

int main(void)
{
    test_parse();
    test_lines();
    return check_done("test_version");
}
