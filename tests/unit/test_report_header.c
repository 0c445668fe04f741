/* Unit tests of the legacy text report's header and per-run lines: every line
 * of the header (reference outputs 01-10 and what they do not show), text_size,
 * the process-count and API lines and the per-transfer-size lines are compared
 * exactly with the reference output (docs/original.md §7). No MPI; the result
 * blocks are test_report_blocks.c's. */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report_fixtures.h"
#include "report/text.h"
#include "pattern/guide_options.h"

/* ---- helpers ------------------------------------------------------------ */

/* ---- expected headers: the reference outputs' text, verbatim ------------ */

static const char ref01_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=256KB\n"
                                   "rank 0: Size of dataset(s)=256KB:512KB\n"
                                   "rank 0: File size=256KB:512KB\n"
                                   "rank 0: Transfer buffer size=128KB:256KB\n"
                                   "rank 0: Block size=128KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref02_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=3\n"
                                   "rank 0: Number of processes=3:3\n"
                                   "rank 0: Number of bytes per process per dataset=8000\n"
                                   "rank 0: Size of dataset(s)=24000:24000\n"
                                   "rank 0: File size=24000:24000\n"
                                   "rank 0: Transfer buffer size=4000:4000\n"
                                   "rank 0: Block size=2000\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref03_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=2\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=64KB\n"
                                   "rank 0: Size of dataset(s)=64KB:128KB\n"
                                   "rank 0: File size=64KB:128KB\n"
                                   "rank 0: Transfer buffer size=8KB:32KB\n"
                                   "rank 0: Block size=2KB\n"
                                   "rank 0: Block Pattern in Dataset=Interleaved\n"
                                   "rank 0: I/O Method for MPI and HDF5=Collective\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref04_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix \n"
                                   "rank 0: Number of files=2\n"
                                   "rank 0: Number of datasets=3\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=64KB\n"
                                   "rank 0: Size of dataset(s)=64KB:128KB\n"
                                   "rank 0: File size=192KB:384KB\n"
                                   "rank 0: Transfer buffer size=16KB:64KB\n"
                                   "rank 0: Block size=4KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref05_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=mpiio \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=128KB\n"
                                   "rank 0: Size of dataset(s)=128KB:256KB\n"
                                   "rank 0: File size=128KB:256KB\n"
                                   "rank 0: Transfer buffer size=64KB:128KB\n"
                                   "rank 0: Block size=32KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref06_header_0[] = "HDF5 Library: Version 1.10.8\n"
                                     "rank 1: ==== Parameters ====\n"
                                     "rank 1: IO API=phdf5 \n"
                                     "rank 1: Number of files=1\n"
                                     "rank 1: Number of datasets=1\n"
                                     "rank 1: Number of iterations=2\n"
                                     "rank 1: Number of processes=2:2\n"
                                     "rank 1: Number of bytes per process per dataset=64KB\n"
                                     "rank 1: Size of dataset(s)=128KB:128KB\n"
                                     "rank 1: File size=128KB:128KB\n"
                                     "rank 1: Transfer buffer size=32KB:32KB\n"
                                     "rank 1: Block size=16KB\n"
                                     "rank 1: Block Pattern in Dataset=Contiguous\n"
                                     "rank 1: I/O Method for MPI and HDF5=Independent\n"
                                     "rank 1: Geometry=1D\n"
                                     "rank 1: VFL used for HDF5 I/O=MPI-IO driver\n"
                                     "rank 1: Data storage method in HDF5=Contiguous\n"
                                     "rank 1: Env HDF5_PARAPREFIX=not set\n"
                                     "rank 1: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                     "object is MPI_INFO_NULL\n"
                                     "rank 1: ==== End of Parameters ====\n"
                                     "\n";

