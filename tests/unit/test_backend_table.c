/* Unit tests of backend_check_table() (backend.h): h5perf's own table, a
 * test backend with a descriptor of its own in every slot (engine_null's
 * table), a backend of the API table out of its slot, an incomplete entry,
 * and a variant that joins variables without the call that does. No MPI
 * calls. */
#include <stdbool.h>

#include "../unit/check.h"
#include "backend/backend.h"

/* A test backend: the functions of POSIX's, a descriptor of its own. */
static const struct api_desc test_desc = {API_POSIX, "test", "test", "test", ".test", 0,
                                          0,         -1,     NULL,   NULL,   NULL,    NULL};

static void table_of(const struct backend_ops *t[API_COUNT], const struct backend_ops *b)
{
    for (int i = 0; i < API_COUNT; i++)
        t[i] = b;
}

static bool joins(enum api_id id)
{
    for (int v = 0; api_variant(id, v); v++)
        if (api_variant(id, v)->joins_vars)
            return true;
    return false;
}

int main(void)
{
    const struct backend_ops *t[API_COUNT];
    for (int i = 0; i < API_COUNT; i++)
        t[i] = backend_get((enum api_id)i);
    CHECK_I64(backend_check_table(t), 0);

    struct backend_ops test = backend_posix;
    test.desc = &test_desc;
    table_of(t, &test);
    CHECK_I64(backend_check_table(t), 0);

    /* POSIX's backend in every slot: out of its own in all but one. */
    table_of(t, &backend_posix);
    CHECK_I64(backend_check_table(t), -1);

    struct backend_ops incomplete = test;
    incomplete.close = NULL;
    table_of(t, &incomplete);
    CHECK_I64(backend_check_table(t), -1);
    incomplete = test;
    incomplete.desc = NULL;
    table_of(t, &incomplete);
    CHECK_I64(backend_check_table(t), -1);

    /* Each built backend without transfer_vars: refused if a variant of
     * its API joins variables. */
    for (int i = 0; i < API_COUNT; i++) {
        const struct backend_ops *b = backend_get((enum api_id)i);
        if (!b)
            continue;
        struct backend_ops copy = *b;
        copy.transfer_vars = NULL;
        for (int j = 0; j < API_COUNT; j++)
            t[j] = backend_get((enum api_id)j);
        t[i] = &copy;
        CHECK_I64(backend_check_table(t), joins((enum api_id)i) ? -1 : 0);
    }
    return check_done("test_backend_table");
}
