/* cli_fail(): the one way a message line is filled in the CLI module and the
 * validation pipeline; cli_one_line() keeps every message on one line. Pure:
 * formats only. */
#include <stdarg.h>
#include <stdio.h>

#include "cli/cli.h"

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
