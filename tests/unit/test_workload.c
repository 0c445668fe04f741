/* The workload file's parser (src/workload, docs/advisor.md "The workload
 * file"): every refusal exactly, with the file, the line and the key path;
 * what an accepted file holds (defaults, search edits); the baseline's
 * command lines of the examples in examples/workloads, and the refusal of
 * a choice that does not apply to a set. Pure: no MPI. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "api/api.h"
#include "workload/workload.h"

#ifndef H5PERF_SOURCE_DIR
#error "H5PERF_SOURCE_DIR: the source tree, for examples/workloads"
#endif

/* A small array that every refusal below starts from where it needs one. */
#define ARRAY "arrays: [{global: [64], decomposition: {grid: [2]}}]\n"

/* The refusal of text ("" when it is taken). */
static const char *parse_refusal(const char *text)
{
    static struct cli_msg m;
    struct workload w;
    m.line[0] = '\0';
    if (workload_parse("w.yaml", text, strlen(text), &w, &m) == 0) {
        workload_release(&w);
        return "";
    }
    return m.line;
}

static const struct {
    const char *text, *line;
} refusals[] = {
    {"arrays: [{global: abc, decomposition: {grid: [2]}}]",
     "h5perf: workload 'w.yaml', line 1, arrays[0].global: expected 1 to 3 whole numbers from 1 "
     "to 9223372036854775807, e.g. [512, 512, 512], got 'abc'"},
    {"arrays:\n  - global: [64, 64]\n    decomposition: {grid: [2, 3]}",
     "h5perf: workload 'w.yaml', line 3, arrays[0].decomposition.grid: the grid does not divide "
     "global (dimension 1: 64 elements over 3 processes)"},
    {"arrays:\n  - global: [64, 64]\n    decomposition: {grid: [2]}",
     "h5perf: workload 'w.yaml', line 3, arrays[0].decomposition.grid: the grid has 1 dimension, "
     "global has 2"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2]}\n    type: f128",
     "h5perf: workload 'w.yaml', line 4, arrays[0].type: expected u8, u16, u32, u64, i8, i16, "
     "i32, i64, f32 or f64, got 'f128'"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2]}\n    type: f64\n    element_size: "
     "4",
     "h5perf: workload 'w.yaml', line 5, arrays[0].element_size: 4 bytes, and type 'f64' has 8"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2]}\n    colour: red",
     "h5perf: workload 'w.yaml', line 4, arrays[0]: unknown key 'colour' (expected name, global, "
     "element_size, type, decomposition, variables, steps or read_back)"},
    {"arrays:\n  - global: [64]",
     "h5perf: workload 'w.yaml', line 2, arrays[0]: give decomposition: a process grid (grid: [2, "
     "2, 2]) or a map file (map: FILE)"},
    {"arrays:\n  - decomposition: {grid: [2]}",
     "h5perf: workload 'w.yaml', line 2, arrays[0]: give global: the array's shape in elements, "
     "slowest first, e.g. [512, 512, 512]"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2], map: m.txt}",
     "h5perf: workload 'w.yaml', line 3, arrays[0].decomposition: give a grid or a map, not both"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2], use: 1}",
     "h5perf: workload 'w.yaml', line 3, arrays[0].decomposition.use: picks a decomposition of a "
     "map; give map"},
    {"arrays:\n  - decomposition: {map: m.txt}\n    global: [64]",
     "h5perf: workload 'w.yaml', line 3, arrays[0].global: the map file gives the arrays' shapes; "
     "leave out global"},
    {"arrays:\n  - decomposition: {map: m.txt}\n    read_back: {grid: [2]}",
     "h5perf: workload 'w.yaml', line 3, arrays[0].read_back: a map array is read back with its "
     "map: give true or false"},
    {"arrays:\n  - decomposition: {map: m.txt, use: 2}\n    variables: [1, 2]",
     "h5perf: workload 'w.yaml', line 3, arrays[0].variables: use picks one decomposition: give "
     "one count, not a list"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2]}\n    variables: [1, 2]",
     "h5perf: workload 'w.yaml', line 4, arrays[0].variables: a list of counts is for a map's "
     "decompositions: give one count"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2]}\n    read_back: {grid: [4]}",
     "h5perf: workload 'w.yaml', line 4, arrays[0].read_back.grid: has 4 processes, the grid has "
     "2"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2]}\n    read_back: maybe",
     "h5perf: workload 'w.yaml', line 4, arrays[0].read_back: expected true, false or {grid: "
     "[...]}, got 'maybe'"},
    {"arrays:\n  - global: [64]\n    decomposition: {grid: [2]}\n    steps: 0",
     "h5perf: workload 'w.yaml', line 4, arrays[0].steps: expected a whole number from 1 to "
     "9223372036854775807, got '0'"},
    {"particles:\n  - per_process: 100\n    distribution: lumpy",
     "h5perf: workload 'w.yaml', line 3, particles[0].distribution: expected uniform, "
     "imbalance:F, normal:SD or list:n0,n1,... (one count per process)"},
    {"particles:\n  - distribution: uniform",
     "h5perf: workload 'w.yaml', line 2, particles[0]: give per_process: the mean count of "
     "particles per process"},
    {"particles:\n  - distribution: list:1,2\n    per_process: 5",
     "h5perf: workload 'w.yaml', line 3, particles[0].per_process: the list distribution gives "
     "every process's count; leave out per_process"},
    {"particles:\n  - per_process: 10\n    variables: [x, y, x]",
     "h5perf: workload 'w.yaml', line 3, particles[0].variables[2]: 'x' is named twice"},
    /* 9 > 8 once passed a digit check that divided a negative number. */
    {"particles:\n  - per_process: 10\n    variables: 9",
     "h5perf: workload 'w.yaml', line 3, particles[0].variables: expected a whole number from 1 "
     "to 8, got '9'"},
    {"processes: 4\narrays:\n  - global: [64]\n    decomposition: {grid: [2]}",
     "h5perf: workload 'w.yaml', line 4, arrays[0].decomposition.grid: runs on 2 processes, and "
     "processes has 4"},
    {"processes: 0\n" ARRAY,
     "h5perf: workload 'w.yaml', line 1, processes: expected a whole number from 1 to 2147483647, "
     "got '0'"},
    {"arrays:\n  - {name: a, global: [64], decomposition: {grid: [2]}}\n"
     "  - {name: a, global: [64], decomposition: {grid: [2]}}",
     "h5perf: workload 'w.yaml', line 3, arrays[1].name: 'a' is also the name of arrays[0]"},
    {"name: x",
     "h5perf: workload 'w.yaml', line 1: declares no data: give arrays, particles or traces"},
    {ARRAY "baseline:\n  api: hdf6",
     "h5perf: workload 'w.yaml', line 3, baseline.api: expected posix, mpiio, phdf5 or pnetcdf, "
     "got 'hdf6'"},
    {ARRAY "baseline:\n  layout: shared\n  chunk: [32]",
     "h5perf: workload 'w.yaml', line 4, baseline.chunk: is the chunked layout's chunk, and the "
     "baseline's layout is shared"},
    {ARRAY "baseline:\n  layout: chunked\n  chunk: [128]",
     "h5perf: workload 'w.yaml', line 4, baseline.chunk: chunk shape 128 is beyond arrays[0]'s "
     "extent 64 in dimension 1"},
    {ARRAY "baseline:\n  layout: chunked\n  chunk: 8x8",
     "h5perf: workload 'w.yaml', line 4, baseline.chunk: chunk shape 8x8 has 2 dimensions, "
     "arrays[0] has 1"},
    {ARRAY "baseline:\n  layout: chunked\n  chunk: [2000000, 1, 1]",
     "h5perf: workload 'w.yaml', line 4, baseline.chunk: a chunk's extents are below 2^60, 2^30 "
     "or 2^20 elements with 1, 2 or 3 dimensions"},
    {ARRAY "baseline:\n  collective_metadata: maybe",
     "h5perf: workload 'w.yaml', line 3, baseline.collective_metadata: expected "
     "true or false, got 'maybe'"},
    {ARRAY "baseline:\n  pnetcdf_nonblocking: maybe",
     "h5perf: workload 'w.yaml', line 3, baseline.pnetcdf_nonblocking: expected "
     "true or false, got 'maybe'"},
    {ARRAY "search:\n  pnetcdf_nonblocking: [true, yes]",
     "h5perf: workload 'w.yaml', line 3, search.pnetcdf_nonblocking[1]: expected "
     "true or false, got 'yes'"},
    {ARRAY "baseline:\n  buffer_offset: 4K",
     "h5perf: workload 'w.yaml', line 3, baseline.buffer_offset: from 0 to 4095 bytes (past a "
     "page boundary), got 4096"},
    {ARRAY "baseline:\n  transfer_size: 1Q",
     "h5perf: workload 'w.yaml', line 3, baseline.transfer_size: expected a size in bytes (digits "
     "with an optional K, M or G, e.g. 4K, 16M) or whole, got '1Q'"},
    {ARRAY "baseline:\n  hints: {romio_cb_write: maybe}",
     "h5perf: workload 'w.yaml', line 3, baseline.hints.romio_cb_write: expected enable, disable "
     "or automatic, got 'maybe'"},
    {ARRAY "baseline:\n  hints: {cb_buffer_size: 4M, cb_buffer_size: 8M}",
     "h5perf: workload 'w.yaml', line 3, baseline.hints: hint 'cb_buffer_size' given twice"},
    {ARRAY "baseline:\n  hints: {my_hint: 'a;b'}",
     "h5perf: workload 'w.yaml', line 3, baseline.hints.my_hint: a hint's value is 1 to 255 "
     "characters, without ';', '=' or blanks around it"},
    {ARRAY "baseline:\n  mpiio_component: ROMIO",
     "h5perf: workload 'w.yaml', line 3, baseline.mpiio_component: expected the name of an MPI-IO "
     "component, e.g. ompio or romio321, got 'ROMIO'"},
    {ARRAY "search:\n  apis: [posix, posix]",
     "h5perf: workload 'w.yaml', line 3, search.apis[1]: lists posix twice"},
    {ARRAY "search:\n  layouts: {remove: [shared, chunked, fpp]}",
     "h5perf: workload 'w.yaml', line 3, search.layouts: leaves no candidate"},
    {ARRAY "search:\n  transfer_sizes: {remove: [2M]}",
     "h5perf: workload 'w.yaml', line 3, search.transfer_sizes.remove[0]: removes 2M, which is "
     "not a candidate"},
    {ARRAY "search:\n  mpiio_components: [romio-321]",
     "h5perf: workload 'w.yaml', line 3, search.mpiio_components[0]: expected the name of an "
     "MPI-IO component, e.g. ompio or romio321, got 'romio-321'"},
    {ARRAY "search:\n  chunk_shapes: [block, [8], 8]",
     "h5perf: workload 'w.yaml', line 3, search.chunk_shapes[2]: lists 8 twice"},
    {ARRAY "search:\n  metadata_block_sizes: [0]",
     "h5perf: workload 'w.yaml', line 3, search.metadata_block_sizes[0]: expected a size in "
     "bytes (digits with an optional K, M or G, e.g. 4K, 16M), got '0'"},
    {ARRAY "search:\n  colours: [red]",
     "h5perf: workload 'w.yaml', line 3, search: unknown key 'colours' (expected apis, layouts, "
     "io_modes, alignments, thresholds, align_data, chunk_shapes, transfer_sizes, "
     "buffer_offsets, mpiio_joined, collective_metadata, metadata_block_sizes, "
     "pnetcdf_nonblocking, "
     "mpiio_components or hints)"},
    {ARRAY "arrays: []", "h5perf: workload 'w.yaml', line 2: key 'arrays' given twice"},
    {"arrays: [{global: [64], decomposition: {grid: [2]}}\n",
     "h5perf: workload 'w.yaml', line 2: did not find expected ',' or ']' (while parsing a flow "
     "sequence from line 1)"},
    {ARRAY "---\nname: two", "h5perf: workload 'w.yaml', line 3: a second YAML document; give one"},
    {"- a\n- b",
     "h5perf: workload 'w.yaml', line 1: expected a mapping with arrays, particles or traces "
     "(docs/advisor.md), got a list"},
    {"", "h5perf: workload 'w.yaml': is empty (docs/advisor.md shows one)"},
    {"name: \"\\xff\"\narrays: \xff",
     "h5perf: workload 'w.yaml', byte 21: invalid leading UTF-8 octet"},
};

