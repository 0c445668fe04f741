/* The generator of the man page h5perf.1, run at build time: the help
 * items of options/help.h (what -h prints) as roff, so that the page and the
 * help cannot drift. Not part of h5perf; it is linked with h5perf_pure.
 * Usage: h5perf_man VERSION OUTPUT.1 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "options/help.h"
#include "exit_status.h"

/* Writes [s, s+n) as roff text: '-' as a minus (so that options copy and
 * paste), '\' as \e, and a leading '.' or '\'' made literal. */
static void man_text(FILE *out, const char *s, size_t n)
{
    if (n > 0 && (s[0] == '.' || s[0] == '\''))
        fputs("\\&", out);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-')
            fputs("\\-", out);
        else if (s[i] == '\\')
            fputs("\\e", out);
        else
            fputc(s[i], out);
    }
}

/* Every line of a '\n'-separated text as an input line (roff fills them). */
static void man_lines(FILE *out, const char *text)
{
    for (const char *p = text;;) {
        size_t n = strcspn(p, "\n");
        man_text(out, p, n);
        fputc('\n', out);
        if (p[n] == '\0')
            return;
        p += n + 1;
    }
}

/* "-A, --api=LIST": the names in bold, the value in italics. */
static void man_term(FILE *out, const char *term)
{
    size_t names = strcspn(term, "=");
    fputs(".TP\n\\fB", out);
    man_text(out, term, names);
    fputs("\\fR", out);
    if (term[names] == '=') {
        fputs("=\\fI", out);
        man_text(out, term + names + 1, strlen(term + names + 1));
        fputs("\\fR", out);
    }
    fputc('\n', out);
}

/* "Options:" -> .SH OPTIONS */
static void man_heading(FILE *out, const char *text)
{
    fputs(".SH ", out);
    for (const char *p = text; *p && *p != ':'; p++)
        fputc(toupper((unsigned char)*p), out);
    fputc('\n', out);
}

static void man_page(FILE *out, const char *version)
{
    fprintf(out, ".\\\" Generated from the option table by src/cli/help_man.c; do not edit.\n");
    fprintf(out, ".TH H5PERF 1 \"\" \"h5perf %s\" \"User Commands\"\n", version);
    fputs(".nh\n", out); /* no hyphenation: tests find the help's words in the page */
    fputs(".SH NAME\nh5perf \\- parallel I/O benchmark of POSIX, MPI\\-IO, parallel HDF5 "
          "and PnetCDF\n",
          out);
    fputs(".SH SYNOPSIS\n.B mpiexec \\-n\n.I N\n.B h5perf\n[\\fIoptions\\fR]\n", out);
    fputs(".SH DESCRIPTION\n", out);
    struct help_item item, *it = &item;
    for (int i = 0; help_item_at(i, it) == 0; i++) {
        if (it->kind == HELP_HEADING) {
            man_heading(out, it->text);
            continue;
        }
        if (it->kind == HELP_PARA)
            fputs(".PP\n", out);
        else
            man_term(out, it->term);
        man_lines(out, it->text);
    }
    fputs(".SH \"APIS IN THIS BUILD\"\nThis h5perf was built with these APIs:", out);
    help_print_apis(out);
    fputs("\n.SH \"EXIT STATUS\"\n", out);
    for (int i = 0; i < help_status_count; i++) {
        const struct help_status *s = &help_statuses[i];
        fprintf(out, ".TP\n.B %d%s\n", s->code, s->code == EXIT_SIGNAL_BASE ? "+n" : "");
        man_lines(out, s->text);
    }
    fputs(".SH \"SEE ALSO\"\n.BR h5perf\\-plot (1),\n.BR h5perf\\-compare (1),\n.BR mpiexec (1);\n"
          "h5perf's docs/ directory (docs/install.md, docs/design.md).\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: h5perf_man VERSION OUTPUT.1\n");
        return 2;
    }
    FILE *out = fopen(argv[2], "w");
    if (out == NULL) {
        perror(argv[2]);
        return 1;
    }
    man_page(out, argv[1]);
    if (fclose(out) != 0) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
