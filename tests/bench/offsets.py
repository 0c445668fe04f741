"""The limit program issues the same I/O calls as h5perf (docs/performance.md).

For one configuration of bench/configs.py (at test size) and one API mode, runs
h5perf and then the limit program under mpiexec with the iolog shim
(LD_PRELOAD, tests/bench/iolog.c) and compares, per process and per opening of
a data file (write phase, read phase), the multiset of (call, offset, length)
of every call on that file but its open and close. Also checks that the logs
are not vacuous: every byte of every phase is written and read, and for POSIX
the number of calls is the limit's own count. Not timed.

Usage: offsets.py --list | offsets.py CASE   (environment: H5PERF, LIMIT, IOLOG,
MPIEXEC...; see tests/bench/CMakeLists.txt)
"""
import collections
import json
import os
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import configs  # noqa: E402
import harness  # noqa: E402

DATA_FILE = re.compile(r"(#pio_tmp_\d+|limit-\d+-\d+)(\.\d+)?\.(posix|mpio)$")
TEST_MODES = ("posix", "mpiio", "mpiio_coll")


def cases():
    out = {}
    for c in configs.CONFIGS:
        for m in configs.MODES:
            if m.name in TEST_MODES and configs.applies(m, c):
                out["%s_%s" % (c.name, m.name)] = (c, m)
    return out


Session = collections.namedtuple("Session", "mode path calls")


def parse_log(path):
    """The data-file sessions of one process's log, in the order opened:
    mode ('write' if opened for writing), path, and a Counter of
    (call, offset, length)."""
    sessions, open_fd = [], {}
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split(" ", 4)
            op, fd = fields[1], int(fields[2])
            if op == "open":
                if DATA_FILE.search(fields[4]):
                    writable = int(fields[3], 16) & os.O_ACCMODE != os.O_RDONLY
                    s = Session("write" if writable else "read", fields[4], collections.Counter())
                    sessions.append(s)
                    open_fd[fd] = s
                continue
            s = open_fd.get(fd)
            if op == "close":
                open_fd.pop(fd, None)
            elif s is not None:
                s.calls[(op, int(fields[3]), int(fields[4]))] += 1
    return sessions


def read_logs(prefix):
    """{rank: [Session]} from the logs <prefix>.<rank>.<pid>."""
    d, base = os.path.split(prefix)
    out = {}
    for name in sorted(os.listdir(d)):
        m = re.fullmatch(re.escape(base) + r"\.(\w+)\.(\d+)", name)
        if m:
            harness.expect(m.group(1).isdigit(), "a log without an MPI rank: " + name)
            harness.expect(int(m.group(1)) not in out, "two processes of rank " + m.group(1))
            out[int(m.group(1))] = parse_log(os.path.join(d, name))
    return out


def run_logged(tmp, who, exe, args, hints=None):
    """Runs exe under mpiexec with the shim; returns (run, {rank: sessions})."""
    data = os.path.join(tmp, "marked")
    logs = os.path.join(tmp, "logs-" + who)
    os.mkdir(logs)
    env = {"IOLOG_MARKER": data + "/", "IOLOG_FILE": os.path.join(logs, "log"),
           "HDF5_PARAPREFIX": data}
    if hints:
        env["HDF5_MPI_INFO"] = hints
    wrap = "LD_PRELOAD=%s; export LD_PRELOAD" % shlex.quote(os.environ["IOLOG"])
    r = harness.run(configs.NP, args, env=env, timeout=150, wrap=wrap, exe=exe)
    harness.expect(r.rc == 0, "%s failed" % who, r)
    harness.expect(harness.listing(data) == [], "%s left files behind" % who, r)
    return r, read_logs(os.path.join(logs, "log"))


def describe(calls, limit=8):
    items = sorted(calls.items())
    text = ", ".join("%s@%d+%d x%d" % (op, off, ln, n) for (op, off, ln), n in items[:limit])
    return text + (" ... (%d distinct)" % len(items) if len(items) > limit else "")


def compare(h5, lim):
    harness.expect_eq(sorted(h5), sorted(lim), "ranks that logged calls")
    for rank in sorted(h5):
        a, b = h5[rank], lim[rank]
        harness.expect_eq([s.mode for s in a], [s.mode for s in b],
                          "rank %d: data-file openings (h5perf vs limit)" % rank)
        for i, (x, y) in enumerate(zip(a, b)):
            if x.calls != y.calls:
                raise AssertionError(
                    "rank %d, %s phase (opening %d): the calls differ\n"
                    "  only h5perf: %s\n  only limit:  %s"
                    % (rank, x.mode, i + 1, describe(x.calls - y.calls),
                       describe(y.calls - x.calls)))


def check_not_vacuous(lim, mode, result):
    """Every byte written and read once per phase (MPI-IO aggregators may
    move another process's bytes, so totals are summed over processes)."""
    for phase, ops in (("write", ("pwrite", "pwritev", "write", "writev")),
                       ("read", ("pread", "preadv", "read", "readv"))):
        moved = sum(ln * n for sessions in lim.values() for s in sessions if s.mode == phase
                    for (op, _, ln), n in s.calls.items() if op.startswith(ops))
        harness.expect(moved >= result["bytes"], "%s: %d bytes logged, %d expected"
                       % (phase, moved, result["bytes"]))
        if mode.name != "posix":
            continue
        harness.expect_eq(moved, result["bytes"], "POSIX %s: bytes logged" % phase)
        for rank, sessions in lim.items():
            n = sum(sum(s.calls.values()) for s in sessions if s.mode == phase)
            harness.expect_eq(n, result["calls_per_process"], "rank %d: POSIX %s calls"
                              % (rank, phase))


def run_case(name):
    config, mode = cases()[name]
    # ROMIO (MPICH) writes a noncontiguous view independently by data
    # sieving: it reads the region first, but only as far as the file
    # already reaches, which depends on how far the other process got. The
    # same hint to both programs makes it write each piece alone (Open MPI's
    # ompio ignores it).
    hints = "romio_ds_write=disable" if mode.name == "mpiio" else None
    with harness.TempDir() as tmp:
        os.mkdir(os.path.join(tmp, "marked"))
        _, h5 = run_logged(tmp, "h5perf", harness.h5perf(),
                           configs.h5perf_args(config, mode, "test"), hints)
        r, lim = run_logged(tmp, "limit", os.environ["LIMIT"],
                            configs.limit_args(config, mode, "test"), hints)
        result = json.loads(r.out.strip().splitlines()[-1])
        check_not_vacuous(lim, mode, result)
        compare(h5, lim)
    print("ok: %s (%s, %s): same calls" % (name, config.what, mode.what))


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(cases()))
        return 0
    if len(argv) != 2 or argv[1] not in cases():
        print("usage: offsets.py --list | offsets.py CASE", file=sys.stderr)
        return 2
    run_case(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