static void test_refusals(void)
{
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
        CHECK_STR(parse_refusal(refusals[i].text), refusals[i].line);
}

/* What a file holds: the defaults, and the search's edits. */
static void test_values(void)
{
    static const char text[] = "arrays:\n"
                               "  - global: [64, 32]\n"
                               "    decomposition: {grid: [2, 1]}\n"
                               "search:\n"
                               "  apis: [mpiio]\n"
                               "  transfer_sizes: {add: [4K], remove: [whole]}\n"
                               "  hints: {romio_cb_write: [], striping_unit: [1M]}\n";
    struct workload w;
    struct cli_msg m = {""};
    CHECK(workload_parse("dir/w.yaml", text, sizeof text - 1, &w, &m) == 0);
    if (m.line[0])
        return;
    CHECK_I64(w.nsets, 1);
    CHECK_STR(w.sets[0].name, "arrays[0]");
    CHECK_I64(w.sets[0].elem, 8);
    CHECK_I64(w.sets[0].steps, 1);
    CHECK_I64(w.sets[0].read_back, WORKLOAD_READ_NONE);
    CHECK_I64(workload_processes(&w, 7), 2);
    const struct workload_values *x = &w.search.dim[WORKLOAD_TRANSFER_SIZE];
    CHECK_I64(x->n, 3);
    CHECK_I64(x->v[0], 4096); /* added, then moved into the gap whole left */
    CHECK_I64(x->v[1], 1 << 20);
    CHECK_I64(x->v[2], 16 << 20);
    CHECK_I64(w.search.dim[WORKLOAD_API].n, 1);
    CHECK_I64(w.search.nhints, 2); /* romio_cb_write gone, striping_unit added */
    bool striping = false, cb_write = false;
    for (int h = 0; h < w.search.nhints; h++) {
        striping |= strcmp(w.search.hints[h].key, "striping_unit") == 0 &&
                    w.search.hints[h].n == 1 && strcmp(w.search.hints[h].values[0], "1048576") == 0;
        cb_write |= strcmp(w.search.hints[h].key, "romio_cb_write") == 0;
    }
    CHECK(striping && !cb_write);

    /* A choice that does not apply to the set: 1, with the reason. */
    struct workload_choice c = w.baseline;
    struct workload_config cfg;
    c.v[WORKLOAD_API] = 0; /* posix */
    c.v[WORKLOAD_COLLECTIVE] = 1;
    CHECK_I64(workload_config(&w, 0, &c, 2, &cfg, &m), 1);
    CHECK_STR(m.line, "h5perf: workload 'dir/w.yaml', line 2, arrays[0]: applies to mpiio, "
                      "phdf5 and pnetcdf, not posix");
    /* A candidate's command line, with its hints. */
    c = w.baseline;
    c.v[WORKLOAD_COLLECTIVE] = 1;
    c.v[WORKLOAD_TRANSFER_SIZE] = 4096;
    c.v[WORKLOAD_BUFFER_OFFSET] = 8;
    c.nhints = 1;
    c.hints[0] = (struct workload_hint){"romio_cb_write", "enable"};
    c.mpiio_component = "romio321";
    char line[WORKLOAD_TEXT_MAX];
    CHECK_I64(workload_config(&w, 0, &c, 2, &cfg, &m), 0);
    workload_config_text(&cfg, line, sizeof line);
    CHECK_STR(line, "HDF5_MPI_INFO=romio_cb_write=enable OMPI_MCA_io=romio321 mpiexec -n 2 h5perf "
                    "--pattern block --global 64x32 --grid 2x1 --element-size 8 --vars 1 -A phdf5 "
                    "--layout shared -C --transfer-size 4K --buffer-offset 8 -w");
    /* More processes than started. */
    CHECK_I64(workload_config(&w, 0, &c, 1, &cfg, &m), -1);
    CHECK_STR(m.line, "h5perf: workload 'dir/w.yaml', line 3, arrays[0].decomposition.grid: needs "
                      "2 processes, only 1 was started");
    workload_release(&w);
}

