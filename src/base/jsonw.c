/* The JSON emitter of jsonw.h. Formats only: the document's shape is the
 * caller's; nothing here allocates. */
#include "base/jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void jsonw_init(struct jsonw *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

static void jsonw_indent(struct jsonw *w)
{
    fputc('\n', w->out);
    for (int i = 0; i < w->depth; i++)
        fputs("  ", w->out);
}

/* Separator and indentation before a value or a key. */
static void jsonw_before(struct jsonw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    if (w->has_items[w->depth])
        fputc(',', w->out);
    w->has_items[w->depth] = true;
    jsonw_indent(w);
}

static void jsonw_open(struct jsonw *w, char c)
{
    jsonw_before(w);
    fputc(c, w->out);
    if (w->depth + 1 < JSONW_MAX_DEPTH)
        w->depth++;
    w->has_items[w->depth] = false;
    w->closer[w->depth] = c == '{' ? '}' : ']';
}

void jsonw_object(struct jsonw *w)
{
    jsonw_open(w, '{');
}

void jsonw_array(struct jsonw *w)
{
    jsonw_open(w, '[');
}

void jsonw_end(struct jsonw *w)
{
    bool items = w->has_items[w->depth];
    char c = w->closer[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (items)
        jsonw_indent(w);
    fputc(c, w->out);
    if (w->depth == 0)
        fputc('\n', w->out);
}

void jsonw_key(struct jsonw *w, const char *key)
{
    jsonw_before(w);
    fputc('"', w->out);
    jsonw_escape(w->out, key);
    fputs("\": ", w->out);
    w->after_key = true;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (s[0] > 0xf4)
        return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* Overlong 3- and 4-byte forms, surrogates and code points above U+10FFFF. */
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

void jsonw_escape(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', out);
            fputc(*p++, out);
        } else if (*p < 0x20 || *p == 0x7f) {
            fprintf(out, "\\u%04x", *p++);
        } else if (*p < 0x80) {
            fputc(*p++, out);
        } else {
            int n = utf8_len(p);
            if (n == 0) {
                fputs("\\ufffd", out);
                p++;
            } else {
                fwrite(p, 1, (size_t)n, out);
                p += n;
            }
        }
    }
}

void jsonw_string(struct jsonw *w, const char *s)
{
    if (!s) {
        jsonw_null(w);
        return;
    }
    jsonw_before(w);
    fputc('"', w->out);
    jsonw_escape(w->out, s);
    fputc('"', w->out);
}

void jsonw_int(struct jsonw *w, int64_t v)
{
    jsonw_before(w);
    fprintf(w->out, "%" PRId64, v);
}

void jsonw_number(struct jsonw *w, double v)
{
    if (!isfinite(v)) {
        jsonw_null(w);
        return;
    }
    char text[32];
    jsonw_shortest(text, sizeof text, v);
    jsonw_before(w);
    fputs(text, w->out);
}

void jsonw_shortest(char *buf, size_t len, double v)
{
    if (!buf || len == 0)
        return;
    /* 17 significant digits always read back; fewer often do. */
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void jsonw_bool(struct jsonw *w, bool v)
{
    jsonw_before(w);
    fputs(v ? "true" : "false", w->out);
}

void jsonw_null(struct jsonw *w)
{
    jsonw_before(w);
    fputs("null", w->out);
}

void jsonw_key_int(struct jsonw *w, const char *key, int64_t v)
{
    jsonw_key(w, key);
    jsonw_int(w, v);
}

void jsonw_key_bool(struct jsonw *w, const char *key, bool v)
{
    jsonw_key(w, key);
    jsonw_bool(w, v);
}

void jsonw_key_string(struct jsonw *w, const char *key, const char *s)
{
    jsonw_key(w, key);
    jsonw_string(w, s);
}

void jsonw_key_ints(struct jsonw *w, const char *key, int n, const int64_t *v)
{
    jsonw_key(w, key);
    jsonw_array(w);
    for (int i = 0; i < n; i++)
        jsonw_int(w, v[i]);
    jsonw_end(w);
}

void jsonw_key_grid(struct jsonw *w, const char *key, int n, const int *grid)
{
    if (grid[0] <= 0) {
        jsonw_key(w, key);
        jsonw_null(w);
        return;
    }
    int64_t g[8];
    for (int i = 0; i < n && i < 8; i++)
        g[i] = grid[i];
    jsonw_key_ints(w, key, n < 8 ? n : 8, g);
}