static const char ref06_header_1[] = "HDF5 Library: Version 1.10.8\n"
                                     "rank 0: ==== Parameters ====\n"
                                     "rank 0: IO API=phdf5 \n"
                                     "rank 0: Number of files=1\n"
                                     "rank 0: Number of datasets=1\n"
                                     "rank 0: Number of iterations=2\n"
                                     "rank 0: Number of processes=2:2\n"
                                     "rank 0: Number of bytes per process per dataset=64KB\n"
                                     "rank 0: Size of dataset(s)=128KB:128KB\n"
                                     "rank 0: File size=128KB:128KB\n"
                                     "rank 0: Transfer buffer size=32KB:32KB\n"
                                     "rank 0: Block size=16KB\n"
                                     "rank 0: Block Pattern in Dataset=Contiguous\n"
                                     "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                     "rank 0: Geometry=1D\n"
                                     "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                     "rank 0: Data storage method in HDF5=Contiguous\n"
                                     "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                     "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                     "object is MPI_INFO_NULL\n"
                                     "rank 0: ==== End of Parameters ====\n"
                                     "\n";

static const char ref07_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=3:3\n"
                                   "rank 0: Number of bytes per process per dataset=48:48\n"
                                   "rank 0: Size of dataset(s)=12x12:12x12\n"
                                   "rank 0: File size=144:144\n"
                                   "rank 0: Transfer buffer size=2x12:2x12\n"
                                   "rank 0: Block size=2x2\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=2D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref08_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=3:3\n"
                                   "rank 0: Number of bytes per process per dataset=48:48\n"
                                   "rank 0: Size of dataset(s)=12x12:12x12\n"
                                   "rank 0: File size=144:144\n"
                                   "rank 0: Transfer buffer size=12x2:12x2\n"
                                   "rank 0: Block size=2x2\n"
                                   "rank 0: Block Pattern in Dataset=Interleaved\n"
                                   "rank 0: I/O Method for MPI and HDF5=Collective\n"
                                   "rank 0: Geometry=2D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Contiguous\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref09_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=posix mpiio phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=2:2\n"
                                   "rank 0: Number of bytes per process per dataset=32:32\n"
                                   "rank 0: Size of dataset(s)=8x8:8x8\n"
                                   "rank 0: File size=64:64\n"
                                   "rank 0: Transfer buffer size=4x4:4x4\n"
                                   "rank 0: Block size=4x4\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=2D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Chunked\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

static const char ref10_header[] = "HDF5 Library: Version 1.10.8\n"
                                   "rank 0: ==== Parameters ====\n"
                                   "rank 0: IO API=phdf5 \n"
                                   "rank 0: Number of files=1\n"
                                   "rank 0: Number of datasets=1\n"
                                   "rank 0: Number of iterations=1\n"
                                   "rank 0: Number of processes=1:2\n"
                                   "rank 0: Number of bytes per process per dataset=64KB\n"
                                   "rank 0: Size of dataset(s)=64KB:128KB\n"
                                   "rank 0: File size=64KB:128KB\n"
                                   "rank 0: Transfer buffer size=32KB:64KB\n"
                                   "rank 0: Block size=32KB\n"
                                   "rank 0: Block Pattern in Dataset=Contiguous\n"
                                   "rank 0: I/O Method for MPI and HDF5=Independent\n"
                                   "rank 0: Geometry=1D\n"
                                   "rank 0: VFL used for HDF5 I/O=MPI-IO driver\n"
                                   "rank 0: Data storage method in HDF5=Chunked\n"
                                   "rank 0: Env HDF5_PARAPREFIX=not set\n"
                                   "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                                   "object is MPI_INFO_NULL\n"
                                   "rank 0: ==== End of Parameters ====\n"
                                   "\n";

/* ---- text_size, text_api, text_nprocs ----------------------------------- */

static void test_text_size(void)
{
    static const struct {
        int64_t v;
        const char *text;
    } cases[] = {
        {0, "0"},
        {1, "1"},
        {48, "48"},
        {1023, "1023"},
        {1024, "1KB"},
        {1536, "1536"},
        {2048, "2KB"},
        {8000, "8000"},
        {24000, "24000"},
        {256 * KB, "256KB"},
        {1536 * KB, "1536KB"},
        {MB, "1MB"},
        {MB + KB, "1025KB"},
        {1536 * MB, "1536MB"},
        {3072 * MB, "3GB"},
        {3073 * MB, "3073MB"},
        {GB, "1GB"},
        {1024 * GB, "1024GB"},
        {-1024, "-1024"},
        {-MB, "-1048576"},
        {INT64_MAX, "9223372036854775807"},
    };
    char buf[32];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        text_size(buf, sizeof(buf), cases[i].v);
        CHECK_STR(buf, cases[i].text);
    }
    text_size(buf, 4, 256 * KB); /* truncated, still terminated */
    CHECK_STR(buf, "256");
}