/* Every combination of the search that applies, in order; hints pruned
 * where they cannot act. */
static void test_candidates(void)
{
    static const char text[] = "arrays: [{global: [64], decomposition: {grid: [2]}}]\n"
                               "search:\n"
                               "  apis: [posix, mpiio]\n"
                               "  layouts: [shared, fpp]\n"
                               "  alignments: [1]\n"
                               "  align_data: [packed, 4K]\n"
                               "  transfer_sizes: [whole]\n";
    struct workload w;
    struct cli_msg m = {""};
    static struct workload_config cfg[16];
    char line[WORKLOAD_TEXT_MAX];
    int n = -1;
    CHECK(workload_parse("w.yaml", text, sizeof text - 1, &w, &m) == 0);
    if (m.line[0])
        return;
    /* posix: shared packed and 4K, fpp (3); mpiio independent the same (3),
     * collective with romio_cb_write enable, disable or unset (9); the
     * array is not read back: romio_cb_read never. */
    CHECK_I64(workload_candidates(&w, 0, 2, 16, cfg, &n, &m), 0);
    CHECK_I64(n, 15);
    const char *lead = "mpiexec -n 2 h5perf --pattern block --global 64 --grid 2 --element-size 8 "
                       "--vars 1 ";
    static const struct {
        int i;
        const char *env, *tail;
    } want[] = {
        {0, "", "-A posix --layout shared -w"},
        {1, "", "-A posix --layout shared --align-data 4K -w"},
        {2, "", "-A posix --layout fpp -w"},
        {3, "", "-A mpiio --layout shared -w"},
        {5, "HDF5_MPI_INFO=romio_cb_write=enable ", "-A mpiio --layout shared -C -w"},
        {7, "", "-A mpiio --layout shared -C -w"},
        {14, "", "-A mpiio --layout fpp -C -w"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0] && n == 15; i++) {
        char expect[WORKLOAD_TEXT_MAX];
        snprintf(expect, sizeof expect, "%s%s%s", want[i].env, lead, want[i].tail);
        workload_config_text(&cfg[want[i].i], line, sizeof line);
        CHECK_STR(line, expect);
    }
    /* Counting only, and the refusal above max. */
    CHECK_I64(workload_candidates(&w, 0, 2, 15, NULL, &n, &m), 0);
    CHECK_I64(n, 15);
    CHECK_I64(workload_candidates(&w, 0, 2, 10, cfg, &n, &m), -1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 1, arrays[0]: its search has more than 10 "
                      "candidates; narrow search (docs/advisor.md)");
    workload_release(&w);
    /* 16^4 x 4 APIs x 3 layouts x 2 modes x 9 hint pairs: not walked. */
    static const char big[] =
        "arrays: [{global: [64], decomposition: {grid: [2]}}]\n"
        "search:\n"
        "  transfer_sizes: [1K, 2K, 3K, 4K, 5K, 6K, 7K, 8K, 9K, 10K, 11K, 12K, 13K, 14K, 15K, "
        "16K]\n"
        "  thresholds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n"
        "  alignments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n"
        "  align_data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n";
    CHECK(workload_parse("w.yaml", big, sizeof big - 1, &w, &m) == 0);
    CHECK_I64(workload_candidates(&w, 0, 2, 16, cfg, &n, &m), -1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 1, arrays[0]: its search combines more "
                      "than 1048576 values; narrow search (docs/advisor.md)");
    /* A collective buffering hint with independent transfers does nothing. */
    struct workload_choice c = w.baseline;
    c.nhints = 1;
    c.hints[0] = (struct workload_hint){"cb_nodes", "2"};
    CHECK_I64(workload_config(&w, 0, &c, 2, &cfg[0], &m), 1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 1, arrays[0]: hint cb_nodes is collective "
                      "buffering's, and the transfers are independent");
    workload_release(&w);
}

