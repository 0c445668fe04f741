/* The lists of words of base/option.h: a row's choices in its help and its
 * refusals ("a, b or c"). Pure: formats only. */
#include "base/option.h"

#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"

void opt_list_add(char *buf, size_t len, int i, int n, const char *word, const char *gloss,
                  const char *last)
{
    size_t used = i == 0 ? 0 : strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s%s%s%s",
                 i == 0       ? ""
                 : i + 1 == n ? last
                              : ", ",
                 word, gloss ? " " : "", gloss ? gloss : "");
}

void opt_words_list(char *buf, size_t len, const struct opt_word *w, int n, bool glossed)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        opt_list_add(buf, len, i, n, w[i].name, glossed ? w[i].gloss : NULL, " or ");
}

int opt_join_parse(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                   struct cli_msg *msg)
{
    if (value && strcmp(value, "only") != 0)
        return cli_fail(msg,
                        "h5perf: %s '%s': expected only (its calls alone) or no value (beside "
                        "the default calls)",
                        spelled, value);
    *(int *)(void *)((char *)dest + row->field) = value ? OPT_JOIN_ONLY : OPT_JOIN_BESIDE;
    return 0;
}

bool opt_join_text(int join, const char *plain, const char *joined, const char *first,
                   const char *option, char *buf, size_t len)
{
    if (join == OPT_JOIN_ONLY)
        snprintf(buf, len, "%s alone", joined);
    else
        snprintf(buf, len, "%s, then %s in the same processes (warmed by %s; %s=only: alone)",
                 plain, joined, first, option);
    return join != OPT_JOIN_OFF;
}

void opt_join_json(struct jsonw *w, const void *src, const struct opt_row *row)
{
    int v = *(const int *)(const void *)((const char *)src + row->field);
    jsonw_key(w, row->json_key);
    if (v == OPT_JOIN_ONLY)
        jsonw_string(w, "only");
    else
        jsonw_bool(w, v != OPT_JOIN_OFF);
}

const char *opt_word(const struct opt_row *row)
{
    return row->short_name ? row->short_name : row->long_name;
}
