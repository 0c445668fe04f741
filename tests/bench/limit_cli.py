"""The limit program's command line and exit statuses (bench/limit.c): bad
arguments give one "limit:" line and exit 2 before any file exists, an I/O
error gives one line per failing process and exit 1, and a good run prints
one consistent JSON line and leaves no file behind. Not timed.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402

ONE = "-e 64K -x 16K -X 16K -B 4K -p 2 -P 2"
BAD = [
    ("-A phdf5 " + ONE, "limit: -A: give exactly one of posix and mpiio"),
    (ONE, "limit: -A: give exactly one of posix and mpiio"),
    ("-A posix -e 10Q -x 16K -X 16K -B 4K -p 2 -P 2", "limit: -e '10Q': "),
    ("-A posix -e 64K -x 16K -X 16K -B 4K", "limit: -p/-P: one process count only"),
    ("-A posix -e 64K -x 16K -X 32K -B 4K -p 2 -P 2", "limit: -x/-X: one transfer size only"),
    ("-A mpiio -o report " + ONE, "limit: option '-o' is not supported by the limit program"),
    ("-A posix --overwrite " + ONE, "limit: option '--overwrite' is not supported"),
    ("-A posix -e 64K -x 24K -X 24K -B 4K -p 2 -P 2", "limit: -x '24K': "),
]


def limit_lines(r):
    return [l for l in r.err.splitlines() if l.startswith("limit:")]


def check_bad():
    for args, start in BAD:
        with harness.TempDir() as tmp:
            r = harness.run(2, args, env={"HDF5_PARAPREFIX": tmp}, exe=os.environ["LIMIT"])
            harness.expect_eq(r.rc, 2, "exit status of: limit " + args, r)
            lines = limit_lines(r)
            harness.expect(len(lines) == 1 and lines[0].startswith(start),
                           "one line starting %r for: limit %s" % (start, args), r)
            harness.expect_eq(harness.listing(tmp), [], "files after: limit " + args)


def check_io_error():
    for api in ("posix", "mpiio"):
        with harness.TempDir() as tmp:
            missing = os.path.join(tmp, "missing")
            r = harness.run(2, "--dir=%s -A %s %s" % (missing, api, ONE), exe=os.environ["LIMIT"])
            harness.expect_eq(r.rc, 1, "exit status with a missing directory", r)
            lines = limit_lines(r)
            harness.expect(1 <= len(lines) <= 2 and all(
                l.startswith("limit: rank ") and " open '%s/" % missing in l for l in lines),
                "one line per failing process", r)


def check_good():
    for api in ("-A posix", "-A mpiio -C -I"):
        with harness.TempDir() as tmp:
            r = harness.run(2, "--dir=%s %s %s -i 3 -w -d 2" % (tmp, api, ONE),
                            exe=os.environ["LIMIT"])
            harness.expect_eq(r.rc, 0, "exit status", r)
            doc = json.loads(r.lines[-1])
            harness.expect_eq(doc["bytes"], 2 * 2 * 65536, "bytes per phase", r)
            calls = 2 * 4 if api == "-A posix" else 2 * 4 * 1  # d x transfers x calls
            harness.expect_eq(doc["calls_per_process"], calls, "calls per process", r)
            harness.expect_eq(sorted(doc["seconds"]), ["write", "write_open_close"], "measures")
            harness.expect(all(len(v) == 3 and min(v) > 0 for v in doc["seconds"].values()),
                           "three positive samples per measure", r)
            harness.expect(len(doc["peak_rss_kib"]) == 2 and min(doc["peak_rss_kib"]) > 0,
                           "a peak per process", r)
            harness.expect_eq(harness.listing(tmp), [], "files left by: limit " + api)


if __name__ == "__main__":
    check_bad()
    check_io_error()
    check_good()
    print("ok: limit command line, exit statuses and output")