/* HDF5's choices: chunk shapes on the chunked layout where they fit the
 * array, collective metadata and metadata block sizes on HDF5 alone,
 * each as its option. */
static void test_hdf5_candidates(void)
{
    static const char text[] = "arrays: [{global: [64, 8], decomposition: {grid: [2, 1]}}]\n"
                               "search:\n"
                               "  apis: [mpiio, phdf5]\n"
                               "  layouts: [shared, chunked]\n"
                               "  io_modes: [independent]\n"
                               "  alignments: [1]\n"
                               "  align_data: [packed]\n"
                               "  transfer_sizes: [whole]\n"
                               "  chunk_shapes: [block, 16x4, [128, 8], 8]\n"
                               "  metadata_block_sizes: {add: [64K]}\n";
    struct workload w;
    struct cli_msg m = {""};
    static struct workload_config cfg[32];
    char line[WORKLOAD_TEXT_MAX];
    int n = -1;
    CHECK(workload_parse("w.yaml", text, sizeof text - 1, &w, &m) == 0);
    CHECK_STR(m.line, "");
    if (m.line[0])
        return;
    /* mpiio: shared, chunked (2); phdf5 shared: 2 metadata modes x 2 block
     * sizes (4); chunked: block or 16x4 (128x8 and 8 do not fit) x 4 (8). */
    CHECK_I64(workload_candidates(&w, 0, 2, 32, cfg, &n, &m), 0);
    CHECK_I64(n, 14);
    const char *lead = "mpiexec -n 2 h5perf --pattern block --global 64x8 --grid 2x1 "
                       "--element-size 8 --vars 1 ";
    static const struct {
        int i;
        const char *tail;
    } want[] = {
        {0, "-A mpiio --layout shared -w"},
        {2, "-A phdf5 --layout shared -w"},
        {3, "-A phdf5 --layout shared --hdf5.metadata-block-size 64K -w"},
        {4, "-A phdf5 --layout shared --hdf5.collective-metadata -w"},
        {13, "-A phdf5 --layout chunked --chunk-shape 16x4 --hdf5.collective-metadata "
             "--hdf5.metadata-block-size 64K -w"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0] && n == 14; i++) {
        char expect[WORKLOAD_TEXT_MAX];
        snprintf(expect, sizeof expect, "%s%s", lead, want[i].tail);
        workload_config_text(&cfg[want[i].i], line, sizeof line);
        CHECK_STR(line, expect);
    }
    /* A shape on another layout, and one beyond the array, say why. */
    struct workload_choice c = w.baseline;
    int64_t shape[2] = {16, 4};
    c.v[WORKLOAD_CHUNK] = workload_chunk_encode(2, shape);
    CHECK_I64(workload_config(&w, 0, &c, 2, &cfg[0], &m), 1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 1, arrays[0]: chunk shape 16x4 is the "
                      "chunked layout's chunk, and the layout is shared");
    c = w.baseline;
    c.v[WORKLOAD_LAYOUT] = LAYOUT_FPP;
    c.v[workload_dim_of("collective_metadata")] = 1;
    CHECK_I64(workload_config(&w, 0, &c, 2, &cfg[0], &m), 1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 1, arrays[0]: collective metadata acts "
                      "among the processes of a file, and the layout fpp gives each file one");
    int64_t back[3];
    CHECK_I64(workload_chunk_decode(workload_chunk_encode(2, shape), back), 2);
    CHECK(back[0] == 16 && back[1] == 4);
    workload_release(&w);
}

