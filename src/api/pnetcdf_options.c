/* PnetCDF's own rows of the option table (cli/option.h), named
 * --pnetcdf.NAME as HDF5's are --hdf5.NAME, and the variants of the
 * PnetCDF API they choose (api/api.h, docs/pnetcdf.md): one blocking call
 * per variable and, with --pnetcdf.nonblocking, every variable's step
 * posted (ncmpi_iput_varn) and completed by one wait (ncmpi_wait_all).
 * Pure. */
#include "api/pnetcdf_options.h"

#include <inttypes.h>

#include "base/jsonw.h"
#include "base/option.h"

_Static_assert(sizeof(struct pnetcdf_settings) <= API_SETTINGS_BYTES,
               "api/api.h: API_SETTINGS_BYTES");

/* The default, then the variant that joins the variables of a file
 * (api_variant.joins_vars); a file per process runs each as itself. */
static const struct api_variant pnetcdf_variants[PNETCDF_VARIANT_COUNT] = {
    {NULL, "PnetCDF", PNETCDF_BLOCKING, false, false, NULL, false},
    {"nonblocking", "PnetCDF (nonblocking)", PNETCDF_NONBLOCKING, true, false, NULL, false},
};

/* The advisor's choice (docs/advisor.md, "Choices"): nonblocking calls
 * gain by completing several variables' steps in one wait (docs/
 * pnetcdf.md, "Nonblocking calls"); a candidate is the variant's run. */
static const struct opt_advice pnetcdf_nonblocking_advice = {
    .baseline_key = "pnetcdf_nonblocking",
    .search_key = "pnetcdf_nonblocking",
    .kind = OPT_ADVICE_FLAG,
    .nsearch = 2,
    .search = {0, 1},
    .needs = OPT_ADVICE_NEEDS_VARS,
    .why = "nonblocking calls complete every variable's step in one wait",
    .variant = PNETCDF_NONBLOCKING,
    .value = "only"};

const struct opt_row pnetcdf_nonblocking_row =
    OPT_API_JOIN(struct pnetcdf_settings, "--pnetcdf.nonblocking", nonblocking,
                 .help = "also post every variable's step without\n"
                         "blocking and complete them in one wait\n"
                         "(ncmpi_iput_varn, ncmpi_wait_all with -C),\n"
                         "beside one blocking call per variable;\n"
                         "=only: the nonblocking calls alone",
                 .apis = API_BIT(API_PNETCDF), .json_key = "pnetcdf_nonblocking",
                 .json_everywhere = true, .advice = &pnetcdf_nonblocking_advice);

static const struct opt_row *const pnetcdf_rows[] = {
    &pnetcdf_nonblocking_row,
    NULL,
};

/* Blocking calls always; with --pnetcdf.nonblocking, nonblocking ones
 * too. */
static unsigned pnetcdf_chosen(const struct api_settings *s)
{
    return opt_join_mask(pnetcdf_settings_of(s)->nonblocking, 1u << PNETCDF_BLOCKING,
                         1u << PNETCDF_NONBLOCKING);
}

/* What CDF-5 and PnetCDF 1.12.3 cannot carry (docs/pnetcdf.md, "Limits"):
 * a variable above PNETCDF_MAX_VAR_BYTES (ncmpi_def_var fails once the run
 * has created the file), and a file whose variables, placed without -a,
 * end beyond the largest MPI-IO offset (ncmpi_enddef takes it; the calls
 * at its end fail). What -a adds is the model's extent (extents.c). */
