/* Unit tests of the options an API owns (api/api.h, api/hdf5_options.c,
 * api/pnetcdf_options.c): every API row named under its API's prefix and
 * refused without it (PnetCDF's also without -A, whose default APIs leave
 * PnetCDF out), the variants chosen by HDF5's and PnetCDF's options, their refusals (in a build
 * whose HDF5 lacks the subfiling driver or multi-dataset I/O, the exact line), the session's run
 * points of each variant, and the application patterns' table rows and ratios of a variant
 * ("shared, subfiled" over MPI-IO's shared run and over the file per process). No MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/hdf5_options.h"
#include "api/mpiio_options.h"
#include "api/pnetcdf_options.h"
#include "check.h"
#include "cli_args.h"
#include "cli/cli.h"
#include "cli/option.h"
#include "report/csv.h"
#include "report/table.h"
#include "report/text.h"
#include "session/session.h"
#include "options/options.h"

/* HDF5's and PnetCDF's own settings in cfg (api/hdf5_options.h,
 * api/pnetcdf_options.h), set directly as a build with what they ask
 * would parse them. */
static struct hdf5_settings *hdf5_in(struct config *cfg)
{
    return (struct hdf5_settings *)(void *)cfg->api[API_PHDF5].own.bytes;
}

static struct mpiio_settings *mpiio_in(struct config *cfg)
{
    return (struct mpiio_settings *)(void *)cfg->api[API_MPIIO].own.bytes;
}

static struct pnetcdf_settings *pnetcdf_in(struct config *cfg)
{
    return (struct pnetcdf_settings *)(void *)cfg->api[API_PNETCDF].own.bytes;
}

/* Records a's row name as given (its API's record, api_settings), with
 * raw. */
static void given(struct config *cfg, enum api_id a, const char *name, const char *raw)
{
    const struct opt_row *row = opt_find_long(name, strlen(name));
    int k = api_row_index(a, row);
    CHECK(k >= 0);
    if (k < 0)
        return;
    cfg->api[a].spelled[k] = row->long_name;
    cfg->api[a].raw[k] = raw;
}

/* The settings the writers show for cfg (cli/report_settings.c), in one
 * buffer each call overwrites. */
static const struct report_settings *settings_of(const struct config *cfg)
{
    static struct report_settings rs;
    config_report_settings(cfg, &rs);
    return &rs;
}

/* Every API row: --PREFIX.NAME, of its API alone, found by its name,
 * recorded by its API, and refused with one line when -A does not select
 * its API. */