/* The candidates' words before their choices, of a 64x8 array of 3
 * variables on 2 processes. */
#define LEAD_3_VARS                                                                                \
    "mpiexec -n 2 h5perf --pattern block --global 64x8 --grid 2x1 --element-size 8 --vars 3 "

/* A candidate's command line (its tail after lead) and the variant it is
 * measured as. */
struct want_line {
    const char *tail;
    int variant;
};

/* The n candidates in cfg are those of want, in order. */
static void check_candidates(const struct workload_config *cfg, int n, const char *lead,
                             const struct want_line *want, int nwant)
{
    char line[WORKLOAD_TEXT_MAX], expect[WORKLOAD_TEXT_MAX];
    CHECK_I64(n, nwant);
    for (int i = 0; i < nwant && n == nwant; i++) {
        snprintf(expect, sizeof expect, "%s%s", lead, want[i].tail);
        workload_config_text(&cfg[i], line, sizeof line);
        CHECK_STR(line, expect);
        CHECK_I64(cfg[i].variant, want[i].variant);
    }
}

/* A joining choice (dim, of api) where set 0 of w has one variable: not a
 * candidate, with why. */
static void check_one_variable(struct workload *w, enum api_id api, int dim, const char *why)
{
    static struct workload_config cfg;
    struct cli_msg m = {""};
    struct workload_choice c = w->baseline;
    c.v[WORKLOAD_API] = api;
    c.v[dim] = 1;
    w->sets[0].nvars = 1;
    CHECK_I64(workload_config(w, 0, &c, 2, &cfg, &m), 1);
    CHECK_STR(m.line, why);
}

