/* cli_fail(): the one way a message line is filled in the CLI module and the
 * validation pipeline. Pure: formats only. */
#include <stdarg.h>
#include <stdio.h>

#include "cli/cli.h"

int cli_fail(struct cli_msg *msg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg->line, sizeof msg->line, fmt, ap);
    va_end(ap);
    return -1;
}
