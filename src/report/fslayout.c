/* fs_layout_lov(): Lustre's lov_user_md as getxattr("lustre.lov") returns
 * it, little-endian on the hosts Lustre runs on (lustre/lustre_user.h):
 *   v1/v3: magic u32, pattern u32, object id 16 bytes, stripe_size u32 at
 *          24, stripe_count u16 at 28, stripe_offset u16 at 30; v3 then
 *          the pool's name, 16 bytes at 32;
 *   composite (PFL): magic u32, size u32, layout generation u32, flags u16,
 *          entry count u16 at 14, mirror count, padding, then entries of
 *          48 bytes from 32: id, flags, extent (16 bytes), the component's
 *          offset u32 (from the start of the value) at 24 and size u32 at
 *          28 of the entry.
 * A directory's default may leave the size or count 0: the file system's
 * default then applies.
 * Pure. */
#include "report/fslayout.h"

#include <string.h>

#define LOV_MAGIC_V1      0x0BD10BD0u
#define LOV_MAGIC_V3      0x0BD30BD0u
#define LOV_MAGIC_COMP_V1 0x0BD60BD0u
#define LOV_ANY           0xFFFFu /* stripe count: every OST; offset: any */

static uint32_t lov_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t lov_u16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* A plain layout (v1 or v3) of len bytes at buf. */
static int lov_plain(const unsigned char *buf, size_t len, struct fs_layout *l)
{
    uint32_t magic = len >= 32 ? lov_u32(buf) : 0;
    if ((magic != LOV_MAGIC_V1 && magic != LOV_MAGIC_V3) || (magic == LOV_MAGIC_V3 && len < 48))
        return -1;
    uint16_t count = lov_u16(buf + 28), offset = lov_u16(buf + 30);
    l->stripe_size = lov_u32(buf + 24);
    l->stripe_count = count == LOV_ANY ? -1 : count;
    l->stripe_offset = offset == LOV_ANY ? -1 : offset;
    l->pool[0] = '\0';
    if (magic == LOV_MAGIC_V3) {
        memcpy(l->pool, buf + 32, 16);
        l->pool[16] = '\0';
    }
    l->lustre = true;
    return 0;
}

int fs_layout_lov(const unsigned char *buf, size_t len, struct fs_layout *l)
{
    l->lustre = false;
    l->components = 0;
    if (len >= 4 && lov_u32(buf) != LOV_MAGIC_COMP_V1)
        return lov_plain(buf, len, l);
    /* Composite: its first component, which the file's first bytes use. */
    if (len < 32 + 48)
        return -1;
    int entries = lov_u16(buf + 14);
    uint32_t off = lov_u32(buf + 32 + 24), size = lov_u32(buf + 32 + 28);
    if (entries < 1 || off > len || size > len - off || lov_plain(buf + off, size, l) < 0)
        return -1;
    l->components = entries;
    return 0;
}