/* PnetCDF's nonblocking calls: a candidate of PnetCDF alone, as its option,
 * measured as its variant; not of a set of one variable; a baseline of
 * another API refused with the key's line. */
static void test_pnetcdf_candidates(void)
{
    if (!api_built(API_PNETCDF))
        return;
    static const char text[] = "arrays: [{global: [64, 8], decomposition: {grid: [2, 1]}, "
                               "variables: 3}]\n"
                               "search:\n"
                               "  apis: [phdf5, pnetcdf]\n"
                               "  layouts: [shared]\n"
                               "  io_modes: [collective]\n"
                               "  alignments: [1]\n"
                               "  transfer_sizes: [whole]\n"
                               "  collective_metadata: [false]\n"
                               "  hints: {romio_cb_write: [], romio_cb_read: []}\n";
    struct workload w;
    struct cli_msg m = {""};
    static struct workload_config cfg[8];
    int n = -1;
    CHECK(workload_parse("w.yaml", text, sizeof text - 1, &w, &m) == 0);
    CHECK_STR(m.line, "");
    if (m.line[0])
        return;
    /* The choice of PnetCDF's row (its opt_advice), after MPI-IO's one and
     * HDF5's two. */
    int nb = workload_dim_of("pnetcdf_nonblocking");
    CHECK_I64(nb, WORKLOAD_DIM_OPTIONS + 3);
    CHECK_I64(workload_dim_of("mpiio_joined"), WORKLOAD_DIM_OPTIONS);
    CHECK_I64(workload_dim_of("collective_metadata"), WORKLOAD_DIM_OPTIONS + 1);
    CHECK_I64(workload_dim_of("no_such_choice"), -1);
    if (nb < 0)
        return;
    CHECK_I64(w.baseline.v[nb], 0);
    CHECK_I64(w.search.dim[nb].n, 2);
    /* phdf5 (1), pnetcdf blocking and nonblocking (2). */
    CHECK_I64(workload_candidates(&w, 0, 2, 8, cfg, &n, &m), 0);
    static const struct want_line want[] = {
        {"-A phdf5 --layout shared -C -w", 0},
        {"-A pnetcdf --layout shared -C -w", 0},
        {"-A pnetcdf --layout shared -C --pnetcdf.nonblocking=only -w", 1},
    };
    check_candidates(cfg, n, LEAD_3_VARS, want, 3);
    /* One variable: nothing for one wait to join. */
    check_one_variable(&w, API_PNETCDF, nb,
                       "h5perf: workload 'w.yaml', line 1, arrays[0]: nonblocking calls complete "
                       "every variable's step in one wait, and arrays[0] has one variable");
    workload_release(&w);
    static const char base[] = "arrays: [{global: [64], decomposition: {grid: [2]}, "
                               "variables: 2}]\n"
                               "baseline:\n"
                               "  api: phdf5\n"
                               "  pnetcdf_nonblocking: true\n";
    m.line[0] = '\0';
    CHECK(workload_parse("w.yaml", base, sizeof base - 1, &w, &m) == 0);
    if (m.line[0])
        return;
    CHECK_I64(workload_baseline_configs(&w, 2, cfg, &m), -1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 4, baseline.pnetcdf_nonblocking: applies "
                      "to pnetcdf, not phdf5 (arrays[0] 'arrays[0]')");
    workload_release(&w);
}

/* MPI-IO's joined calls (--mpiio.joined) as a choice: from its row alone,
 * a candidate of MPI-IO only, measured as its variant, run =only; not of a
 * set of one variable. */