static void test_text_api(void)
{
    struct capture c;
    FILE *f = cap_open(&c);

    text_nprocs(f, 2);
    text_nprocs(f, 64);
    text_api(f, API_POSIX, 0);
    text_api(f, API_MPIIO, 0);
    text_api(f, API_PHDF5, 0);
    check_lines("text_api", cap_text(&c),
                "Number of processors = 2\n"
                "Number of processors = 64\n"
                "        IO API = POSIX\n"
                "        IO API = MPIO\n"
                "        IO API = PHDF5 (w/MPI-IO driver)\n");
    free(c.buf);
    CHECK_STR(api_desc(API_POSIX)->key, "posix");
    CHECK_STR(api_desc(API_MPIIO)->key, "mpiio");
    CHECK_STR(api_desc(API_PHDF5)->key, "phdf5");
}

/* ---- the header ---------------------------------------------------------- */

/* The command lines of the reference outputs, as configurations. */
static void setup_01(struct config *c)
{
    (void)c;
}

static void setup_02(struct config *c) /* -A phdf5 -B 2000 -e 8000 -p 3 -P 3 -x 4000 -X 4000 -i 3 */
{
    c->apis = API_BIT(API_PHDF5);
    guide_edit(c)->block = 2000;
    guide_edit(c)->bytes = 8000;
    c->min_procs = c->max_procs = 3;
    guide_edit(c)->xfer_min = guide_edit(c)->xfer_max = 4000;
    c->iterations = 3;
}

static void setup_03(struct config *c) /* -A posix,mpiio -B 2K -e 64K -x 8K -X 32K -I -C -i 2 */
{
    c->apis = API_BIT(API_POSIX) | API_BIT(API_MPIIO);
    guide_edit(c)->block = 2 * KB;
    guide_edit(c)->bytes = 64 * KB;
    guide_edit(c)->xfer_min = 8 * KB;
    guide_edit(c)->xfer_max = 32 * KB;
    guide_edit(c)->interleaved = true;
    c->collective = true;
    c->iterations = 2;
}

static void setup_07(struct config *c) /* -n 3 -B 2 -e 4 -p 3 -P 3 -x 12 -X 12 -g -D v */
{
    guide_edit(c)->block = 2;
    guide_edit(c)->bytes = 4;
    c->min_procs = c->max_procs = 3;
    guide_edit(c)->xfer_min = guide_edit(c)->xfer_max = 12;
    guide_edit(c)->geometry_2d = true;
    c->debug_verify = true;
}

static void setup_08(struct config *c) /* 07 + -I -C -A phdf5 */
{
    setup_07(c);
    guide_edit(c)->interleaved = true;
    c->collective = true;
    c->apis = API_BIT(API_PHDF5);
}

static void setup_09(struct config *c) /* -n 2 -B 4 -e 4 -p 2 -P 2 -x 4 -X 4 -g -c -D v */
{
    guide_edit(c)->block = 4;
    guide_edit(c)->bytes = 4;
    c->min_procs = c->max_procs = 2;
    guide_edit(c)->xfer_min = guide_edit(c)->xfer_max = 4;
    guide_edit(c)->geometry_2d = true;
    guide_edit(c)->chunk = true;
    c->debug_verify = true;
}

static void setup_10(struct config *c) /* -a 4K -T 1K -e 64K -A phdf5 -c */
{
    c->align = 4 * KB;
    c->threshold = KB;
    guide_edit(c)->bytes = 64 * KB;
    guide_edit(c)->block = guide_edit(c)->xfer_min = 32 * KB;
    guide_edit(c)->xfer_max = 64 * KB;
    c->apis = API_BIT(API_PHDF5);
    guide_edit(c)->chunk = true;
}

static const struct header_case {
    const char *name;
    void (*setup)(struct config *c);
    int rank;
    const char *expected;
} header_cases[] = {
    {"header 01", setup_01, 0, ref01_header},      {"header 02", setup_02, 0, ref02_header},
    {"header 03", setup_03, 0, ref03_header},      {"header 04", setup_04, 0, ref04_header},
    {"header 05", setup_05, 0, ref05_header},      {"header 06 r1", setup_06, 1, ref06_header_0},
    {"header 06 r0", setup_06, 0, ref06_header_1}, {"header 07", setup_07, 0, ref07_header},
    {"header 08", setup_08, 0, ref08_header},      {"header 09", setup_09, 0, ref09_header},
    {"header 10", setup_10, 0, ref10_header},
};

