/* cli_name() and cli_raw() (cli.h): how an option was spelled and its raw
 * value, as messages quote what the user typed. Pure. */
#include "cli/cli.h"

const char *cli_name(const struct config *cfg, enum opt_id id, const char *short_name)
{
    return cfg->spelled[id] != NULL ? cfg->spelled[id] : short_name;
}

const char *cli_raw(const struct config *cfg, enum opt_id id)
{
    return cfg->raw[id] != NULL ? cfg->raw[id] : "";
}