static void test_mpiio_candidates(void)
{
    static const char text[] = "arrays: [{global: [64, 8], decomposition: {grid: [2, 1]}, "
                               "variables: 3}]\n"
                               "search:\n"
                               "  apis: [mpiio]\n"
                               "  layouts: [shared]\n"
                               "  align_data: [packed]\n"
                               "  io_modes: [collective]\n"
                               "  alignments: [1]\n"
                               "  transfer_sizes: [whole]\n"
                               "  hints: {romio_cb_write: [], romio_cb_read: []}\n";
    struct workload w;
    struct cli_msg m = {""};
    static struct workload_config cfg[8];
    int n = -1;
    CHECK(workload_parse("w.yaml", text, sizeof text - 1, &w, &m) == 0);
    CHECK_STR(m.line, "");
    if (m.line[0])
        return;
    int j = workload_dim_of("mpiio_joined");
    CHECK_I64(j, WORKLOAD_DIM_OPTIONS);
    if (j < 0)
        return;
    CHECK_I64(w.baseline.v[j], 0);
    CHECK_I64(w.search.dim[j].n, 2);
    /* The plain calls and the joined ones. */
    CHECK_I64(workload_candidates(&w, 0, 2, 8, cfg, &n, &m), 0);
    static const struct want_line want[] = {
        {"-A mpiio --layout shared -C -w", 0},
        {"-A mpiio --layout shared -C --mpiio.joined=only -w", 1},
    };
    check_candidates(cfg, n, LEAD_3_VARS, want, 2);
    /* One variable: nothing to join. */
    check_one_variable(&w, API_MPIIO, j,
                       "h5perf: workload 'w.yaml', line 1, arrays[0]: one call moves every "
                       "variable's step through one file view, and arrays[0] has one variable");
    workload_release(&w);
}

/* A map array without variables has one variable per decomposition, or
 * in the one use picks, as --pattern map's --vars defaults (it was --vars
 * 0, which h5perf refuses). */
static void test_map_variables(void)
{
    static const struct {
        const char *text, *line;
    } cases[] = {
        {"arrays:\n  - decomposition: {map: m.txt}\n",
         "mpiexec -n 2 h5perf --pattern map --map dir/m.txt --vars 1 --element-size 8 -p 2 -P 2 "
         "-A phdf5 --layout shared -w"},
        {"arrays:\n  - decomposition: {map: m.txt, use: 2}\n",
         "mpiexec -n 2 h5perf --pattern map --map dir/m.txt --vars 0,1 --element-size 8 -p 2 "
         "-P 2 -A phdf5 --layout shared -w"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct workload w;
        struct workload_config cfg[1];
        struct cli_msg m = {""};
        char line[WORKLOAD_TEXT_MAX];
        CHECK(workload_parse("dir/w.yaml", cases[i].text, strlen(cases[i].text), &w, &m) == 0);
        CHECK_STR(m.line, "");
        if (m.line[0])
            continue;
        CHECK_I64(workload_baseline_configs(&w, 2, cfg, &m), 0);
        workload_config_text(&cfg[0], line, sizeof line);
        CHECK_STR(line, cases[i].line);
        workload_release(&w);
    }
}

/* The examples parse, and their baselines are these command lines. */
static void test_examples(void)
{
    static const struct {
        const char *file;
        int world;
        const char *line;
    } examples[] = {
        {"block512.yaml", 8,
         "mpiexec -n 8 h5perf --pattern block --global 512x512x512 --grid 2x2x2 --element-size 8 "
         "--vars 1 -A phdf5 --layout shared"},
        {"vpic.yaml", 8,
         "mpiexec -n 8 h5perf --pattern particles --particles 8388608 --distribution "
         "imbalance:0.5 --vars 8 -p 8 -P 8 -A phdf5 --layout shared -C -w"},
        {"e3sm.yaml", 16,
         "mpiexec -n 16 h5perf --pattern map --map " H5PERF_SOURCE_DIR
         "/examples/workloads/map_f_case_16p.nc --vars 1,323,63 --element-size 4 -p 16 -P 16 "
         "-A pnetcdf --layout shared -C -w"},
        {"trace-ior.yaml", 4,
         "mpiexec -n 4 h5perf --pattern trace --trace " H5PERF_SOURCE_DIR
         "/examples/workloads/../../tests/data/traces/ior-posix-contig.trace -p 4 -P 4 -A posix "
         "--layout shared"},
    };
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        char path[1024], *text = malloc(WORKLOAD_MAX_BYTES);
        snprintf(path, sizeof path, "%s/examples/workloads/%s", H5PERF_SOURCE_DIR,
                 examples[i].file);
        FILE *f = fopen(path, "rb");
        CHECK(f && text);
        if (!f || !text) {
            free(text);
            continue;
        }
        size_t len = fread(text, 1, WORKLOAD_MAX_BYTES, f);
        fclose(f);
        struct workload w;
        struct workload_config cfg[1];
        struct cli_msg m = {""};
        char line[WORKLOAD_TEXT_MAX];
        int rc = workload_parse(path, text, len, &w, &m);
        if (strstr(examples[i].line, "-A pnetcdf") && !api_built(API_PNETCDF)) {
            /* A build without PnetCDF refuses the example's baseline API. */
            CHECK(rc != 0 &&
                  strstr(m.line, "baseline.api: this h5perf is built without pnetcdf") != NULL);
            free(text);
            continue;
        }
        CHECK_STR(m.line, "");
        if (rc == 0) {
            CHECK_I64(w.nsets, 1);
            CHECK_I64(workload_baseline_configs(&w, examples[i].world, cfg, &m), 0);
            workload_config_text(&cfg[0], line, sizeof line);
            CHECK_STR(line, examples[i].line);
            workload_release(&w);
        }
        free(text);
    }
}