static void test_header_references(void)
{
    for (size_t i = 0; i < sizeof(header_cases) / sizeof(header_cases[0]); i++) {
        const struct header_case *hc = &header_cases[i];
        struct config cfg = default_config();
        struct capture c;

        hc->setup(&cfg);
        text_header(cap_open(&c), settings_of(&cfg), hc->rank, "1.10.8", 256);
        check_lines(hc->name, cap_text(&c), hc->expected);
        free(c.buf);
    }
}

/* Environment and options the references do not show: an info object with
 * items (a repeated key keeps its first place and takes its last value, as
 * MPI_Info_set does), a parameter prefix, chunking, a world rank above 0,
 * sizes in MB and GB, MPICH's MPI_MAX_INFO_VAL. */
static void test_header_environment(void)
{
    struct config cfg = default_config();
    struct capture c;

    cfg.apis = API_BIT(API_MPIIO) | API_BIT(API_PHDF5);
    guide_edit(&cfg)->bytes = 2 * GB;
    guide_edit(&cfg)->block = guide_edit(&cfg)->xfer_min = 1 * MB;
    guide_edit(&cfg)->xfer_max = 1 * GB;
    guide_edit(&cfg)->num_dsets = 3;
    cfg.min_procs = 4;
    cfg.max_procs = 4;
    guide_edit(&cfg)->chunk = true;
    cfg.paraprefix = "/scratch/run 1";
    cfg.info_defined = true;
    cfg.info_count = 3;
    cfg.info[0] = (struct info_entry){"romio_cb_write", "enable"};
    cfg.info[1] = (struct info_entry){"cb_nodes", "2"};
    cfg.info[2] = (struct info_entry){"romio_cb_write", "disable"};
    text_header(cap_open(&c), settings_of(&cfg), 3, "1.14.3", 1024);
    check_lines("header env", cap_text(&c),
                "HDF5 Library: Version 1.14.3\n"
                "rank 3: ==== Parameters ====\n"
                "rank 3: IO API=mpiio phdf5 \n"
                "rank 3: Number of files=1\n"
                "rank 3: Number of datasets=3\n"
                "rank 3: Number of iterations=1\n"
                "rank 3: Number of processes=4:4\n"
                "rank 3: Number of bytes per process per dataset=2GB\n"
                "rank 3: Size of dataset(s)=8GB:8GB\n"
                "rank 3: File size=24GB:24GB\n"
                "rank 3: Transfer buffer size=1MB:1GB\n"
                "rank 3: Block size=1MB\n"
                "rank 3: Block Pattern in Dataset=Contiguous\n"
                "rank 3: I/O Method for MPI and HDF5=Independent\n"
                "rank 3: Geometry=1D\n"
                "rank 3: VFL used for HDF5 I/O=MPI-IO driver\n"
                "rank 3: Data storage method in HDF5=Chunked\n"
                "rank 3: Env HDF5_PARAPREFIX=/scratch/run 1\n"
                "rank 3: Dumping MPI Info Object (up to 1024 bytes per item):\n"
                "object has 2 items\n"
                "romio_cb_write=disable\n"
                "cb_nodes=2\n"
                "rank 3: ==== End of Parameters ====\n"
                "\n");
    free(c.buf);

    /* HDF5_MPI_INFO defined but empty (or only garbage): an empty object. */
    cfg.info_count = 0;
    cfg.paraprefix = "";
    text_header(cap_open(&c), settings_of(&cfg), 0, "1.10.8", 256);
    cap_text(&c);
    CHECK(strstr(c.buf, "rank 0: Env HDF5_PARAPREFIX=\n"
                        "rank 0: Dumping MPI Info Object (up to 256 bytes per item):\n"
                        "object has 0 items\n"
                        "rank 0: ==== End of Parameters ====\n\n") != NULL);
    free(c.buf);
}

