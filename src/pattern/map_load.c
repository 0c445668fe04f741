/* map.h: the map pattern's load(): the file --map names, read on process 0
 * through the functions setup lends (pattern.h, struct pattern_files):
 * E3SM-IO's decomposition maps, streamed process by process where setup
 * lends the stream (map_stream.c), else read whole (map_e3sm.c), and
 * h5perf's text format (map_text.c). Pure: every byte comes through those
 * functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern/map.h"
#include "pattern/map_e3sm.h"

#define LOAD_WHY 512

/* The map of the file at path into b; or, an E3SM-IO map where setup
 * lends the stream, streamed (*streamed set: every part sent). */
static int map_read(const struct pattern_files *f, const char *path, int want,
                    struct map_builder *b, bool *streamed, char *why, size_t wlen)
{
    enum pattern_file_kind kind = PATTERN_FILE_TEXT;
    char lib[LOAD_WHY];
    if (f->kind(f->ctx, path, &kind, lib, sizeof lib) < 0) {
        snprintf(why, wlen, "%s%s", strncmp(lib, "is ", 3) == 0 ? "" : "cannot be read: ", lib);
        return -1;
    }
    if (kind == PATTERN_FILE_TEXT) {
        unsigned char *data = NULL;
        size_t len = 0;
        int64_t size = 0;
        map_builder_init(b, "text", true);
        b->want_procs = want;
        b->memory = f->memory;
        /* The text is read whole: counted before it is. */
        if (f->size(f->ctx, path, &size, lib, sizeof lib) < 0) {
            snprintf(why, wlen, "cannot be read: %s", lib);
            return -1;
        }
        if (map_builder_take(b, size + 1, why, wlen) < 0)
            return -1;
        if (f->read(f->ctx, path, &data, &len, lib, sizeof lib) < 0) {
            snprintf(why, wlen, "cannot be read: %s", lib);
            return -1;
        }
        int rc = map_text_parse((const char *)data, len, b, why, wlen);
        free(data);
        map_builder_give(b, size + 1);
        return rc;
    }
    bool hdf5 = kind == PATTERN_FILE_HDF5;
    map_builder_init(b, hdf5 ? "E3SM-IO HDF5" : "E3SM-IO netCDF", false);
    b->want_procs = want;
    b->memory = f->memory;
    if (f->open(f->ctx, path, kind, lib, sizeof lib) < 0) {
        snprintf(why, wlen, "%s%s", strncmp(lib, "is ", 3) == 0 ? "" : "cannot be opened: ", lib);
        return -1;
    }
    int rc = f->send_part ? map_e3sm_stream(f, kind, b, why, wlen) : 1;
    *streamed = rc == 0;
    if (rc == 1) {
        /* Its arrays' bitmaps would hold more than its runs: read whole. */
        map_builder_release(b);
        map_builder_init(b, hdf5 ? "E3SM-IO HDF5" : "E3SM-IO netCDF", false);
        b->want_procs = want;
        b->memory = f->memory;
        rc = map_e3sm_read(f, kind, b, why, wlen);
    }
    f->close(f->ctx);
    return rc;
}

int map_load(const struct config *c, const struct pattern_files *files, unsigned char **bytes,
             size_t *len, struct cli_msg *m)
{
    struct map_builder *b = malloc(sizeof *b);
    char why[1024];
    *bytes = NULL;
    *len = 0;
    if (!b)
        return cli_fail(m, "h5perf: %s '%s': out of memory", map_file_spelled(map_own(c)),
                        map_file_raw(map_own(c)));
    map_builder_init(b, "text", true);
    /* The run has -p processes (map_finish): a map for another count is
     * refused as soon as it says so. */
    bool streamed = false;
    int rc = map_read(files, map_of(c)->file, c->min_procs, b, &streamed, why, sizeof why);
    if (rc == 0 && !streamed)
        rc = map_builder_finish(b, bytes, len, why, sizeof why);
    bool over = b->over;
    map_builder_release(b);
    free(b);
    /* The memory check of process 0's reading (docs/map.md, "Memory"). */
    if (rc < 0 && over) {
        char need[32];
        cli_bytes(need, sizeof need, files->memory);
        return cli_fail(m,
                        "h5perf: %s '%s': reading it on process 0 (its text, entries, boxes and "
                        "rows) needs more than %s, and %s; use a map of fewer entries, or give "
                        "--no-memory-check",
                        map_file_spelled(map_own(c)), map_file_raw(map_own(c)), need,
                        files->memory_where);
    }
    if (rc < 0)
        return cli_fail(m, "h5perf: %s '%s': %s", map_file_spelled(map_own(c)),
                        map_file_raw(map_own(c)), why);
    return 0;
}
