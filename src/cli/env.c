/* The HDF5_* environment -> struct config (docs/original.md §0, §2):
 * HDF5_NOCLEANUP, HDF5_PARAPREFIX and the HDF5_MPI_INFO hints, which are
 * split, trimmed, checked against the MPI library's limits and copied into
 * cfg->info_buf. Pure: the caller reads the variables; no MPI calls here,
 * nothing printed. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* Longest piece of an entry quoted in a message, so that the line stays
 * readable and the end of the message is never cut off. */
#define ENV_QUOTE_MAX 60

/* A piece of the HDF5_MPI_INFO text, not NUL-terminated. */
struct env_span {
    const char *s;
    size_t len;
};

static int env_blank(char c)
{
    return c == ' ' || c == '\t';
}

static struct env_span env_trim(struct env_span sp)
{
    while (sp.len > 0 && env_blank(sp.s[0])) {
        sp.s++;
        sp.len--;
    }
    while (sp.len > 0 && env_blank(sp.s[sp.len - 1]))
        sp.len--;
    return sp;
}

/* "h5perf: HDF5_MPI_INFO entry '<entry>': <why>" with a long entry cut. */
static int env_entry_fail(struct cli_msg *msg, struct env_span entry, const char *why)
{
    int shown = entry.len > ENV_QUOTE_MAX ? ENV_QUOTE_MAX : (int)entry.len;
    return cli_fail(msg, "h5perf: HDF5_MPI_INFO entry '%.*s%s': %s", shown, entry.s,
                    entry.len > ENV_QUOTE_MAX ? "..." : "", why);
}

/* Copies a span into info_buf at *used; NULL when it does not fit. */
static const char *env_store(struct config *cfg, size_t *used, struct env_span sp)
{
    char *dst = cfg->info_buf + *used;

    if (sp.len + 1 > sizeof cfg->info_buf - *used)
        return NULL;
    memcpy(dst, sp.s, sp.len);
    dst[sp.len] = '\0';
    *used += sp.len + 1;
    return dst;
}

static int env_find_key(const struct config *cfg, struct env_span key)
{
    for (int i = 0; i < cfg->info_count; i++)
        if (strlen(cfg->info[i].key) == key.len && memcmp(cfg->info[i].key, key.s, key.len) == 0)
            return i;
    return -1;
}

/* Splits one trimmed, non-empty entry into key and value and checks them
 * against what MPI_Info_set accepts (OpenMPI refuses a length >= the max). */
static int env_split(struct env_span entry, int max_key, int max_val, struct env_span *key,
                     struct env_span *val, struct cli_msg *msg)
{
    const char *eq = memchr(entry.s, '=', entry.len);
    char why[96];

    if (eq == NULL)
        return env_entry_fail(msg, entry, "expected key=value");
    *key = env_trim((struct env_span){entry.s, (size_t)(eq - entry.s)});
    *val = env_trim((struct env_span){eq + 1, entry.len - (size_t)(eq - entry.s) - 1});
    if (key->len == 0)
        return env_entry_fail(msg, entry, "the key is empty (expected key=value)");
    if (val->len == 0)
        return env_entry_fail(msg, entry, "the value is empty (expected key=value)");
    if (key->len >= (size_t)max_key) {
        snprintf(why, sizeof why, "the key is longer than %d characters", max_key - 1);
        return env_entry_fail(msg, entry, why);
    }
    if (val->len >= (size_t)max_val) {
        snprintf(why, sizeof why, "the value is longer than %d characters", max_val - 1);
        return env_entry_fail(msg, entry, why);
    }
    return 0;
}

/* Adds or, for a key seen before, replaces in place (MPI_Info_set). */
static int env_add(struct config *cfg, size_t *used, struct env_span key, struct env_span val,
                   struct cli_msg *msg)
{
    int i = env_find_key(cfg, key);
    const char *k = NULL, *v;

    if (i < 0 && cfg->info_count == CONFIG_MAX_INFO)
        return cli_fail(msg, "h5perf: HDF5_MPI_INFO: more than %d entries", CONFIG_MAX_INFO);
    if (i < 0)
        k = env_store(cfg, used, key);
    v = env_store(cfg, used, val);
    if ((i < 0 && k == NULL) || v == NULL)
        return cli_fail(msg, "h5perf: HDF5_MPI_INFO: the keys and values exceed %zu bytes",
                        sizeof cfg->info_buf);
    if (i < 0) {
        i = cfg->info_count++;
        cfg->info[i].key = k;
    }
    cfg->info[i].value = v;
    return 0;
}

static int env_parse_info(struct config *cfg, const char *text, int max_key, int max_val,
                          struct cli_msg *msg)
{
    size_t used = 0;
    const char *p = text;

    for (;;) {
        const char *semi = strchr(p, ';');
        struct env_span entry = {p, semi ? (size_t)(semi - p) : strlen(p)};
        struct env_span key = {0}, val = {0};

        entry = env_trim(entry);
        if (entry.len > 0) {
            if (env_split(entry, max_key, max_val, &key, &val, msg) != 0 ||
                env_add(cfg, &used, key, val, msg) != 0)
                return -1;
        }
        if (semi == NULL)
            return 0;
        p = semi + 1;
    }
}

int env_parse(struct config *cfg, const char *mpi_info, const char *nocleanup,
              const char *paraprefix, int max_key, int max_val, struct cli_msg *msg)
{
    msg->line[0] = '\0';
    cfg->nocleanup = nocleanup != NULL;
    cfg->paraprefix = paraprefix;
    cfg->info_defined = mpi_info != NULL;
    cfg->info_count = 0;
    if (mpi_info == NULL)
        return 0;
    return env_parse_info(cfg, mpi_info, max_key, max_val, msg);
}
