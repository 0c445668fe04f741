/* point.h: the table of layouts. */
#include "plan/point.h"

#include <ctype.h>

static const struct layout_desc layouts[LAYOUT_COUNT] = {
    [LAYOUT_SHARED] = {"shared", "(one array in C order)", false},
    [LAYOUT_CHUNKED] = {"chunked",
                        "(one array, each block a chunk, stored block after block; --pattern block "
                        "only)",
                        false},
    [LAYOUT_FPP] = {"fpp", "(a file per process)", true},
};

const struct layout_desc *layout_desc(int l)
{
    return l >= 0 && l < LAYOUT_COUNT ? &layouts[l] : NULL;
}

int layout_find(const char *s, size_t len)
{
    for (int l = 0; l < LAYOUT_COUNT; l++) {
        const char *name = layouts[l].name;
        size_t i = 0;
        while (i < len && name[i] && tolower((unsigned char)s[i]) == name[i])
            i++;
        if (i == len && name[i] == '\0')
            return l;
    }
    return -1;
}

const char *layout_name(int l)
{
    const struct layout_desc *d = layout_desc(l);
    return d ? d->name : "unknown";
}
