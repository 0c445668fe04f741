/* cli_fail(): the one way a message line is filled, in every layer;
 * cli_one_line() keeps every message on one line; cli_warn() appends a
 * warning; cli_bytes() writes a size for a person. Pure: formats only. */
#include <stdarg.h>
#include <stdio.h>

#include "base/msg.h"

void cli_one_line(char *line)
{
    for (unsigned char *p = (unsigned char *)line; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            *p = '?';
}

int cli_fail(struct cli_msg *msg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg->line, sizeof msg->line, fmt, ap);
    va_end(ap);
    /* Messages quote what the user typed, which may hold a newline. */
    cli_one_line(msg->line);
    return -1;
}

/* More than CLI_MAX_WARNINGS are dropped (there are far fewer kinds of
 * warning than that). */
void cli_warn(struct cli_warnings *w, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (w->count >= CLI_MAX_WARNINGS)
        return;
    n = snprintf(w->line[w->count], sizeof w->line[0], "h5perf: warning: ");
    va_start(ap, fmt);
    vsnprintf(w->line[w->count] + n, sizeof w->line[0] - (size_t)n, fmt, ap);
    va_end(ap);
    cli_one_line(w->line[w->count]);
    w->count++;
}

void cli_bytes(char *buf, size_t len, int64_t bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) {
        snprintf(buf, len, "%lld byte%s", (long long)bytes, bytes == 1 ? "" : "s");
        return;
    }
    double v = (double)bytes / 1024.0;
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        u++;
    }
    /* Whole amounts without a decimal: "16 GiB", else "22.9 GiB". */
    if (bytes % ((int64_t)1 << (10 * (u + 1))) == 0)
        snprintf(buf, len, "%.0f %s", v, units[u]);
    else
        snprintf(buf, len, "%.1f %s", v, units[u]);
}
