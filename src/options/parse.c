/* The command line -> struct config: a strict tokenizer (docs/original.md
 * §0, §1.1) over the option table (options.h), whose rows store the values.
 * Pure: no MPI, no I/O, no getopt and no globals; it neither applies
 * defaults (finish.c) nor checks how values combine (the patterns'
 * validation). */
#include <stdio.h>
#include <string.h>

#include "options/options.h"
#include "pattern/pattern.h"

/* ---- the tokenizer ---- */

/* Walks argv once. After the first error it keeps walking (remembering only
 * that error) so that a -h anywhere still wins. */
struct opt_scan {
    int argc;
    char *const *argv;
    int next; /* index of the next unread token */
    struct config *cfg;
    struct cli_msg *msg;
    int failed; /* msg holds the first error */
    int help;   /* -h, --help or --version seen: the first one ends the scan */
};

static void opt_error(struct opt_scan *sc, const struct cli_msg *m)
{
    if (!sc->failed)
        *sc->msg = *m;
    sc->failed = 1;
}

/* Records how the option was given, then lets its handler store it. */
static void opt_apply(struct opt_scan *sc, const struct opt_row *spec, const char *spelled,
                      const char *value)
{
    struct cli_msg m;
    int a = opt_api_owner(spec), p = pattern_owner(spec);

    if (a >= 0) {
        int k = api_row_index((enum api_id)a, spec);
        sc->cfg->api[a].spelled[k] = spelled;
        sc->cfg->api[a].raw[k] = value;
    } else if (p >= 0) {
        int k = pattern_row_index(pattern_table[p], spec);
        sc->cfg->patterns[p].spelled[k] = spelled;
        sc->cfg->patterns[p].raw[k] = value;
    } else {
        sc->cfg->spelled[spec->id] = spelled;
        sc->cfg->raw[spec->id] = value;
    }
    if (spec->id == OPT_HELP || spec->id == OPT_VERSION)
        sc->help = 1;
    if (opt_store(opt_dest(sc->cfg, spec), spec, spelled, value, &m) != 0)
        opt_error(sc, &m);
}

/* The value of a value-taking option whose token ended: the next token,
 * whatever it looks like (docs/original.md §1.1), or NULL (and an error) at
 * the end. */
static const char *opt_next_value(struct opt_scan *sc, const struct opt_row *spec,
                                  const char *spelled)
{
    struct cli_msg m;

    if (sc->next < sc->argc)
        return sc->argv[sc->next++];
    cli_fail(&m, "h5perf: option '%s' expects %s", spelled, spec->value_kind);
    opt_error(sc, &m);
    return NULL;
}

static void opt_long(struct opt_scan *sc, const char *token)
{
    const char *eq = strchr(token, '=');
    size_t len = eq ? (size_t)(eq - token) : strlen(token);
    const struct opt_row *spec = opt_find_long(token, len);
    const char *value = eq ? eq + 1 : NULL;
    struct cli_msg m;

    if (spec == NULL) {
        cli_fail(&m, "h5perf: unknown option '%.*s'", (int)len, token);
        opt_error(sc, &m);
        return;
    }
    if (spec->value_kind == NULL && eq != NULL) {
        cli_fail(&m, "h5perf: %s '%s': this option takes no value", spec->long_name, value);
        opt_error(sc, &m);
        return;
    }
    if (spec->value_kind != NULL && value == NULL && !spec->value_optional) {
        value = opt_next_value(sc, spec, spec->long_name);
        if (value == NULL)
            return;
    }
    opt_apply(sc, spec, spec->long_name, value);
}

/* "-wIe8": flags one by one; a value-taking letter ends the token. */
static void opt_short(struct opt_scan *sc, const char *token)
{
    struct cli_msg m;

    for (const char *p = token + 1; *p != '\0'; p++) {
        const struct opt_row *spec = opt_find_short(*p);
        const char *value = NULL;
        if (spec == NULL) {
            cli_fail(&m, "h5perf: unknown option '-%c'", *p);
            opt_error(sc, &m);
            continue;
        }
        if (spec->value_kind != NULL) {
            value = p[1] != '\0' ? p + 1 : opt_next_value(sc, spec, spec->short_name);
            if (value != NULL)
                opt_apply(sc, spec, spec->short_name, value);
            return;
        }
        opt_apply(sc, spec, spec->short_name, NULL);
    }
}

static void opt_unexpected(struct opt_scan *sc, const char *token)
{
    struct cli_msg m;

    cli_fail(&m, "h5perf: unexpected argument '%s': h5perf takes options only", token);
    opt_error(sc, &m);
}

int opt_parse(int argc, char *const argv[], struct config *cfg, struct cli_msg *msg)
{
    struct opt_scan sc = {argc, argv, 1, cfg, msg, 0, 0};
    int options_ended = 0;

    msg->line[0] = '\0';
    while (sc.next < sc.argc && !sc.help) {
        const char *token = sc.argv[sc.next++];
        if (options_ended || token[0] != '-' || token[1] == '\0')
            opt_unexpected(&sc, token);
        else if (strcmp(token, "--") == 0)
            options_ended = 1;
        else if (token[1] == '-')
            opt_long(&sc, token);
        else
            opt_short(&sc, token);
    }
    if (sc.help) {
        msg->line[0] = '\0';
        return 0;
    }
    return sc.failed ? -1 : 0;
}
