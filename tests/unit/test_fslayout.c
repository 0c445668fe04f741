/* Unit tests of the Lustre striping decoder (report/fslayout.h): lustre.lov
 * values of each kind built here byte by byte as lustre_user.h lays them
 * out (v1, v3 with a pool, a composite layout), the "every OST" and "any
 * OST" values, and values it must refuse (truncated, unknown magic, a
 * component outside the value). No MPI. */
#include <stdlib.h>

#include "check.h"
#include "report/fslayout.h"

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static void put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}

/* A plain layout at p: v3 when pool is not NULL. Returns its size. */
static size_t plain(unsigned char *p, uint32_t size, uint16_t count, uint16_t offset,
                    const char *pool)
{
    memset(p, 0, 48);
    put32(p, pool ? 0x0BD30BD0u : 0x0BD10BD0u);
    put32(p + 4, 1); /* RAID0 */
    put32(p + 24, size);
    put16(p + 28, count);
    put16(p + 30, offset);
    if (pool)
        memcpy(p + 32, pool, strlen(pool));
    return pool ? 48 : 32;
}

int main(void)
{
    unsigned char buf[256];
    struct fs_layout l;

    size_t n = plain(buf, 1048576, 4, 2, NULL);
    CHECK_I64(fs_layout_lov(buf, n, &l), 0);
    CHECK(l.lustre);
    CHECK_I64(l.stripe_size, 1048576);
    CHECK_I64(l.stripe_count, 4);
    CHECK_I64(l.stripe_offset, 2);
    CHECK_STR(l.pool, "");
    CHECK_I64(l.components, 0);

    n = plain(buf, 4194304, 0xFFFF, 0xFFFF, "flash");
    CHECK_I64(fs_layout_lov(buf, n, &l), 0);
    CHECK_I64(l.stripe_count, -1);
    CHECK_I64(l.stripe_offset, -1);
    CHECK_STR(l.pool, "flash");
    /* A pool name of all 16 bytes has no NUL of its own. */
    n = plain(buf, 65536, 1, 0, "0123456789abcdef");
    CHECK_I64(fs_layout_lov(buf, n, &l), 0);
    CHECK_STR(l.pool, "0123456789abcdef");

    /* Composite: 2 entries, the first component (v1) after both. */
    memset(buf, 0, sizeof buf);
    put32(buf, 0x0BD60BD0u);
    put16(buf + 14, 2);
    put32(buf + 32 + 24, 128);
    put32(buf + 32 + 28, 32);
    plain(buf + 128, 262144, 1, 0xFFFF, NULL);
    CHECK_I64(fs_layout_lov(buf, 160, &l), 0);
    CHECK_I64(l.stripe_size, 262144);
    CHECK_I64(l.stripe_count, 1);
    CHECK_I64(l.stripe_offset, -1);
    CHECK_I64(l.components, 2);
    /* ... whose first component lies past the value. */
    CHECK_I64(fs_layout_lov(buf, 150, &l), -1);
    CHECK(!l.lustre);

    n = plain(buf, 1048576, 4, 2, NULL);
    CHECK_I64(fs_layout_lov(buf, n - 1, &l), -1);
    n = plain(buf, 1048576, 4, 2, "p");
    CHECK_I64(fs_layout_lov(buf, n - 1, &l), -1);
    put32(buf, 0x0BD20BD0u); /* the join layout of old Lustre */
    CHECK_I64(fs_layout_lov(buf, n, &l), -1);
    CHECK(!l.lustre);
    CHECK_I64(fs_layout_lov(buf, 0, &l), -1);
    return check_done("test_fslayout");
}
