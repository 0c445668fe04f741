/* The table of patterns (pattern.h): a new pattern is one line here and
 * its own files (docs/design.md, "Adding a pattern"); and where each
 * pattern's own options are stored and recorded (config.patterns). */
#include "pattern/pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli/option.h"
#include "pattern/block.h"
#include "pattern/guide.h"
#include "pattern/map.h"
#include "pattern/madbench.h"
#include "pattern/particles.h"
#include "pattern/trace.h"
#include "pattern/violation.h"

const struct pattern_desc *const pattern_table[] = {
    &pattern_guide, &pattern_block,    &pattern_particles,
    &pattern_map,   &pattern_madbench, &pattern_trace,
};

const int pattern_count = (int)(sizeof pattern_table / sizeof pattern_table[0]);

_Static_assert(sizeof pattern_table / sizeof pattern_table[0] == CONFIG_PATTERNS,
               "cli/config.h: CONFIG_PATTERNS");

const struct pattern_desc *pattern_of(const struct config *c)
{
    return c->pattern >= 0 && c->pattern < pattern_count ? pattern_table[c->pattern]
                                                         : pattern_table[0];
}

int pattern_files(const struct config *c)
{
    const struct pattern_desc *p = pattern_of(c);
    return p->files ? p->files(c) : 1;
}

int pattern_validate_extent(const struct config *c, int nprocs, const struct extent_file *f,
                            struct cli_msg *m)
{
    char lead[192];
    pattern_of(c)->file_lead(c, lead, sizeof lead);
    return config_validate_extent(c, nprocs, f, lead, m);
}

int pattern_index(const struct pattern_desc *p)
{
    for (int i = 0; i < pattern_count; i++)
        if (pattern_table[i] == p)
            return i;
    return -1;
}

const struct pattern_settings *pattern_settings_of(const struct config *c,
                                                   const struct pattern_desc *p)
{
    return &c->patterns[pattern_index(p)];
}

struct pattern_settings *pattern_settings_edit(struct config *c, const struct pattern_desc *p)
{
    return &c->patterns[pattern_index(p)];
}

int pattern_row_index(const struct pattern_desc *p, const struct opt_row *row)
{
    int k = 0;
    for (int i = 0; p->rows[i] && k < PATTERN_MAX_ROWS; i++) {
        if (p->rows[i]->id != OPT_ID_PATTERN)
            continue;
        if (p->rows[i] == row)
            return k;
        k++;
    }
    return -1;
}

int pattern_owner(const struct opt_row *row)
{
    if (row->id != OPT_ID_PATTERN)
        return -1;
    for (int i = 0; i < pattern_count; i++)
        if (pattern_row_index(pattern_table[i], row) >= 0)
            return i;
    return -1;
}

const char *pattern_row_spelled(const struct pattern_settings *s, const struct pattern_desc *p,
                                const struct opt_row *row)
{
    int k = pattern_row_index(p, row);
    return k >= 0 ? s->spelled[k] : NULL;
}

const char *pattern_row_raw(const struct pattern_settings *s, const struct pattern_desc *p,
                            const struct opt_row *row)
{
    int k = pattern_row_index(p, row);
    return k >= 0 ? s->raw[k] : NULL;
}

void pattern_json_rows(struct jsonw *w, const struct config *c, const struct pattern_desc *p)
{
    const void *own = pattern_settings_of(c, p)->own.bytes;
    for (int i = 0; p->rows[i]; i++)
        opt_json_rows(w, p->rows[i]->id == OPT_ID_PATTERN ? own : (const void *)c, &p->rows[i], 1,
                      false);
}

int pattern_find(const char *s, size_t len)
{
    for (int p = 0; p < pattern_count; p++) {
        const char *key = pattern_table[p]->key;
        size_t i = 0;
        while (i < len && key[i] && tolower((unsigned char)s[i]) == key[i])
            i++;
        if (i == len && key[i] == '\0')
            return p;
    }
    return -1;
}

void pattern_key_list(char *buf, size_t len)
{
    buf[0] = '\0';
    for (int p = 0; p < pattern_count; p++)
        opt_list_add(buf, len, p, pattern_count, pattern_table[p]->key, pattern_table[p]->gloss,
                     " or ");
}

const char *pattern_violation_text(enum pattern_violation v)
{
    switch (v) {
    case PATTERN_OK:
        return "no violation";
    case PATTERN_BAD_VALUE:
        return "a size or the number of processes is not positive, or the geometry is not 1 or 2";
    case PATTERN_BLOCK_XFER:
        return "the transfer size is not a multiple of the block size";
    case PATTERN_XFER_BYTES:
        return "the bytes per process (in 2d the dataset side) is not a multiple of the "
               "transfer size";
    case PATTERN_BLOCK_BYTES:
        return "the bytes per process is not a multiple of the block size";
    case PATTERN_OVERFLOW:
        return "the dataset size does not fit in a signed 64-bit integer";
    case PATTERN_GRID_PROCS:
        return "the process grid does not have as many processes as the run";
    case PATTERN_GRID_SPLIT:
        return "a dimension of the process grid does not divide the array's";
    case PATTERN_NO_PARTICLES:
        return "no process has any particles";
    case PATTERN_ALIGN:
        return "the alignment or shift is out of range or does not apply to the layout";
    }
    return "unknown violation";
}
