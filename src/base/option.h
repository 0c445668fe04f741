/* The option row (docs/design.md, "Options"): each option is one row
 * with its names, value kind, the field it sets (of struct config, or of
 * its owner's own settings: an API's, a pattern's), its default, its help text, the APIs it applies
 * to and its key in the results; and the lists of words its help and refusals are made of. The
 * type every owner of options (the core, each pattern, each API) writes
 * its rows in; the table of them all is the parser's (cli/option.h).
 * Pure. */
#ifndef H5PERF_BASE_OPTION_H
#define H5PERF_BASE_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/msg.h"

struct config;
struct jsonw;

/* How a row's value is stored: a flag (bool, true when given), a size
 * (int64_t, "64K"), a whole number (int, 1 to 2^31-1), or by the row's own
 * parser. */
enum opt_type { OPT_T_FLAG, OPT_T_SIZE, OPT_T_COUNT, OPT_T_OTHER };

/* A row's own parser and writer work on the struct its field is in
 * (dest, src): struct config for the core's rows and those patterns
 * share, the owner's own settings for an API's (api_opts.rows) or a
 * pattern's own (OPT_ID_PATTERN). */
struct opt_row;
typedef int (*opt_parse_fn)(void *dest, const struct opt_row *row, const char *spelled,
                            const char *value, struct cli_msg *msg);
typedef void (*opt_json_fn)(struct jsonw *w, const void *src, const struct opt_row *row);

/* The id of an API's row: its record of how it was given is its API's
 * (api_settings.spelled), not one of enum opt_id's; and of a pattern's
 * own row, whose record is its pattern's (pattern_settings.spelled). */
#define OPT_ID_API     (-1)
#define OPT_ID_PATTERN (-2)

/* What the advisor races of an option of an API (docs/advisor.md,
 * "Choices"): a row with this is a choice of the workload file and of the
 * advice document, read from the row alone (docs/design.md, "Offering a
 * choice in the advisor"). A flag's values are 0 and 1 ("false",
 * "true"); a size's are bytes. */
enum opt_advice_kind { OPT_ADVICE_FLAG, OPT_ADVICE_SIZE };

/* Where a value other than the default has no effect, and the candidate
 * is left out: a file per process (each file one process's), a data set
 * of one variable. */
enum opt_advice_needs { OPT_ADVICE_NEEDS_SHARED = 1, OPT_ADVICE_NEEDS_VARS = 2 };

#define OPT_ADVICE_MAX_SEARCH 4

struct opt_advice {
    /* Its key in the workload file's baseline, which is also its key in a
     * candidate's choices in the advice document, and in its search. */
    const char *baseline_key, *search_key;
    enum opt_advice_kind kind;
    int64_t dflt; /* the baseline's default; a size at its default is not on the command line */
    int nsearch;  /* the search's default candidates */
    int64_t search[OPT_ADVICE_MAX_SEARCH];
    unsigned needs;  /* enum opt_advice_needs */
    const char *why; /* what it does, before ", and ..." when needs leaves it out */
    int variant;     /* the variant of its API a value other than dflt is measured as; 0: the run */
    /* The value a candidate gives a flag ("only": its variant alone,
     * --pnetcdf.nonblocking=only); NULL: the flag alone. */
    const char *value;
};

struct opt_row {
    int id; /* enum opt_id: its record of how it was spelled (config.spelled[id]); OPT_ID_API,
             * OPT_ID_PATTERN: its owner's record */
    const char *short_name; /* "-e", or NULL */
    const char *long_name;  /* "--num-bytes" */
    const char *metavar;    /* the value in --help: "S", "N", "LIST"; NULL for a flag */
    const char *value_kind; /* the value in messages: "a size"; NULL for a flag */
    enum opt_type type;
    size_t field; /* offsetof(struct config or its owner's settings, ...) of a flag, size, count */
    opt_parse_fn parse; /* OPT_T_OTHER: stores the value or refuses it */
    const char *help;   /* its lines in --help and the man page, '\n'-separated */
    const char *dflt;   /* "[256K; 8K with -g]" after its help; NULL for none */
    /* The APIs it applies to (API_BIT mask; 0: whatever runs), and what to
     * add to the refusal when -A selects none of them. */
    unsigned apis;
    const char *apis_hint;
    /* Appended to the refusal when the chosen pattern does not take it. */
    const char *pattern_hint;
    /* Its key in the results' configuration, and how its value is written
     * there (NULL: by its type); NULL key: not echoed by the table. */
    const char *json_key;
    opt_json_fn json;
    /* Echoed in the results' configuration whatever the pattern (the
     * schema requires it), not only in its pattern's part. */
    bool json_everywhere;
    /* Its choices, written into buf from their own table, each with its
     * gloss ("guide (the guide's 1D and 2D patterns), block, ..."): its
     * help ends with them in --help and the man page (help.c), so that a
     * choice added to the table is offered there. NULL: none. */
    void (*choices)(char *buf, size_t len);
    /* A choice the advisor races (an API's rows); NULL: none. */
    const struct opt_advice *advice;
    /* A flag that may also take a value, given with '=' only
     * (--pnetcdf.nonblocking=only), never as the next word; its parser
     * receives NULL without one. */
    bool value_optional;
};

