/* MPI-IO's own rows of the option table (cli/option.h), named --mpiio.NAME
 * as HDF5's are --hdf5.NAME, and the variants of the MPI-IO API they choose
 * (api/api.h, docs/mpiio.md): a call per variable and step and, with
 * --mpiio.joined, step k of every variable of a file in one call through
 * one file view joining their parts and one memory type over their
 * buffers. Pure. */
#include "api/mpiio_options.h"

#include <stdio.h>

#include "base/jsonw.h"
#include "base/option.h"

_Static_assert(sizeof(struct mpiio_settings) <= API_SETTINGS_BYTES,
               "api/api.h: API_SETTINGS_BYTES");

/* The default, then the variant that joins the variables of a file
 * (api_variant.joins_vars); a file per process runs each as itself. */
static const struct api_variant mpiio_variants[MPIIO_VARIANT_COUNT] = {
    {NULL, "MPIO", MPIIO_PLAIN, false, false, NULL, false},
    {"joined", "MPIO (joined)", MPIIO_JOINED, true, false, NULL, true},
};

/* The advisor's choice (docs/advisor.md, "Choices"): one call moves every
 * variable's step (docs/mpiio.md, "Joined calls"); a candidate is the
 * variant's run. */
static const struct opt_advice mpiio_joined_advice = {
    .baseline_key = "mpiio_joined",
    .search_key = "mpiio_joined",
    .kind = OPT_ADVICE_FLAG,
    .nsearch = 2,
    .search = {0, 1},
    .needs = OPT_ADVICE_NEEDS_VARS,
    .why = "one call moves every variable's step through one file view",
    .variant = MPIIO_JOINED,
    .value = "only"};

const struct opt_row mpiio_joined_row =
    OPT_API_JOIN(struct mpiio_settings, "--mpiio.joined", joined,
                 .help = "also move step k of every variable in one\n"
                         "call through one file view joining their\n"
                         "parts (MPI_File_write_at_all with -C, else\n"
                         "MPI_File_write_at), beside a call per\n"
                         "variable; =only: the joined calls alone",
                 .apis = API_BIT(API_MPIIO), .json_key = "mpiio_joined", .json_everywhere = true,
                 .advice = &mpiio_joined_advice);

/* MPI-IO's atomic mode (docs/mpiio.md, "Atomic mode"): sequential
 * consistency of conflicting accesses, which the library may pay for with
 * a lock around each call (ROMIO's fcntl locks). */
static const struct opt_row mpiio_atomic_row =
    OPT_API_FLAG(struct mpiio_settings, "--mpiio.atomic", atomic,
                 .help = "MPI-IO's atomic mode on every file\n"
                         "(MPI_File_set_atomicity after each open):\n"
                         "what sequential consistency costs",
                 .apis = API_BIT(API_MPIIO), .json_key = "mpiio_atomic", .json_everywhere = true);

static const struct opt_row *const mpiio_rows[] = {
    &mpiio_joined_row,
    &mpiio_atomic_row,
    NULL,
};

/* A call per variable always; with --mpiio.joined, joined calls too. */
static unsigned mpiio_chosen(const struct api_settings *s)
{
    return opt_join_mask(mpiio_settings_of(s)->joined, 1u << MPIIO_PLAIN, 1u << MPIIO_JOINED);
}

static void mpiio_json_run(struct jsonw *w, int v)
{
    jsonw_object(w);
    jsonw_key_bool(w, "joined", v == MPIIO_JOINED);
    jsonw_end(w);
}

/* MPI-IO's calls, independent or collective (docs/advisor.md, "The
 * answer"; docs/mpiio.md, "Joined calls"). */
static void mpiio_advice_calls(const struct api_advice_in *in, char *buf, size_t len)
{
    bool joined = in->own(in->ctx, &mpiio_joined_row) != NULL;
    if (joined)
        snprintf(buf, len, "%s",
                 in->collective
                     ? "MPI_File_set_view joining every variable's step, MPI_File_write_at_all, "
                       "MPI_File_read_at_all"
                     : "MPI_File_set_view joining every variable's step, MPI_File_write_at, "
                       "MPI_File_read_at");
    else
        snprintf(buf, len, "%s",
                 in->collective ? "MPI_File_write_at_all, MPI_File_read_at_all"
                                : "MPI_File_write_at, MPI_File_read_at");
}

static void mpiio_advice_words(const struct api_advice_in *in, char *buf, size_t len, size_t *at)
{
    if (in->own(in->ctx, &mpiio_joined_row))
        api_addf(buf, len, at, ", every variable's step in one call through one view");
}

const struct api_advice mpiio_advice = {.calls = mpiio_advice_calls, .words = mpiio_advice_words};

/* The reports' header line of --mpiio.joined: which calls run, and that
 * the joined run beside the plain one follows it in the same processes,
 * warmed by it (docs/mpiio.md). */
static bool mpiio_calls_text(const struct api_settings *s, char *buf, size_t len)
{
    return opt_join_text(mpiio_settings_of(s)->joined, "a call per variable", "joined",
                         "the first run", mpiio_joined_row.long_name, buf, len);
}

/* The reports' header line of --mpiio.atomic. */
static bool mpiio_atomic_text(const struct api_settings *s, char *buf, size_t len)
{
    snprintf(buf, len, "atomic mode (MPI_File_set_atomicity) on every file");
    return mpiio_settings_of(s)->atomic;
}

static const struct api_header mpiio_headers[] = {
    {"MPI-IO calls", mpiio_calls_text},
    {"MPI-IO consistency", mpiio_atomic_text},
    {NULL, NULL},
};

const struct api_opts mpiio_opts = {
    .prefix = "mpiio",
    .help_heading = "MPI-IO (-A mpiio) takes",
    .rows = mpiio_rows,
    .variants = mpiio_variants,
    .nvariants = MPIIO_VARIANT_COUNT,
    .chosen = mpiio_chosen,
    /* Its one refusal, of --stonewall with --mpiio.joined, is the rule of
     * every variant that joins variables (options/finish.c). */
    .finish = NULL,
    .check_file = NULL,
    .json_run = mpiio_json_run,
    .headers = mpiio_headers,
    /* Unread: no MPI-IO variant needs threads (api_variant.threads). */
    .threads_row = &mpiio_joined_row,
    .joins_row = &mpiio_joined_row,
    .joins_how = "one call moves them together",
};
