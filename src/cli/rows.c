/* How a row stores and echoes its value (option.h): the generic storage of
 * flags, sizes and whole numbers, --help's term of a row, and the rows'
 * values in the results' configuration. Pure: no MPI, no I/O. */
#include "cli/option.h"

#include <stdio.h>

#include "base/jsonw.h"
#include "cli/size.h"

/* ---- values every option of a type takes ---- */

static int opt_size(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                    struct cli_msg *msg)
{
    switch (size_scan(value, (int64_t *)(void *)((char *)dest + row->field))) {
    case SIZE_OK:
        return 0;
    case SIZE_ZERO:
        return cli_fail(msg, "h5perf: %s '%s': a size must be greater than 0", spelled, value);
    case SIZE_RANGE:
        return cli_fail(msg,
                        "h5perf: %s '%s': a size must fit in 64 bits "
                        "(at most 9223372036854775807 bytes)",
                        spelled, value);
    default:
        return cli_fail(msg,
                        "h5perf: %s '%s': expected a size: digits with an optional "
                        "K, M or G and an optional B, e.g. 512, 64K, 1MB",
                        spelled, value);
    }
}

static int opt_count(void *dest, const struct opt_row *row, const char *spelled, const char *value,
                     struct cli_msg *msg)
{
    if (size_scan_count(value, (int *)(void *)((char *)dest + row->field)) == SIZE_OK)
        return 0;
    return cli_fail(msg, "h5perf: %s '%s': expected a whole number from 1 to 2147483647", spelled,
                    value);
}

int opt_store(void *dest, const struct opt_row *row, const char *spelled, const char *value,
              struct cli_msg *msg)
{
    switch (row->type) {
    case OPT_T_FLAG:
        *(bool *)(void *)((char *)dest + row->field) = true;
        return 0;
    case OPT_T_SIZE:
        return opt_size(dest, row, spelled, value, msg);
    case OPT_T_COUNT:
        return opt_count(dest, row, spelled, value, msg);
    default:
        return row->parse(dest, row, spelled, value, msg);
    }
}

void opt_term(const struct opt_row *row, char *buf, size_t len)
{
    if (row->value_optional) {
        snprintf(buf, len, "%s[=%s]", row->long_name, row->metavar);
        return;
    }
    snprintf(buf, len, "%s%s%s%s%s", row->short_name ? row->short_name : "",
             row->short_name ? ", " : "", row->long_name, row->metavar ? "=" : "",
             row->metavar ? row->metavar : "");
}

void opt_json_rows(struct jsonw *w, const void *src, const struct opt_row *const *rows, int n,
                   bool everywhere)
{
    for (int i = 0; n < 0 ? rows[i] != NULL : i < n; i++) {
        const struct opt_row *r = rows[i];
        if (!r->json_key || r->json_everywhere != everywhere)
            continue;
        const char *field = (const char *)src + r->field;
        if (r->json)
            r->json(w, src, r);
        else if (r->type == OPT_T_FLAG)
            jsonw_key_bool(w, r->json_key, *(const bool *)(const void *)field);
        else if (r->type == OPT_T_SIZE)
            jsonw_key_int(w, r->json_key, *(const int64_t *)(const void *)field);
        else if (r->type == OPT_T_COUNT)
            jsonw_key_int(w, r->json_key, *(const int *)(const void *)field);
    }
}