/* The field of struct config a row sets, checked to be of type T at
 * compile time (a row cannot set the wrong kind of field). */
#define OPT_FIELD(T, F) OPT_FIELD_OF(struct config, T, F)
/* The field F of struct S (an API's or a pattern's settings), of type T. */
#define OPT_FIELD_OF(S, T, F) (offsetof(S, F) + 0 * sizeof(_Generic(((S *)0)->F, T : 1)))

/* Typed rows; the optional fields follow as designated initializers. */
#define OPT_FLAG(ID, S, L, F, ...)                                                                 \
    {                                                                                              \
        .id = ID, .short_name = S, .long_name = L, .type = OPT_T_FLAG,                             \
        .field = OPT_FIELD(bool, F), __VA_ARGS__                                                   \
    }
#define OPT_SIZE(ID, S, L, F, ...)                                                                 \
    {                                                                                              \
        .id = ID, .short_name = S, .long_name = L, .metavar = "S", .value_kind = "a size",         \
        .type = OPT_T_SIZE, .field = OPT_FIELD(int64_t, F), __VA_ARGS__                            \
    }
#define OPT_COUNT(ID, S, L, F, ...)                                                                \
    {                                                                                              \
        .id = ID, .short_name = S, .long_name = L, .metavar = "N", .value_kind = "a whole number", \
        .type = OPT_T_COUNT, .field = OPT_FIELD(int, F), __VA_ARGS__                               \
    }
#define OPT_OTHER(ID, S, L, META, KIND, PARSE, ...)                                                \
    {                                                                                              \
        .id = ID, .short_name = S, .long_name = L, .metavar = META, .value_kind = KIND,            \
        .type = OPT_T_OTHER, .parse = PARSE, __VA_ARGS__                                           \
    }

/* A row of an owner's own settings struct S (an API's, a pattern's):
 * no letter, the field F of S; ID is OPT_ID_API or OPT_ID_PATTERN, whose
 * record of how it was given is its owner's, not one of enum opt_id's. */
#define OPT_OWN_FLAG(ID, S, L, F, ...)                                                             \
    {                                                                                              \
        .id = ID, .long_name = L, .type = OPT_T_FLAG, .field = OPT_FIELD_OF(S, bool, F),           \
        __VA_ARGS__                                                                                \
    }
#define OPT_OWN_SIZE(ID, S, L, F, ...)                                                             \
    {                                                                                              \
        .id = ID, .long_name = L, .metavar = "S", .value_kind = "a size", .type = OPT_T_SIZE,      \
        .field = OPT_FIELD_OF(S, int64_t, F), __VA_ARGS__                                          \
    }
#define OPT_OWN_COUNT(ID, S, L, F, ...)                                                            \
    {                                                                                              \
        .id = ID, .long_name = L, .metavar = "N", .value_kind = "a whole number",                  \
        .type = OPT_T_COUNT, .field = OPT_FIELD_OF(S, int, F), __VA_ARGS__                         \
    }
#define OPT_OWN_OTHER(ID, L, META, KIND, PARSE, ...)                                               \
    {                                                                                              \
        .id = ID, .long_name = L, .metavar = META, .value_kind = KIND, .type = OPT_T_OTHER,        \
        .parse = PARSE, __VA_ARGS__                                                                \
    }

/* An API's rows (docs/design.md, "Options"): named --PREFIX.NAME, the
 * field F of its settings struct S. */
