/* The help text of -h/--help: our own (not HDF5's), made from the option
 * table (options.h): every option with its value and default, under the
 * patterns that take it, a few paragraphs, the environment and the exit
 * statuses; help_print() lays it out in two columns and the man page is
 * generated from the same items (src/cli/help_man.c). Printed lines stay
 * under 80 columns. It only writes to the stream it is given. */
#include "options/help.h"

#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "options/options.h"
#include "exit_status.h"
#include "pattern/pattern.h"

/* Where the descriptions start: column 29 for options, 19 for variables. */
#define HELP_OPTION_COLUMN 29
#define HELP_ENV_COLUMN    19
/* The longest line of a description after the column. */
#define HELP_TEXT_WIDTH (79 - HELP_OPTION_COLUMN)
/* Where a help that ends with its row's choices is broken: a little short
 * of HELP_TEXT_WIDTH, as the help texts written by hand are. */
#define HELP_CHOICES_WIDTH (HELP_TEXT_WIDTH - 5)

static const char help_intro[] =
    "Measures the parallel write and read throughput of POSIX, MPI-IO,\n"
    "parallel HDF5 and PnetCDF (where built in) for a sweep of process counts\n"
    "(halving from -P down to -p) and transfer sizes (doubling from -x up to\n"
    "-X); with --pattern block, of an N-dimensional array decomposed in blocks\n"
    "over the processes; with --pattern particles, of particle arrays with\n"
    "uneven counts per process; with --pattern map, of an application's\n"
    "decomposition read from a map file; with --pattern madbench, of\n"
    "MADbench2's out-of-core matrices.";

static const char help_sizes[] =
    "S is a size in bytes: digits with an optional K, M or G (x1024, x1048576,\n"
    "x1073741824) and an optional B, e.g. 512, 64K, 256KB, 1m; it must be above\n"
    "0 and below 2^63. N is a whole number from 1 to 2147483647.\n"
    "Long options take their value as --name=V or --name V; short options as\n"
    "-xV or -x V. Short flags combine (-wIC). The last occurrence of an option\n"
    "wins, except that -A and -D add up.";

static const struct {
    const char *term, *text;
} help_env[] = {
    {"HDF5_PARAPREFIX", "directory of the data files; a subdirectory named after\n"
                        "$USER (or $LOGIN) is created in it [current directory]"},
    {"HDF5_NOCLEANUP", "if set, even to nothing, the data files are kept"},
    {"HDF5_MPI_INFO", "MPI-IO hints key=value;key=value, given to MPI-IO,\n"
                      "HDF5 and PnetCDF (blanks around keys and values are\n"
                      "ignored)"},
};

static void help_wrap(char *text, size_t width);

/* An option's item: its term, its help and its default, on the last
 * line where it fits, else on a line of its own. */
static void help_option(const struct opt_row *row, struct help_item *out)
{
    out->kind = HELP_OPTION;
    opt_term(row, out->term, sizeof out->term);
    snprintf(out->text, sizeof out->text, "%s", row->help ? row->help : "");
    if (row->choices) {
        /* The choices from their table, the lines broken where they fall. */
        char list[768];
        row->choices(list, sizeof list);
        size_t n = strlen(out->text);
        snprintf(out->text + n, sizeof out->text - n, " %s", list);
        help_wrap(out->text, HELP_CHOICES_WIDTH);
    }
    if (!row->dflt)
        return;
    const char *last = strrchr(out->text, '\n');
    size_t width = strlen(last ? last + 1 : out->text);
    size_t n = strlen(out->text);
    snprintf(out->text + n, sizeof out->text - n, "%s%s",
             width + 1 + strlen(row->dflt) <= HELP_TEXT_WIDTH ? " " : "\n", row->dflt);
}

/* Has pattern q (or the core) listed row before pattern p? */
static bool help_listed_before(int p, const struct opt_row *row)
{
    if (opt_is_core(row))
        return true;
    for (int q = 0; q < p; q++)
        for (int k = 0; pattern_table[q]->rows[k]; k++)
            if (pattern_table[q]->rows[k] == row)
                return true;
    return false;
}

/* Breaks text's lines (at blanks) to at most width columns, in place. */
static void help_wrap(char *text, size_t width)
{
    char *line = text, *blank = NULL;
    for (char *p = text; *p; p++) {
        if (*p == '\n') {
            line = p + 1;
            blank = NULL;
        } else if (*p == ' ') {
            blank = p;
        }
        if ((size_t)(p - line) >= width && blank) {
            *blank = '\n';
            line = blank + 1;
            blank = NULL;
        }
    }
}

/* The heading of pattern p's options: its own, and the options it shares
 * with patterns before it, named. */
static void help_heading(int p, struct help_item *out)
{
    const struct pattern_desc *pd = pattern_table[p];
    char shared[512] = "";
    size_t used = 0;
    int n = 0;
    for (int k = 0; pd->rows[k] && used < sizeof shared; k++)
        if (help_listed_before(p, pd->rows[k]))
            used += (size_t)snprintf(shared + used, sizeof shared - used, "%s%s", n++ ? ", " : "",
                                     pd->rows[k]->long_name);
    out->kind = HELP_PARA;
    if (n)
        snprintf(out->text, sizeof out->text, "%s %s (above) and:", pd->help_heading, shared);
    else
        snprintf(out->text, sizeof out->text, "%s:", pd->help_heading);
    help_wrap(out->text, 78);
}