static int pnetcdf_check_file(const struct api_settings *s, const struct extent_file *f, int nprocs,
                              const char *lead, const char *tail, struct cli_msg *m)
{
    (void)s;
    char size[32];
    cli_bytes(size, sizeof size, f->var_bytes);
    const char *procs = nprocs == 1 ? "" : "es";
    if (f->var_bytes > PNETCDF_MAX_VAR_BYTES)
        return cli_fail(m,
                        "h5perf: %s: a variable of %" PRId64 " bytes (%d process%s) is above "
                        "%" PRId64 " bytes, the largest CDF-5 variable PnetCDF defines "
                        "(NC_EVARSIZE); give smaller sizes, or %s",
                        lead, f->var_bytes, nprocs, procs, PNETCDF_MAX_VAR_BYTES, tail);
    if (pnetcdf_file_end(f) >= 0)
        return 0;
    return cli_fail(m,
                    "h5perf: %s: PnetCDF places %d variable%s of %s (%d process%s) after its "
                    "header, and the file would end beyond %" PRId64 " bytes, the largest MPI-IO "
                    "file offset; give smaller sizes, or %s",
                    lead, f->nvars, f->nvars == 1 ? "" : "s", size, nprocs, procs, API_MAX_FILE_END,
                    tail);
}

static void pnetcdf_json_run(struct jsonw *w, int v)
{
    jsonw_object(w);
    jsonw_key_bool(w, "nonblocking", v == PNETCDF_NONBLOCKING);
    jsonw_end(w);
}

/* PnetCDF's calls of the advisor's recommendation (docs/advisor.md, "The
 * answer"; docs/pnetcdf.md, "Nonblocking calls"), and its words of them. */
static void pnetcdf_advice_calls(const struct api_advice_in *in, char *buf, size_t len)
{
    bool nb = in->own(in->ctx, &pnetcdf_nonblocking_row) != NULL;
    const char *calls =
        in->collective ? "ncmpi_put_vara_all" : "ncmpi_begin_indep_data, ncmpi_put_vara";
    if (nb)
        calls = in->collective ? "ncmpi_iput_vara per variable, ncmpi_wait_all"
                               : "ncmpi_begin_indep_data, ncmpi_iput_vara per variable, ncmpi_wait";
    snprintf(buf, len, "%s%s%s", calls, in->align ? "; hint nc_var_align_size=" : "",
             in->align ? in->align : "");
}

static void pnetcdf_advice_words(const struct api_advice_in *in, char *buf, size_t len, size_t *at)
{
    if (in->own(in->ctx, &pnetcdf_nonblocking_row))
        api_addf(buf, len, at, ", every variable's step posted without blocking, one wait");
}

/* The reports' header line of --pnetcdf.nonblocking: which calls run,
 * and that the nonblocking run beside the blocking one follows it in the
 * same processes, which warm the file system and the library for it
 * (docs/pnetcdf.md, "The variant alone"). */
static bool pnetcdf_calls_text(const struct api_settings *s, char *buf, size_t len)
{
    return opt_join_text(pnetcdf_settings_of(s)->nonblocking, "blocking", "nonblocking",
                         "the blocking run", pnetcdf_nonblocking_row.long_name, buf, len);
}

static const struct api_header pnetcdf_headers[] = {
    {"PnetCDF calls", pnetcdf_calls_text},
    {NULL, NULL},
};

const struct api_advice pnetcdf_advice = {.calls = pnetcdf_advice_calls,
                                          .words = pnetcdf_advice_words};

const struct api_opts pnetcdf_opts = {
    .prefix = "pnetcdf",
    .help_heading = "PnetCDF (-A pnetcdf) takes",
    .rows = pnetcdf_rows,
    .variants = pnetcdf_variants,
    .nvariants = PNETCDF_VARIANT_COUNT,
    .chosen = pnetcdf_chosen,
    /* Its one refusal, of --stonewall with --pnetcdf.nonblocking, is the
     * rule of every variant that joins variables (options/finish.c). */
    .finish = NULL,
    .check_file = pnetcdf_check_file,
    .json_run = pnetcdf_json_run,
    .headers = pnetcdf_headers,
    /* Unread: no PnetCDF variant needs threads (api_variant.threads). */
    .threads_row = &pnetcdf_nonblocking_row,
    .joins_row = &pnetcdf_nonblocking_row,
    .joins_how = "one wait completes them together",
};