#define OPT_API_FLAG(S, L, F, ...)  OPT_OWN_FLAG(OPT_ID_API, S, L, F, __VA_ARGS__)
#define OPT_API_SIZE(S, L, F, ...)  OPT_OWN_SIZE(OPT_ID_API, S, L, F, __VA_ARGS__)
#define OPT_API_COUNT(S, L, F, ...) OPT_OWN_COUNT(OPT_ID_API, S, L, F, __VA_ARGS__)
#define OPT_API_OTHER(L, META, KIND, PARSE, ...)                                                   \
    OPT_OWN_OTHER(OPT_ID_API, L, META, KIND, PARSE, __VA_ARGS__)

/* A pattern's own rows (docs/design.md, "Options"): the field F of its
 * settings struct S, which no other pattern takes. An OTHER row's parser
 * is handed S. */
#define OPT_PATTERN_FLAG(S, L, F, ...)  OPT_OWN_FLAG(OPT_ID_PATTERN, S, L, F, __VA_ARGS__)
#define OPT_PATTERN_SIZE(S, L, F, ...)  OPT_OWN_SIZE(OPT_ID_PATTERN, S, L, F, __VA_ARGS__)
#define OPT_PATTERN_COUNT(S, L, F, ...) OPT_OWN_COUNT(OPT_ID_PATTERN, S, L, F, __VA_ARGS__)
#define OPT_PATTERN_OTHER(L, META, KIND, PARSE, ...)                                               \
    OPT_OWN_OTHER(OPT_ID_PATTERN, L, META, KIND, PARSE, __VA_ARGS__)

/* An option that moves every variable of a file in one call beside
 * the API's default calls, or instead of them (docs/design.md, "Moving
 * every variable in one call"): its int field is one of these. */
enum opt_join { OPT_JOIN_OFF = 0, OPT_JOIN_BESIDE, OPT_JOIN_ONLY };

/* Its parser: no value, OPT_JOIN_BESIDE; "only", OPT_JOIN_ONLY; another
 * value refused in one line. And its echo in the results' configuration:
 * false, true, or "only". */
int opt_join_parse(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                   struct cli_msg *msg);
void opt_join_json(struct jsonw *w, const void *src, const struct opt_row *row);

/* The variants a joining option's value join chooses: plain (the API's
 * calls per variable) unless only, and joined (its joining variant) when
 * given. */
static inline unsigned opt_join_mask(int join, unsigned plain, unsigned joined)
{
    return (join == OPT_JOIN_ONLY ? 0 : plain) | (join != OPT_JOIN_OFF ? joined : 0);
}

/* A joining option's line in the reports' headers, into buf: "JOINED
 * alone", or "PLAIN, then JOINED in the same processes (warmed by FIRST;
 * OPTION=only: alone)"; false (no line) when not given. */
bool opt_join_text(int join, const char *plain, const char *joined, const char *first,
                   const char *option, char *buf, size_t len);

/* An API's joining option --PREFIX.NAME[=only], the int field F of its
 * settings struct S (enum opt_join). */
#define OPT_API_JOIN(S, L, F, ...)                                                                 \
    {                                                                                              \
        .id = OPT_ID_API, .long_name = L, .metavar = "only", .value_kind = "only or no value",     \
        .type = OPT_T_OTHER, .field = OPT_FIELD_OF(S, int, F), .parse = opt_join_parse,            \
        .json = opt_join_json, .value_optional = true, __VA_ARGS__                                 \
    }

/* Appends word i of n to the list in buf (of len; "" before word 0):
 * ", " before it, or last (" or ", ", ") before the last word; gloss (or
 * NULL) after it. */
/* How a program that writes h5perf command lines (the advisor's
 * candidates, docs/advisor.md) spells the row: its short name when it has
 * one ("-a"), else its long name ("--align-data"). */
const char *opt_word(const struct opt_row *row);

void opt_list_add(char *buf, size_t len, int i, int n, const char *word, const char *gloss,
                  const char *last);

/* A choice's word and what it means (NULL: nothing to add), in an
 * owner's table of words. */
struct opt_word {
    const char *name, *gloss;
};

/* The n words of w as one list into buf (of len): "a, b or c", each with
 * its gloss when glossed. */
void opt_words_list(char *buf, size_t len, const struct opt_word *w, int n, bool glossed);

#endif
