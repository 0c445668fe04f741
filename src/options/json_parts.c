/* config_json_parts() (options.h): what the JSON writer leaves to the
 * option table and the pattern (report/json.h): the configuration as the
 * rows echo it, with the pattern's own part, and the pattern's part of each
 * run. Pure. */
#include "options/options.h"
#include "pattern/pattern.h"
#include "report/json.h"

/* The configuration as the option table echoes it (cli/option.h): every
 * pattern's options, those echoed whatever the pattern, then the pattern's
 * own part. */
static void config_json_config(struct jsonw *w, const void *arg)
{
    const struct config *c = arg;
    opt_json_rows(w, c, opt_core_rows, opt_core_count, false);
    const struct opt_row *row;
    for (int i = 0; (row = opt_row_at(i)); i++)
        opt_json_rows(w, opt_src(c, row), &row, 1, true);
    pattern_of(c)->json_config(w, c);
}

static void config_json_run(struct jsonw *w, const void *arg, const struct api_result *r)
{
    const struct config *c = arg;
    pattern_of(c)->json_run(w, c, r);
}

void config_json_parts(const struct config *c, struct json_parts *out)
{
    out->config = config_json_config;
    out->run = pattern_of(c)->json_run ? config_json_run : NULL;
    out->arg = c;
}
