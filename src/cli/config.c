/* The configuration's own functions (cli.h): config_init(), and
 * cli_name() and cli_raw(), how an option was spelled and its raw value,
 * as messages quote what the user typed. Pure. */
#include "cli/cli.h"

#include <string.h>

void config_init(struct config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->output = NULL;
    cfg->paraprefix = NULL;
    for (int i = 0; i < OPT_COUNT; i++) {
        cfg->spelled[i] = NULL;
        cfg->raw[i] = NULL;
    }
    for (int i = 0; i < CONFIG_MAX_INFO; i++) {
        cfg->info[i].key = NULL;
        cfg->info[i].value = NULL;
    }
}

const char *cli_name(const struct config *cfg, enum opt_id id, const char *short_name)
{
    return cfg->spelled[id] != NULL ? cfg->spelled[id] : short_name;
}

const char *cli_raw(const struct config *cfg, enum opt_id id)
{
    return cfg->raw[id] != NULL ? cfg->raw[id] : "";
}