/* A trace's data set (docs/advisor.md, "Traces"): --pattern trace with
 * its file; the API, the layouts shared and fpp, transfer_sizes as
 * --trace-gather and align_data as --trace-align; no chunked layout, no
 * -C, no other choice (HDF5's alignment here), no -w; a baseline with -C
 * refused with its key's line; an entry without its file refused. */
static void test_trace_candidates(void)
{
    static const char text[] = "traces: [{name: app, trace: app.trace}]\n"
                               "baseline: {api: posix}\n"
                               "search:\n"
                               "  apis: [posix, mpiio]\n"
                               "  layouts: [shared, chunked, fpp]\n"
                               "  alignments: [1, 4K]\n"
                               "  align_data: [packed, 4K]\n"
                               "  transfer_sizes: [whole, 1M]\n";
    struct workload w;
    struct cli_msg m = {""};
    static struct workload_config cfg[32];
    int n = -1;
    CHECK(workload_parse("w.yaml", text, sizeof text - 1, &w, &m) == 0);
    if (m.line[0])
        return;
    CHECK_I64(w.sets[0].kind, WORKLOAD_TRACE);
    CHECK_STR(w.sets[0].key, "traces[0]");
    CHECK_I64(workload_candidates(&w, 0, 2, 32, cfg, &n, &m), 0);
    static const struct want_line want[] = {
        {"-A posix --layout shared", 0},
        {"-A posix --layout shared --trace-gather 1M", 0},
        {"-A posix --layout shared --trace-align 4K", 0},
        {"-A posix --layout shared --trace-align 4K --trace-gather 1M", 0},
        {"-A posix --layout fpp", 0},
        {"-A posix --layout fpp --trace-gather 1M", 0},
        {"-A posix --layout fpp --trace-align 4K", 0},
        {"-A posix --layout fpp --trace-align 4K --trace-gather 1M", 0},
        {"-A mpiio --layout shared", 0},
        {"-A mpiio --layout shared --trace-gather 1M", 0},
        {"-A mpiio --layout shared --trace-align 4K", 0},
        {"-A mpiio --layout shared --trace-align 4K --trace-gather 1M", 0},
        {"-A mpiio --layout fpp", 0},
        {"-A mpiio --layout fpp --trace-gather 1M", 0},
        {"-A mpiio --layout fpp --trace-align 4K", 0},
        {"-A mpiio --layout fpp --trace-align 4K --trace-gather 1M", 0},
    };
    check_candidates(cfg, n, "mpiexec -n 2 h5perf --pattern trace --trace app.trace -p 2 -P 2 ",
                     want, 16);
    CHECK(cfg[0].trace);
    struct workload_choice c = w.baseline;
    c.v[WORKLOAD_COLLECTIVE] = 1;
    c.v[WORKLOAD_API] = API_MPIIO;
    CHECK_I64(workload_config(&w, 0, &c, 2, &cfg[0], &m), 1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 1, traces[0]: a trace's calls are "
                      "replayed independently, and traces[0] is a trace");
    workload_release(&w);
    static const char coll[] = "traces: [{trace: app.trace}]\n"
                               "baseline: {api: mpiio, collective: true}\n";
    CHECK(workload_parse("w.yaml", coll, sizeof coll - 1, &w, &m) == 0);
    if (m.line[0])
        return;
    CHECK_I64(workload_baseline_configs(&w, 2, cfg, &m), -1);
    CHECK_STR(m.line, "h5perf: workload 'w.yaml', line 2, baseline.collective: a trace's calls "
                      "are replayed independently, and traces[0] is a trace (traces[0] "
                      "'traces[0]')");
    workload_release(&w);
    CHECK_STR(parse_refusal("traces: [{name: app}]"),
              "h5perf: workload 'w.yaml', line 1, traces[0]: give trace: the application's trace "
              "file (docs/trace.md)");
    CHECK_STR(parse_refusal("traces: [{trace: a.trace, steps: 2}]"),
              "h5perf: workload 'w.yaml', line 1, traces[0]: unknown key 'steps'");
}

int main(void)
{
    test_refusals();
    test_values();
    test_candidates();
    test_hdf5_candidates();
    test_pnetcdf_candidates();
    test_mpiio_candidates();
    test_map_variables();
    test_trace_candidates();
    test_examples();
    return check_done("test_workload");
}