/* Walks the items in order; returns 0 with item i in out, or -1. */
int help_item_at(int i, struct help_item *out)
{
    int n = 0;
    memset(out, 0, sizeof *out);
#define HELP_EMIT(fill)                                                                            \
    do {                                                                                           \
        if (n++ == i) {                                                                            \
            fill;                                                                                  \
            return 0;                                                                              \
        }                                                                                          \
    } while (0)
    HELP_EMIT((out->kind = HELP_PARA, snprintf(out->text, sizeof out->text, "%s", help_intro)));
    HELP_EMIT((out->kind = HELP_PARA, snprintf(out->text, sizeof out->text, "%s", help_sizes)));
    HELP_EMIT((out->kind = HELP_HEADING, snprintf(out->text, sizeof out->text, "Options:")));
    for (int k = 0; k < opt_core_count; k++)
        HELP_EMIT(help_option(opt_core_rows[k], out));
    for (int p = 0; p < pattern_count; p++) {
        const struct pattern_desc *pd = pattern_table[p];
        HELP_EMIT(help_heading(p, out));
        for (int k = 0; pd->rows[k]; k++)
            if (!help_listed_before(p, pd->rows[k]))
                HELP_EMIT(help_option(pd->rows[k], out));
        if (pd->help_note)
            HELP_EMIT((out->kind = HELP_PARA,
                       snprintf(out->text, sizeof out->text, "%s", pd->help_note)));
    }
    for (int a = 0; a < API_COUNT; a++) {
        const struct api_opts *o = api_descs[a].opts;
        if (!o)
            continue;
        HELP_EMIT(
            (out->kind = HELP_PARA, snprintf(out->text, sizeof out->text, "%s:", o->help_heading)));
        for (int k = 0; o->rows[k]; k++)
            HELP_EMIT(help_option(o->rows[k], out));
    }
    HELP_EMIT((out->kind = HELP_HEADING, snprintf(out->text, sizeof out->text, "Environment:")));
    for (size_t k = 0; k < sizeof help_env / sizeof help_env[0]; k++)
        HELP_EMIT((out->kind = HELP_ENV,
                   snprintf(out->term, sizeof out->term, "%s", help_env[k].term),
                   snprintf(out->text, sizeof out->text, "%s", help_env[k].text)));
#undef HELP_EMIT
    return -1;
}

const struct help_status help_statuses[] = {
    {EXIT_OK, "every run succeeded"},
    {EXIT_RUN_FAILED, "a run failed: an I/O error or a data verification mismatch"},
    {EXIT_USAGE, "bad usage, input or environment; no data file was created"},
    {EXIT_SIGNAL_BASE, "ended by signal n, after removing the data files it created"},
};

const int help_status_count = (int)(sizeof help_statuses / sizeof help_statuses[0]);

void help_print_apis(FILE *out)
{
    for (int a = 0; a < API_COUNT; a++)
        if (api_built((enum api_id)a))
            fprintf(out, " %s", api_descs[a].key);
}

/* Each line of text; the first after the term padded to column, the others
 * indented to it. A long-only option's term is indented by four more, under
 * the long names of the options with a short one. */
static void help_print_term(FILE *out, const char *term, const char *text, int column)
{
    int indent = term[0] == '-' && term[1] == '-' ? 6 : 2;
    /* A term that reaches the column has its text on the lines below. */
    if (indent + (int)strlen(term) >= column)
        fprintf(out, "%*s%s\n%*s", indent, "", term, column, "");
    else
        fprintf(out, "%*s%-*s", indent, "", column - indent, term);
    for (const char *p = text;;) {
        size_t n = strcspn(p, "\n");
        fprintf(out, "%.*s\n", (int)n, p);
        if (p[n] == '\0')
            return;
        p += n + 1;
        fprintf(out, "%*s", column, "");
    }
}

void help_print(FILE *out)
{
    struct help_item item, *it = &item;
    fprintf(out, "%s\n", HELP_USAGE);
    for (int i = 0; help_item_at(i, it) == 0; i++) {
        if (it->kind == HELP_OPTION)
            help_print_term(out, it->term, it->text, HELP_OPTION_COLUMN);
        else if (it->kind == HELP_ENV)
            help_print_term(out, it->term, it->text, HELP_ENV_COLUMN);
        else
            fprintf(out, "\n%s\n", it->text);
    }
    fprintf(out, "\nAPIs in this build:");
    help_print_apis(out);
    fprintf(out, "\n\nExit status:\n");
    for (int i = 0; i < help_status_count; i++) {
        const struct help_status *s = &help_statuses[i];
        if (s->code == EXIT_SIGNAL_BASE)
            fprintf(out, "  %d+n  %s\n", s->code, s->text);
        else
            fprintf(out, "  %-6d %s\n", s->code, s->text);
    }
}
