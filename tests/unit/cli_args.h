/* Running the option parser and the configuration's finish on a command
 * line given as a list, for the unit tests of options. */
#ifndef H5PERF_TEST_CLI_ARGS_H
#define H5PERF_TEST_CLI_ARGS_H

#include "cli/cli.h"
#include "options/options.h"

#define CLI_ARGS_MAX 30

/* A NULL-terminated list of arguments: A("-e", "8"). */
#define A(...) ((const char *const[]){__VA_ARGS__, NULL})

/* opt_parse on "h5perf" followed by args (NULL-terminated, at most
 * CLI_ARGS_MAX of them), into a fresh cfg. */
static inline int parse(const char *const *args, struct config *cfg, struct cli_msg *msg)
{
    const char *argv[CLI_ARGS_MAX + 2] = {"h5perf"};
    int argc = 1;
    while (args[argc - 1] && argc <= CLI_ARGS_MAX)
        argv[argc] = args[argc - 1], argc++;
    argv[argc] = NULL;
    config_init(cfg);
    return opt_parse(argc, (char *const *)argv, cfg, msg);
}

/* Parses args and finishes them for 4 processes: 0, or -1 with msg. */
static inline int finish(const char *const *args, struct config *cfg, struct cli_msg *msg)
{
    struct cli_warnings w;
    if (parse(args, cfg, msg) != 0)
        return -1;
    return config_finish(cfg, 4, &w, msg);
}

#endif
