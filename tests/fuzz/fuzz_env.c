/* libFuzzer target for env_parse() (src/cli/env.c): the input, cut at its
 * first NUL, is the value of HDF5_MPI_INFO, with Open MPI's limits (keys
 * under 36, values under 256 characters). Bits of the first byte also
 * decide whether HDF5_NOCLEANUP and HDF5_PARAPREFIX are defined. The
 * entries kept are checked against a separate split of the input, and the
 * report header that prints them is written to /dev/null. No MPI. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "pattern/pattern.h"
#include "report/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_KEY 36  /* Open MPI's MPI_MAX_INFO_KEY */
#define MAX_VAL 256 /* Open MPI's MPI_MAX_INFO_VAL */

/* The report header goes here; opened once because libFuzzer calls the
 * target millions of times (the only static state of this file). */
static FILE *sink;

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

/* [*s, *e) without leading and trailing blanks. */
static void trim(const char **s, const char **e)
{
    while (*s < *e && blank(**s))
        (*s)++;
    while (*e > *s && blank((*e)[-1]))
        (*e)--;
}

static bool span_is(const char *s, const char *e, const char *str)
{
    return strlen(str) == (size_t)(e - s) && memcmp(s, str, (size_t)(e - s)) == 0;
}

/* A kept string: inside info_buf, non-empty, shorter than max, trimmed and
 * free of the separators. */
static void check_string(const struct config *cfg, const char *str, int max, const char *forbid)
{
    size_t len;

    if (str == NULL || str < cfg->info_buf || str >= cfg->info_buf + sizeof cfg->info_buf)
        abort();
    len = strnlen(str, (size_t)(cfg->info_buf + sizeof cfg->info_buf - str));
    if (str + len >= cfg->info_buf + sizeof cfg->info_buf)
        abort(); /* not terminated inside the buffer */
    if (len == 0 || len >= (size_t)max || blank(str[0]) || blank(str[len - 1]))
        abort();
    if (strpbrk(str, forbid) != NULL)
        abort();
}

/* One key=value entry of the reference split, trimmed. */
struct ref_entry {
    const char *ks, *ke, *vs, *ve;
};

/* A separate split of the text into its non-empty entries; n gets their
 * number. Aborts on an entry without '=' (env_parse must refuse it). */
static struct ref_entry *ref_split(const char *text, int *n)
{
    size_t max = 1;
    struct ref_entry *ent;

    for (const char *p = strchr(text, ';'); p != NULL; p = strchr(p + 1, ';'))
        max++;
    ent = malloc(max * sizeof *ent);
    *n = 0;
    if (ent == NULL)
        abort();
    for (const char *p = text;;) {
        const char *semi = strchr(p, ';');
        const char *s = p, *e = semi != NULL ? semi : p + strlen(p);
        trim(&s, &e);
        if (s < e) {
            const char *eq = memchr(s, '=', (size_t)(e - s));
            struct ref_entry r = {s, eq, eq + 1, e};
            if (eq == NULL)
                abort();
            trim(&r.ks, &r.ke);
            trim(&r.vs, &r.ve);
            ent[(*n)++] = r;
        }
        if (semi == NULL)
            return ent;
        p = semi + 1;
    }
}

/* What MPI_Info_set would make of the entries: each key once, in order of
 * first appearance, with the value of its last entry. Only called after
 * success. */
static void check_entries(const struct config *cfg, const char *text)
{
    int n, next = 0;
    struct ref_entry *ent;

    if (cfg->info_count < 0 || cfg->info_count > CONFIG_MAX_INFO)
        abort();
    for (int i = 0; i < cfg->info_count; i++) {
        check_string(cfg, cfg->info[i].key, MAX_KEY, ";=");
        check_string(cfg, cfg->info[i].value, MAX_VAL, ";");
    }
    ent = ref_split(text, &n);
    for (int k = 0; k < n; k++) {
        int i = 0;
        while (i < next && !span_is(ent[k].ks, ent[k].ke, cfg->info[i].key))
            i++;
        if (i == next) {
            /* a new key: it must be the next one kept */
            if (next == cfg->info_count || !span_is(ent[k].ks, ent[k].ke, cfg->info[next].key))
                abort();
            next++;
        }
    }
    if (next != cfg->info_count)
        abort(); /* a key kept that no entry gave, or twice */
    for (int i = 0; i < cfg->info_count; i++) {
        int k = n - 1;
        while (k >= 0 && !span_is(ent[k].ks, ent[k].ke, cfg->info[i].key))
            k--;
        if (k < 0 || !span_is(ent[k].vs, ent[k].ve, cfg->info[i].value))
            abort();
    }
    free(ent);
}

static void check_failure(const struct cli_msg *msg, const char *text)
{
    size_t len = strnlen(msg->line, sizeof msg->line);

    if (len == sizeof msg->line || strncmp(msg->line, "h5perf: HDF5_MPI_INFO", 21) != 0)
        abort();
    /* the message quotes the entry; it is one line when the text is */
    if (strpbrk(text, "\n\r") == NULL && strpbrk(msg->line, "\n\r") != NULL)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t len = nul != NULL ? (size_t)(nul - data) : size;
    unsigned flags = size > 0 ? data[0] : 0;
    char *text = malloc(len + 1);
    struct config cfg;
    struct cli_msg msg;
    int rc;

    if (text == NULL)
        return 0;
    memcpy(text, data, len);
    text[len] = '\0';
    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        abort();

    config_init(&cfg);
    rc = env_parse(&cfg, text, (flags & 1) ? "" : NULL, (flags & 2) ? text : NULL, MAX_KEY, MAX_VAL,
                   &msg);
    if (cfg.nocleanup != ((flags & 1) != 0) || cfg.paraprefix != ((flags & 2) ? text : NULL) ||
        !cfg.info_defined)
        abort();
    if (rc == 0) {
        if (msg.line[0] != '\0')
            abort();
        check_entries(&cfg, text);
        struct report_settings rs;
        config_report_settings(&cfg, &rs);
        text_header(sink, &rs, 0, "1.14.0", MAX_VAL);
    } else if (rc == -1) {
        check_failure(&msg, text);
    } else {
        abort();
    }
    free(text);
    return 0;
}