static void test_rows(void)
{
    int rows = 0;
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_opts *o = api_desc((enum api_id)a)->opts;
        for (int k = 0; o && o->rows[k]; k++) {
            const struct opt_row *r = o->rows[k];
            char prefix[64];
            snprintf(prefix, sizeof prefix, "--%s.", o->prefix);
            CHECK(strncmp(r->long_name, prefix, strlen(prefix)) == 0);
            CHECK(r->apis == API_BIT(a));
            CHECK_I64(opt_api_owner(r), a);
            CHECK(opt_find_long(r->long_name, strlen(r->long_name)) == r);
            CHECK(r->json_key && r->json_everywhere);
            /* Its record is its API's (api_settings), in its slot. */
            CHECK(r->id == OPT_ID_API && k < API_MAX_ROWS);
            CHECK_I64(api_row_index((enum api_id)a, r), k);
            rows++;
        }
    }
    CHECK_I64(rows, 9);
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(finish(A("-A", "posix,mpiio", "--hdf5.driver", "mpio"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.driver: applies to HDF5 only, but -A 'posix,mpiio' does "
                        "not select it");
    /* Every pattern takes them. */
    CHECK_I64(finish(A("--pattern", "particles", "--hdf5.driver", "mpio"), &cfg, &msg), 0);
    CHECK_I64(finish(A("--pattern", "block", "--global", "8", "--hdf5.driver=MPIO"), &cfg, &msg),
              0);
    CHECK_I64(hdf5_in(&cfg)->drivers, 1);
    /* PnetCDF runs only when -A names it (docs/pnetcdf.md): without -A its
     * options are refused too. */
    CHECK_I64(finish(A("--pnetcdf.nonblocking"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --pnetcdf.nonblocking: applies to PnetCDF only, which runs only "
                        "when -A names it");
    CHECK_I64(finish(A("-A", "posix,phdf5", "--pnetcdf.nonblocking"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --pnetcdf.nonblocking: applies to PnetCDF only, but -A "
                        "'posix,phdf5' does not select it");
    /* Where -A can select PnetCDF (a build without it refuses -A pnetcdf
     * as it parses). */
    if (api_built(API_PNETCDF)) {
        CHECK_I64(finish(A("--pattern", "block", "--global", "8", "-A", "mpiio,pnetcdf",
                           "--pnetcdf.nonblocking"),
                         &cfg, &msg),
                  0);
        CHECK(pnetcdf_in(&cfg)->nonblocking);
    }
    /* Its value, with '=' only: "only", its calls alone. */
    CHECK_I64(parse(A("--pnetcdf.nonblocking=yes"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --pnetcdf.nonblocking 'yes': expected only (its calls alone) "
                        "or no value (beside the default calls)");
    CHECK_I64(parse(A("--pnetcdf.nonblocking=only", "-i", "2"), &cfg, &msg), 0);
    CHECK_I64(pnetcdf_in(&cfg)->nonblocking, OPT_JOIN_ONLY);
    CHECK_I64(cfg.iterations, 2);
    CHECK_I64(parse(A("--pnetcdf.nonblocking", "-i", "2"), &cfg, &msg), 0);
    CHECK_I64(pnetcdf_in(&cfg)->nonblocking, OPT_JOIN_BESIDE);
    /* MPI-IO's --mpiio.joined likewise. */
    CHECK_I64(finish(A("-A", "posix,phdf5", "--mpiio.joined"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --mpiio.joined: applies to MPI-IO only, but -A 'posix,phdf5' "
                        "does not select it");
    CHECK_I64(parse(A("--mpiio.joined=only"), &cfg, &msg), 0);
    CHECK_I64(mpiio_in(&cfg)->joined, OPT_JOIN_ONLY);
    CHECK_I64(finish(A("--pattern", "block", "--global", "8", "-A", "mpiio", "--mpiio.joined"),
                     &cfg, &msg),
              0);
    CHECK_I64(mpiio_in(&cfg)->joined, OPT_JOIN_BESIDE);
    /* --mpiio.atomic: a flag of MPI-IO's own settings, refused likewise. */
    CHECK_I64(finish(A("-A", "posix,phdf5", "--mpiio.atomic"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --mpiio.atomic: applies to MPI-IO only, but -A 'posix,phdf5' "
                        "does not select it");
    CHECK_I64(finish(A("-A", "mpiio", "--mpiio.atomic"), &cfg, &msg), 0);
    CHECK_I64(mpiio_in(&cfg)->atomic, 1);
    CHECK_I64(mpiio_in(&cfg)->joined, OPT_JOIN_OFF);
}

static void test_parse(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(parse(A("--hdf5.driver=mpio,posix"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.driver 'mpio,posix': unknown driver 'posix'; expected a "
                        "comma-separated list of mpio, subfiling");
    CHECK_I64(parse(A("--hdf5.driver", "mpio,"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.driver 'mpio,': empty driver ''; expected a "
                        "comma-separated list of mpio, subfiling");
    CHECK_I64(parse(A("--hdf5.subfiling-stripe", "0"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.subfiling-stripe '0': a size must be greater than 0");
    CHECK_I64(parse(A("--hdf5.multi-dataset=yes"), &cfg, &msg), -1);
    if (hdf5_built_multi_dataset())
        CHECK_STR(msg.line, "h5perf: --hdf5.multi-dataset 'yes': expected only (its calls alone) "
                            "or no value (beside the default calls)");
    else
        CHECK(strncmp(msg.line, "h5perf: --hdf5.multi-dataset: the HDF5 of this build (", 54) == 0);
    if (hdf5_built_multi_dataset()) {
        CHECK_I64(parse(A("--hdf5.multi-dataset=only"), &cfg, &msg), 0);
        CHECK_I64(hdf5_in(&cfg)->multi_dataset, OPT_JOIN_ONLY);
    }
    char want[320];
    int rc = parse(A("--hdf5.driver", "Subfiling,mpio"), &cfg, &msg);
    if (hdf5_built_subfiling()) {
        CHECK_I64(rc, 0);
        CHECK_I64(hdf5_in(&cfg)->drivers, 3);
    } else {
        snprintf(want, sizeof want,
                 "h5perf: --hdf5.driver 'Subfiling,mpio': the HDF5 of this build (%s) has no "
                 "subfiling driver (HDF5 1.14 or newer built with it: docs/install.md)",
                 H5PERF_TEST_HDF5_VERSION);
        CHECK_I64(rc, -1);
        CHECK_STR(msg.line, want);
    }
    rc = parse(A("--hdf5.multi-dataset"), &cfg, &msg);
    if (hdf5_built_multi_dataset()) {
        CHECK_I64(rc, 0);
        CHECK(hdf5_in(&cfg)->multi_dataset);
    } else {
        snprintf(want, sizeof want,
                 "h5perf: --hdf5.multi-dataset: the HDF5 of this build (%s) has no multi-dataset "
                 "I/O (H5Dwrite_multi, HDF5 1.14 or newer)",
                 H5PERF_TEST_HDF5_VERSION);
        CHECK_I64(rc, -1);
        CHECK_STR(msg.line, want);
    }
}

/* The API header line labelled label (api_header_at), its API in *api;
 * NULL when none is. */
static const struct api_header *header_labelled(const char *label, enum api_id *api)
{
    const struct api_header *h;
    for (int i = 0; (h = api_header_at(i, api)); i++)
        if (strcmp(h->label, label) == 0)
            return h;
    return NULL;
}

/* The reports' header lines of the APIs' options, in the table's order
 * (MPI-IO's, HDF5's, PnetCDF's); then --hdf5.collective-metadata and
 * --hdf5.metadata-block-size: their fields, and their line. */
static void test_metadata(void)
{
    struct config cfg;
    struct cli_msg msg;
    char text[96];
    static const char *const labels[] = {"MPI-IO calls", "MPI-IO consistency", "HDF5 metadata",
                                         "HDF5 calls", "PnetCDF calls"};
    static const enum api_id apis[] = {API_MPIIO, API_MPIIO, API_PHDF5, API_PHDF5, API_PNETCDF};
    enum api_id a = API_COUNT;
    int n = 0;
    for (const struct api_header *x; (x = api_header_at(n, &a)); n++)
        if (n < 5) {
            CHECK_STR(x->label, labels[n]);
            CHECK_I64(a, apis[n]);
        }
    CHECK_I64(n, 5);
    const struct api_header *h = header_labelled("HDF5 metadata", &a);
    CHECK(h == &hdf5_opts.headers[0] && a == API_PHDF5);
    if (!h)
        return;
    CHECK_STR(h->label, "HDF5 metadata");
    CHECK_I64(finish(A("--pattern", "block", "--global", "8"), &cfg, &msg), 0);
    CHECK(!h->text(&cfg.api[API_PHDF5], text, sizeof text));
    CHECK_STR(text, "independent operations, block size HDF5's");
    CHECK_I64(finish(A("--hdf5.collective-metadata"), &cfg, &msg), 0);
    CHECK(hdf5_in(&cfg)->coll_metadata && hdf5_in(&cfg)->meta_block == 0);
    CHECK(h->text(&cfg.api[API_PHDF5], text, sizeof text));
    CHECK_STR(text, "collective operations, block size HDF5's");
    CHECK_I64(finish(A("-A", "phdf5", "--hdf5.metadata-block-size", "64K"), &cfg, &msg), 0);
    CHECK(!hdf5_in(&cfg)->coll_metadata);
    CHECK_I64(hdf5_in(&cfg)->meta_block, 65536);
    CHECK(h->text(&cfg.api[API_PHDF5], text, sizeof text));
    CHECK_STR(text, "independent operations, block size 65536 bytes");
    CHECK_I64(finish(A("-A", "mpiio", "--hdf5.collective-metadata"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.collective-metadata: applies to HDF5 only, but -A 'mpiio' "
                        "does not select it");
}

/* The header of the guide's report (rank 0's) or of the table's, to be
 * freed. */
static char *header_of(const struct config *cfg, bool guide)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (guide)
        text_header(f, settings_of(cfg), 0, "1.14.6", 256);
    else
        table_header(f, settings_of(cfg), "1.14.6", "Workload\n");
    fclose(f);
    return text;
}

/* The API header lines in both writers: the guide's "rank 0: LABEL=TEXT"
 * after its storage line, the table's "LABEL: TEXT" after its I/O
 * method; none where no option they show was given. */
static void test_header_lines(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(
        finish(A("--hdf5.collective-metadata", "--hdf5.metadata-block-size", "4K"), &cfg, &msg), 0);
    char *text = header_of(&cfg, true);
    CHECK(strstr(text, "rank 0: Data storage method in HDF5=Contiguous\n"
                       "rank 0: HDF5 metadata=collective operations, block size 4096 bytes\n"
                       "rank 0: Env HDF5_PARAPREFIX=") != NULL);
    free(text);
    text = header_of(&cfg, false);
    CHECK(strstr(text, "I/O method for MPI-IO and HDF5: independent\n"
                       "HDF5 metadata: collective operations, block size 4096 bytes\n"
                       "Iterations: ") != NULL);
    free(text);
    CHECK_I64(finish(A("-A", "phdf5"), &cfg, &msg), 0);
    for (int guide = 0; guide < 2; guide++) {
        text = header_of(&cfg, guide);
        CHECK(strstr(text, "HDF5 metadata") == NULL);
        free(text);
    }
}

/* HDF5's finish, on configurations set directly (as a build with the
 * subfiling driver would parse them). */
static void test_finish(void)
{
    struct config cfg;
    struct cli_msg msg;
    struct cli_warnings w;
    CHECK_I64(finish(A("--hdf5.ioc-per-node", "2"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.ioc-per-node: applies to the subfiling driver only; give "
                        "--hdf5.driver subfiling (or mpio,subfiling)");
    CHECK_I64(finish(A("--hdf5.driver", "mpio", "--hdf5.subfiling-stripe", "1M"), &cfg, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.subfiling-stripe: applies to the subfiling driver only; "
                        "give --hdf5.driver subfiling (or mpio,subfiling)");
    CHECK_I64(parse(A("-C", "--hdf5.driver", "mpio"), &cfg, &msg), 0);
    hdf5_in(&cfg)->drivers = 3;
    given(&cfg, API_PHDF5, "--hdf5.driver", "mpio,subfiling");
    CHECK_I64(config_finish(&cfg, 4, &w, &msg), -1);
    CHECK_STR(msg.line, "h5perf: -C: HDF5's subfiling driver does no collective I/O (it fails "
                        "collective requests of several pieces); give --hdf5.driver without "
                        "subfiling, or leave out -C");
    CHECK_I64(parse(A("--hdf5.driver", "mpio", "--stonewall", "10"), &cfg, &msg), 0);
    hdf5_in(&cfg)->multi_dataset = OPT_JOIN_BESIDE;
    given(&cfg, API_PHDF5, "--hdf5.multi-dataset", NULL);
    CHECK_I64(config_finish(&cfg, 4, &w, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --hdf5.multi-dataset: cannot be combined with --stonewall (the "
                        "deadline stops variables one at a time; a multi-dataset call moves them "
                        "together)");
    CHECK_I64(parse(A("--stonewall", "10"), &cfg, &msg), 0);
    cfg.apis = API_BIT(API_PNETCDF);
    cfg.raw[OPT_API] = "pnetcdf";
    pnetcdf_in(&cfg)->nonblocking = OPT_JOIN_BESIDE;
    given(&cfg, API_PNETCDF, "--pnetcdf.nonblocking", NULL);
    CHECK_I64(config_finish(&cfg, 4, &w, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --pnetcdf.nonblocking: cannot be combined with --stonewall (the "
                        "deadline stops variables one at a time; one wait completes them "
                        "together)");
    CHECK_I64(parse(A("--read-only", "--hdf5.driver", "mpio"), &cfg, &msg), 0);
    hdf5_in(&cfg)->drivers = 2;
    given(&cfg, API_PHDF5, "--hdf5.driver", "subfiling");
    CHECK_I64(config_finish(&cfg, 4, &w, &msg), -1);
    CHECK_STR(msg.line, "h5perf: --read-only: cannot be combined with --hdf5.driver 'subfiling' "
                        "(h5perf cannot check a kept subfiled file before it reads it)");
}

/* The variants chosen, and which need threads. */
static void test_variants(void)
{
    struct config cfg;
    config_init(&cfg);
    CHECK_I64(api_variants(cfg.api, API_PHDF5), 1);
    CHECK_I64(api_variants(cfg.api, API_MPIIO), 1);
    CHECK_I64(api_need_threads(cfg.apis, cfg.api), -1);
    hdf5_in(&cfg)->drivers = 2;
    CHECK_I64(api_variants(cfg.api, API_PHDF5), 2);
    CHECK_I64(api_need_threads(cfg.apis, cfg.api), API_PHDF5);
    cfg.apis = API_BIT(API_POSIX); /* -A without HDF5: nothing of its */
    CHECK_I64(api_need_threads(cfg.apis, cfg.api), -1);
    cfg.apis = 0;
    hdf5_in(&cfg)->drivers = 1;
    hdf5_in(&cfg)->multi_dataset = OPT_JOIN_BESIDE;
    CHECK_I64(api_variants(cfg.api, API_PHDF5), 1 | 4);
    CHECK_I64(api_need_threads(cfg.apis, cfg.api), -1);
    hdf5_in(&cfg)->multi_dataset = OPT_JOIN_ONLY; /* =only: the multi-dataset calls alone */
    CHECK_I64(api_variants(cfg.api, API_PHDF5), 4);
    hdf5_in(&cfg)->drivers = 3;
    CHECK_I64(api_variants(cfg.api, API_PHDF5), 4 | 8);
    hdf5_in(&cfg)->multi_dataset = OPT_JOIN_BESIDE;
    CHECK_I64(api_variants(cfg.api, API_PHDF5), 15);
    char text[64];
    static const char *const labels[] = {"shared", "shared, subfiled", "shared, multi-dataset",
                                         "shared, subfiled, multi-dataset"};
    for (int v = 0; v < 4; v++) {
        CHECK_I64(hdf5_variant_driver(v), v % 2);
        CHECK(hdf5_variant_multi(v) == (v >= 2));
        CHECK(api_variant(API_PHDF5, v)->joins_vars == (v >= 2));
        CHECK(api_variant(API_PHDF5, v)->threads == (v % 2 == 1));
        CHECK_I64(api_variant_per_process(API_PHDF5, v), v >= 2 ? 2 : 0);
        api_variant_text(API_PHDF5, v, "shared", text, sizeof text);
        CHECK_STR(text, labels[v]);
    }
    CHECK_STR(api_report_name(API_PHDF5, 1), "PHDF5 (w/subfiling driver)");
    CHECK_STR(api_report_name(API_MPIIO, 0), "MPIO");
    /* MPI-IO: a call per variable, and with --mpiio.joined every
     * variable's step in one call; both in a file per process too. */
    config_init(&cfg);
    CHECK_I64(api_variants(cfg.api, API_MPIIO), 1);
    mpiio_in(&cfg)->joined = OPT_JOIN_BESIDE;
    CHECK_I64(api_variants(cfg.api, API_MPIIO), 3);
    mpiio_in(&cfg)->joined = OPT_JOIN_ONLY;
    CHECK_I64(api_variants(cfg.api, API_MPIIO), 2);
    static const char *const mpiio_labels[] = {"shared", "shared, joined"};
    for (int v = 0; v < MPIIO_VARIANT_COUNT; v++) {
        CHECK(api_variant(API_MPIIO, v)->joins_vars == (v == MPIIO_JOINED));
        CHECK(!api_variant(API_MPIIO, v)->threads);
        CHECK_I64(api_variant_per_process(API_MPIIO, v), v);
        api_variant_text(API_MPIIO, v, "shared", text, sizeof text);
        CHECK_STR(text, mpiio_labels[v]);
    }
    CHECK_STR(api_report_name(API_MPIIO, 1), "MPIO (joined)");
    /* PnetCDF: blocking calls, and with --pnetcdf.nonblocking every
     * variable's step posted and completed by one wait; both in a file
     * per process too, neither with threads. */
    config_init(&cfg);
    CHECK_I64(api_variants(cfg.api, API_PNETCDF), 1);
    pnetcdf_in(&cfg)->nonblocking = OPT_JOIN_BESIDE;
    CHECK_I64(api_variants(cfg.api, API_PNETCDF), 3);
    CHECK_I64(api_need_threads(cfg.apis, cfg.api), -1);
    /* The reports' header line says which calls run, and that beside the
     * blocking run the nonblocking one follows it, warm. */
    enum api_id hapi = API_COUNT;
    const struct api_header *ph = header_labelled("PnetCDF calls", &hapi);
    char line[192];
    CHECK(ph && hapi == API_PNETCDF && ph->text(&cfg.api[API_PNETCDF], line, sizeof line));
    if (ph)
        CHECK_STR(line, "blocking, then nonblocking in the same processes (warmed by the "
                        "blocking run; --pnetcdf.nonblocking=only: alone)");
    pnetcdf_in(&cfg)->nonblocking = OPT_JOIN_ONLY;
    CHECK_I64(api_variants(cfg.api, API_PNETCDF), 2);
    if (ph && ph->text(&cfg.api[API_PNETCDF], line, sizeof line))
        CHECK_STR(line, "nonblocking alone");
    pnetcdf_in(&cfg)->nonblocking = OPT_JOIN_OFF;
    CHECK(!ph || !ph->text(&cfg.api[API_PNETCDF], line, sizeof line));
    pnetcdf_in(&cfg)->nonblocking = OPT_JOIN_BESIDE;
    static const char *const pnc_labels[] = {"fpp", "fpp, nonblocking"};
    for (int v = 0; v < PNETCDF_VARIANT_COUNT; v++) {
        CHECK(api_variant(API_PNETCDF, v)->joins_vars == (v == PNETCDF_NONBLOCKING));
        CHECK(!api_variant(API_PNETCDF, v)->threads);
        CHECK_I64(api_variant_per_process(API_PNETCDF, v), v);
        api_variant_text(API_PNETCDF, v, "fpp", text, sizeof text);
        CHECK_STR(text, pnc_labels[v]);
    }
    CHECK_STR(api_report_name(API_PNETCDF, 0), "PnetCDF");
    CHECK_STR(api_report_name(API_PNETCDF, 1), "PnetCDF (nonblocking)");
}

static void dims_none(int nprocs, int ndims, int *dims)
{
    (void)nprocs;
    for (int d = 0; d < ndims; d++)
        dims[d] = d == 0 ? 2 : 1;
}

/* The session's points: each HDF5 point once per variant, MPI-IO's once;
 * a file per process in the variants such a file runs, each once. */
static void test_session(void)
{
    struct config cfg;
    struct cli_msg msg;
    struct cli_warnings w;
    struct session s;
    CHECK_I64(parse(A("--pattern", "block", "--global", "8", "-A", "mpiio,phdf5", "--layout",
                      "shared,fpp", "-p", "2", "--vars", "2"),
                    &cfg, &msg),
              0);
    hdf5_in(&cfg)->drivers = 3;
    hdf5_in(&cfg)->multi_dataset = OPT_JOIN_BESIDE;
    CHECK_I64(config_finish(&cfg, 2, &w, &msg), 0);
    CHECK_I64(session_build_input(&s, &cfg, NULL, 0, dims_none, &msg), 0);
    static const struct {
        int api, layout, variant;
        const char *label;
    } want[] = {
        {API_MPIIO, LAYOUT_SHARED, 0, "layout shared"},
        {API_PHDF5, LAYOUT_SHARED, 0, "layout shared"},
        {API_PHDF5, LAYOUT_SHARED, 1, "layout shared, subfiled"},
        {API_PHDF5, LAYOUT_SHARED, 2, "layout shared, multi-dataset"},
        {API_PHDF5, LAYOUT_SHARED, 3, "layout shared, subfiled, multi-dataset"},
        {API_MPIIO, LAYOUT_FPP, 0, "layout fpp"},
        {API_PHDF5, LAYOUT_FPP, 0, "layout fpp"},
        {API_PHDF5, LAYOUT_FPP, 2, "layout fpp, multi-dataset"},
    };
    CHECK_I64(s.npoints, sizeof want / sizeof want[0]);
    for (int i = 0; i < s.npoints && i < (int)(sizeof want / sizeof want[0]); i++) {
        const struct session_point *sp = &s.points[i];
        CHECK_I64(sp->p.api, want[i].api);
        CHECK_I64(sp->p.layout, want[i].layout);
        CHECK_I64(sp->p.variant, want[i].variant);
        CHECK_STR(sp->label, want[i].label);
        /* One buffer per variable where every variable moves in one call. */
        int64_t one = s.points[0].m.max_buffer;
        CHECK_I64(sp->m.max_buffer, want[i].variant >= 2 ? 2 * one : one);
    }
    CHECK_I64(s.counts[0].n, s.npoints);
    session_release(&s);
    /* PnetCDF's points: each layout blocking, then nonblocking, with a
     * buffer per variable (-A set directly: a build without PnetCDF
     * refuses -A pnetcdf as it parses). */
    CHECK_I64(parse(A("--pattern", "block", "--global", "8", "--layout", "shared,fpp", "-p", "2",
                      "--vars", "3"),
                    &cfg, &msg),
              0);
    cfg.apis = API_BIT(API_PNETCDF);
    cfg.raw[OPT_API] = "pnetcdf";
    pnetcdf_in(&cfg)->nonblocking = OPT_JOIN_BESIDE;
    CHECK_I64(config_finish(&cfg, 2, &w, &msg), 0);
    CHECK_I64(session_build_input(&s, &cfg, NULL, 0, dims_none, &msg), 0);
    static const char *const pnc[] = {"layout shared", "layout shared, nonblocking", "layout fpp",
                                      "layout fpp, nonblocking"};
    CHECK_I64(s.npoints, 4);
    for (int i = 0; i < s.npoints && i < 4; i++) {
        CHECK_I64(s.points[i].p.api, API_PNETCDF);
        CHECK_I64(s.points[i].p.variant, i % 2);
        CHECK_STR(s.points[i].label, pnc[i]);
        int64_t one = s.points[i - i % 2].m.max_buffer;
        CHECK_I64(s.points[i].m.max_buffer, i % 2 ? 3 * one : one);
    }
    session_release(&s);
}

/* A run of the log with write and read throughputs of mibs MiB/s. */
static void add_run(struct results_log *log, int api, int layout, int variant, double mibs)
{
    struct api_result r;
    CHECK(results_init(&r, (enum api_id)api, 2, 1048576, 1048576, 1) == 0);
    r.layout = layout;
    r.variant = variant;
    struct iter_result *it = results_next_iteration(&r);
    for (int t = 0; t < TIMER_COUNT; t++)
        it->t[t] = (struct timer_stat){1.0 / mibs, 1.0 / mibs, 2.0 / mibs};
    CHECK(results_log_add(log, &r) == 0);
}

/* The table's rows: a variant after its layout, its ratios over MPI-IO's
 * run of the layout and over the file per process the variant's files
 * would be (the MPI-IO driver's for "shared, subfiled"). */
static void test_table(void)
{
    struct config cfg;
    struct cli_msg msg;
    struct cli_warnings w;
    CHECK_I64(parse(A("--pattern", "block", "--global", "8", "-A", "mpiio,phdf5", "--layout",
                      "shared,fpp"),
                    &cfg, &msg),
              0);
    hdf5_in(&cfg)->drivers = 3;
    CHECK_I64(config_finish(&cfg, 2, &w, &msg), 0);
    struct results_log log;
    results_log_init(&log);
    add_run(&log, API_MPIIO, LAYOUT_SHARED, 0, 100);
    add_run(&log, API_PHDF5, LAYOUT_SHARED, 0, 50);
    add_run(&log, API_PHDF5, LAYOUT_SHARED, 1, 80);
    add_run(&log, API_MPIIO, LAYOUT_FPP, 0, 200);
    add_run(&log, API_PHDF5, LAYOUT_FPP, 0, 160);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    table_write(f, settings_of(&cfg), &log, 2, "grid 2");
    fclose(f);
    CHECK_STR(text,
              "Number of processors = 2 (grid 2); MB/s including open and close\n"
              "                             Write MB/s                     Read MB/s\n"
              "    API     Layout                 Max       Avg       Min       Max       Avg"
              "       Min\n"
              "    MPI-IO  shared              100.00    100.00    100.00    100.00    100.00"
              "    100.00\n"
              "    MPI-IO  fpp                 200.00    200.00    200.00    200.00    200.00"
              "    200.00\n"
              "    HDF5    shared               50.00     50.00     50.00     50.00     50.00"
              "     50.00\n"
              "    HDF5    shared, subfiled     80.00     80.00     80.00     80.00     80.00"
              "     80.00\n"
              "    HDF5    fpp                 160.00    160.00    160.00    160.00    160.00"
              "    160.00\n"
              "Library overhead: throughput over MPI-IO's on the same layout (averages)\n"
              "    API     Layout             Write    Read\n"
              "    HDF5    shared              0.50    0.50\n"
              "    HDF5    shared, subfiled    0.80    0.80\n"
              "    HDF5    fpp                 0.80    0.80\n"
              "Shared file: throughput over the file per process's with the same API (averages)\n"
              "    API     Layout             Write    Read\n"
              "    MPI-IO  shared              0.50    0.50\n"
              "    HDF5    shared              0.31    0.31\n"
              "    HDF5    shared, subfiled    0.50    0.50\n"
              "\n");
    free(text);
    results_log_release(&log);
}

/* The CSV's last column: the variant's label (quoted when it holds a
 * comma), empty for the API's default. */
static void test_csv(void)
{
    struct config cfg;
    struct cli_msg msg;
    CHECK_I64(parse(A("--pattern", "block", "--global", "8", "-w"), &cfg, &msg), 0);
    struct results_log log;
    results_log_init(&log);
    add_run(&log, API_PHDF5, LAYOUT_SHARED, 0, 1);
    add_run(&log, API_PHDF5, LAYOUT_SHARED, 3, 1);
    add_run(&log, API_PNETCDF, LAYOUT_FPP, PNETCDF_NONBLOCKING, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    csv_write(f, settings_of(&cfg), &log);
    fclose(f);
    CHECK_STR(text,
              CSV_HEADER "\n"
                         "2,1048576,phdf5,write,1,ok,1048576,1,1,1,1,,shared,,,,0\n"
                         "2,1048576,phdf5,write_open_close,1,ok,1048576,1,1,1,1,,shared,,,,0\n"
                         "2,1048576,phdf5,write,1,ok,1048576,1,1,1,1,,shared,,,"
                         "\"subfiled, multi-dataset\",0\n"
                         "2,1048576,phdf5,write_open_close,1,ok,1048576,1,1,1,1,,shared,,,"
                         "\"subfiled, multi-dataset\",0\n"
                         "2,1048576,pnetcdf,write,1,ok,1048576,1,1,1,1,,fpp,,,nonblocking,0\n"
                         "2,1048576,pnetcdf,write_open_close,1,ok,1048576,1,1,1,1,,fpp,,,"
                         "nonblocking,0\n");
    free(text);
    results_log_release(&log);
}

int main(void)
{
    test_rows();
    test_parse();
    test_finish();
    test_metadata();
    test_header_lines();
    test_variants();
    test_session();
    test_table();
    test_csv();
    return check_done("test_api_options");
}