/* 2D with the default -e of 8K on 2 processes: sizes render per component. */
static void test_header_2d_sizes(void)
{
    struct config cfg = default_config();
    struct capture c;

    guide_edit(&cfg)->geometry_2d = true;
    guide_edit(&cfg)->bytes = 8 * KB;
    guide_edit(&cfg)->block = guide_edit(&cfg)->xfer_min = 4 * KB;
    guide_edit(&cfg)->xfer_max = 16 * KB;
    guide_edit(&cfg)->interleaved = true;
    text_header(cap_open(&c), settings_of(&cfg), 0, "1.10.8", 256);
    cap_text(&c);
    CHECK(strstr(c.buf, "rank 0: Number of bytes per process per dataset=64MB:128MB\n"
                        "rank 0: Size of dataset(s)=8KBx8KB:16KBx16KB\n"
                        "rank 0: File size=64MB:256MB\n"
                        "rank 0: Transfer buffer size=4KBx4KB:16KBx4KB\n"
                        "rank 0: Block size=4KBx4KB\n"
                        "rank 0: Block Pattern in Dataset=Interleaved\n") != NULL);
    free(c.buf);
}

/* ---- per transfer size ---------------------------------------------------- */

static void test_text_xfer(void)
{
    static const struct {
        void (*setup)(struct config *c);
        int nprocs;
        int64_t xfer;
        const char *expected;
    } cases[] = {
        {setup_01, 2, 131072,
         "Transfer Buffer Size: 131072 bytes, File size: 0.50 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.50 MB\n"},
        {setup_01, 1, 262144,
         "Transfer Buffer Size: 262144 bytes, File size: 0.25 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.25 MB\n"},
        {setup_02, 3, 4000,
         "Transfer Buffer Size: 4000 bytes, File size: 0.02 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.02 MB\n"},
        {setup_03, 1, 32768,
         "Transfer Buffer Size: 32768 bytes, File size: 0.06 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.06 MB\n"},
        {setup_04, 2, 16384, /* File size = D*N, not F*D*N */
         "Transfer Buffer Size: 16384 bytes, File size: 0.38 MB\n"
         "      # of files: 2, # of datasets: 3, dataset size: 0.12 MB\n"},
        {setup_04, 1, 65536,
         "Transfer Buffer Size: 65536 bytes, File size: 0.19 MB\n"
         "      # of files: 2, # of datasets: 3, dataset size: 0.06 MB\n"},
        {setup_07, 3, 12,
         "Transfer Buffer Size: 2x12 bytes, File size: 0.00 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.01x0.01 KB\n"},
        {setup_08, 3, 12,
         "Transfer Buffer Size: 12x2 bytes, File size: 0.00 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.01x0.01 KB\n"},
        {setup_09, 2, 4,
         "Transfer Buffer Size: 4x4 bytes, File size: 0.00 MB\n"
         "      # of files: 1, # of datasets: 1, dataset size: 0.01x0.01 KB\n"},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct config cfg = default_config();
        struct capture c;
        char what[32];

        cases[i].setup(&cfg);
        text_xfer(cap_open(&c), settings_of(&cfg), cases[i].nprocs, cases[i].xfer);
        snprintf(what, sizeof(what), "text_xfer %zu", i);
        check_lines(what, cap_text(&c), cases[i].expected);
        free(c.buf);
    }

    /* 2D, -e 8K -d 2 on 2 processes: S = 16K, N = S*S = 256 MB per dataset. */
    struct config cfg = default_config();
    struct capture c;
    guide_edit(&cfg)->geometry_2d = true;
    guide_edit(&cfg)->bytes = 8 * KB;
    guide_edit(&cfg)->block = 4 * KB;
    guide_edit(&cfg)->num_dsets = 2;
    text_xfer(cap_open(&c), settings_of(&cfg), 2, 8192);
    check_lines("text_xfer 2D", cap_text(&c),
                "Transfer Buffer Size: 4096x8192 bytes, File size: 512.00 MB\n"
                "      # of files: 1, # of datasets: 2, dataset size: 16.00x16.00 KB\n");
    free(c.buf);
}
int main(void)
{
    test_text_size();
    test_text_api();
    test_header_references();
    test_header_environment();
    test_header_2d_sizes();
    test_text_xfer();
    return check_done("test_report_header");
}
