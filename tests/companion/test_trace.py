#!/usr/bin/env python3
"""companion_trace: tools/h5perf-trace and the traces of tests/data/traces.

- every committed trace follows docs/trace.md's format (a strict reader
  here, written from the page), and its processes' bytes are what the
  program moved (IOR's -b, -s and the run's shape; h5bench's variables,
  time steps and particles; E3SM-IO's own total);
- converting each committed Darshan log (tests/data/darshan) gives the
  committed trace of its name byte for byte (vpic-indep's: records with
  writes and no read), and ior-mpiio-indep's per-process bytes equal those
  of PyDarshan's raw DXT DataFrames, summed here without the converter;
- bad inputs exit 2 with their one line: a missing file, a non-Darshan
  file, a truncated copy of the log, a log without DXT, --level mpiio on
  offsets of -1, a --file that matches nothing, and no PyDarshan.

PyDarshan runs in H5PERF_DARSHAN_PYTHON (tests/companion/CMakeLists.txt
finds it; scripts/pydarshan installs one); without it the tests that read
a log are skipped, saying so.
"""
import glob
import json
import os
import re
import subprocess
import tempfile
import unittest

import common

DATA = os.path.join(common.ROOT, "tests", "data")
TRACES = sorted(glob.glob(os.path.join(DATA, "traces", "*.trace")))
LOG = os.path.join(DATA, "darshan", "ior-mpiio-indep.darshan")
NODXT_LOG = os.path.join(DATA, "darshan", "ior-posix-nodxt.darshan")
LOG_TRACE = os.path.join(DATA, "traces", "ior-mpiio-indep.trace")
MIB = 1 << 20
KIB = 1 << 10
PROCESSES = 4
COLL_TOTAL = PROCESSES * MIB
# h5bench's VPIC-IO write (vpic-*.trace's comment lines): 8 variables, 3
# time steps, DIM_1 16384 particles of 4 bytes, per process.
VPIC = 8 * 3 * 16384 * 4
# E3SM-IO's G case: its "Total write amount" (7.97 MiB: the header, the
# variables and the record count), every byte written by the one aggregator.
E3SM_G = 8358956
# What each program moved, per trace: (processes, the program's comment
# word, the calls counted: those of at least MIN bytes, the bytes they
# wrote and read). The bytes are each process's (a list), or a total (an
# int) where the level shows other processes' bytes (collective: the
# aggregators'). MIN leaves out HDF5's metadata writes (under 1 KiB each).
EXPECTED = {
    "ior-posix-contig": (4, "ior", 1, [MIB] * 4, [MIB] * 4),   # -b 1m -t 256k -s 1 -w -r
    "ior-posix-strided": (4, "ior", 1, [8 * 64 * KIB] * 4, [8 * 64 * KIB] * 4),  # -b 64k -s 8
    "ior-posix-fpp": (4, "ior", 1, [MIB] * 4, [MIB] * 4),      # -F -b 1m -t 256k -s 1 -w -r
    "ior-mpiio-indep": (4, "ior", 1, [MIB] * 4, [MIB] * 4),    # -a MPIIO -b 1m -t 256k -s 1
    "ior-mpiio-coll": (4, "ior", 1, COLL_TOTAL, COLL_TOTAL),   # -a MPIIO -c -b 1m -t 256k -s 1
    "vpic-indep": (4, "h5bench_write", 4 * KIB, [VPIC] * 4, [0] * 4),  # COLLECTIVE_DATA=NO
    "vpic-coll": (4, "h5bench_write", 4 * KIB, 4 * VPIC, 0),  # COLLECTIVE_DATA=YES
    "e3sm-g-16p": (16, "e3sm_io", 1, E3SM_G, 0),               # -a pnetcdf -x canonical
}
# The committed Darshan logs (tests/data/darshan), each of a committed
# trace of the same name: vpic-indep's records hold writes and no read.
LOGS = ("ior-mpiio-indep", "vpic-indep")

DARSHAN_PY = os.environ.get("H5PERF_DARSHAN_PYTHON", "")
NO_DARSHAN = "no Python with PyDarshan (H5PERF_DARSHAN_PYTHON unset: scripts/pydarshan installs one)"


def has_pydarshan():
    if not DARSHAN_PY:
        return False
    return subprocess.run([DARSHAN_PY, "-c", "import darshan"], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=120).returncode == 0


HAVE_DARSHAN = has_pydarshan()
needs_darshan = unittest.skipUnless(HAVE_DARSHAN, NO_DARSHAN)

INT = r"(0|[1-9][0-9]*)"
SECS = r"[0-9]+\.[0-9]{1,9}"
CALL = re.compile(r"%s %s (write|read) %s %s (%s) (%s)" % (INT, INT, INT, INT, SECS, SECS))


class TraceError(Exception):
    pass


def read_trace(path):
    """docs/trace.md's format, strictly: (processes, level, files, calls)
    with calls as (process, file, op, offset, length, gap, duration); the
    first mistake raises TraceError('line N: ...')."""
    nprocs = level = None
    files, calls = [], []
    last = -1
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue

            def bad(what):
                raise TraceError("line %d: %s" % (n, what))
            if nprocs is None:
                m = re.fullmatch(r"processes %s" % INT, line)
                if not m or not 1 <= int(m.group(1)) <= 1 << 20:
                    bad("expected 'processes N' first")
                nprocs = int(m.group(1))
            elif level is None:
                m = re.fullmatch(r"level (posix|mpiio)", line)
                if not m:
                    bad("expected 'level posix' or 'level mpiio'")
                level = m.group(1)
            elif line.startswith("file "):
                m = re.fullmatch(r"file %s (.+)" % INT, line)
                if not m or int(m.group(1)) != len(files) or calls:
                    bad("expected 'file %d PATH' before the calls" % len(files))
                files.append(m.group(2))
            else:
                m = CALL.fullmatch(line)
                if not m:
                    bad("not a call: %r" % line)
                p, k, op, off, length = (int(m.group(1)), int(m.group(2)), m.group(3),
                                         int(m.group(4)), int(m.group(5)))
                if not files:
                    bad("a call before any file")
                if p >= nprocs or k >= len(files):
                    bad("process or file out of range")
                if length < 1 or off + length > (1 << 63) - 1:
                    bad("length 0 or past 2^63 - 1")
                if p < last:
                    bad("process %d's call comes after process %d's" % (p, last))
                last = p
                calls.append((p, k, op, off, length, float(m.group(6)), float(m.group(7))))
    if nprocs is None or level is None or not files:
        raise TraceError("no processes, level or file line")
    return nprocs, level, files, calls


def per_process_bytes(calls, nprocs):
    out = {op: [0] * nprocs for op in ("write", "read")}
    for p, _, op, _, length, _, _ in calls:
        out[op][p] += length
    return out


def dxt_bytes(log):
    """Each process's bytes written and read of the data file from
    PyDarshan's raw DXT_POSIX DataFrames (not through the converter)."""
    code = r"""
import json, sys, darshan
r = darshan.DarshanReport(sys.argv[1], read_all=True)
out = {"write": {}, "read": {}}
for rec in r.records["DXT_POSIX"].to_df():
    if not r.name_records[rec["id"]].startswith("/tmp/peers/run-trace/"):
        continue
    for op in ("write", "read"):
        df = rec[op + "_segments"]
        out[op][str(rec["rank"])] = out[op].get(str(rec["rank"]), 0) + int(df["length"].sum())
print(json.dumps(out))
"""
    p = subprocess.run([DARSHAN_PY, "-c", code, log], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=300, check=True)
    got = json.loads(p.stdout)
    return {op: [got[op].get(str(r), 0) for r in range(PROCESSES)] for op in got}


def leading_comments(trace):
    """The comment lines a committed trace has before the converter's own
    (the command that recorded it, how it was converted): they were
    given to h5perf-trace as --comment, so converting again gives them too."""
    out = []
    with open(trace) as f:
        for line in f:
            if line.startswith("# h5perf trace (docs/trace.md)"):
                return out
            out.append(line[2:].rstrip("\n"))
    raise AssertionError("%s: no '# h5perf trace' comment" % trace)


class Traces(unittest.TestCase):
    def test_committed_traces(self):
        self.assertEqual(sorted(os.path.basename(t)[:-6] for t in TRACES), sorted(EXPECTED))
        for trace in TRACES:
            name = os.path.basename(trace)[:-6]
            with self.subTest(trace=name):
                self.assertLess(os.path.getsize(trace), 512 * KIB)
                nprocs, level, files, calls = read_trace(trace)
                want, program, least, writes, reads = EXPECTED[name]
                self.assertEqual((nprocs, level), (want, "posix"))
                got = per_process_bytes([c for c in calls if c[4] >= least], nprocs)
                for op, expect in (("write", writes), ("read", reads)):
                    self.assertEqual(got[op] if isinstance(expect, list) else sum(got[op]),
                                     expect, op)
                with open(trace) as f:
                    head = f.read(4096)
                self.assertIn("# %s: " % program, head)
                self.assertIn("# converter: h5perf-trace %s.darshan -o %s.trace" % (name, name),
                              head)
                leading_comments(trace)

    def test_reader_refuses(self):
        """The strict reader above refuses what docs/trace.md refuses."""
        cases = {
            "processes 2\nlevel posix\nfile 0 /a\n1 0 write 0 1 0.1 0.1\n0 0 write 0 1 0.1 0.1\n":
                "line 5: process 0's call comes after process 1's",
            "processes 2\nlevel posix\nfile 0 /a\n0 0 write 0 0 0.1 0.1\n": "line 4: length 0",
            "processes 2\nlevel posix\nfile 0 /a\n2 0 write 0 1 0.1 0.1\n": "line 4: process",
            "processes 2\nlevel posix\nfile 0 /a\n0 0 write -1 1 0.1 0.1\n": "line 4: not a call",
            "processes 2\nlevel posix\nfile 0 /a\n0 0 write 9223372036854775807 1 0.1 0.1\n":
                "line 4: length 0 or past 2^63 - 1",
            "level posix\nprocesses 2\n": "line 1: expected 'processes N'",
            "processes 2\nlevel posix\nfile 1 /a\n": "line 3: expected 'file 0 PATH'",
        }
        with tempfile.TemporaryDirectory(prefix="h5perf-trace-reader-") as tmp:
            path = os.path.join(tmp, "t.trace")
            for text, want in cases.items():
                with self.subTest(text=text):
                    with open(path, "w") as f:
                        f.write(text)
                    with self.assertRaises(TraceError) as cm:
                        read_trace(path)
                    self.assertIn(want, str(cm.exception))


class Converter(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="h5perf-trace-")
        cls.tmp = cls._tmp.name

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def convert(self, args, python=None):
        return common.run_tool("h5perf-trace", args, cwd=self.tmp, python=python or DARSHAN_PY)

    def assert_refused(self, args, line, python=None):
        # Its own output name: a trace a broken converter wrote is not
        # taken for another case's.
        out = os.path.join(self.tmp, "refused-%s.trace" % self.id().rsplit(".", 1)[-1])
        r = self.convert(list(args) + ["-o", out], python=python)
        self.assertEqual(r.rc, 2, r)
        self.assertEqual(r.err_lines, ["h5perf-trace: " + line], r)
        self.assertEqual(r.out, "")
        self.assertFalse(os.path.exists(out))

    @needs_darshan
    def test_fixture_log_gives_committed_trace(self):
        for name in LOGS:
            with self.subTest(log=name):
                trace = os.path.join(DATA, "traces", name + ".trace")
                out = os.path.join(self.tmp, "again-%s.trace" % name)
                args = [os.path.join(DATA, "darshan", name + ".darshan"), "-o", out]
                for text in leading_comments(trace):
                    args += ["--comment", text]
                r = self.convert(args)
                self.assertEqual(r.rc, 0, r)
                self.assertEqual(r.err, "")
                with open(out, "rb") as a, open(trace, "rb") as b:
                    self.assertEqual(a.read(), b.read())

    @needs_darshan
    def test_fixture_bytes_match_raw_dxt(self):
        _, _, _, calls = read_trace(LOG_TRACE)
        got = per_process_bytes(calls, PROCESSES)
        self.assertEqual(got, dxt_bytes(LOG))
        self.assertEqual(got, {"write": [MIB] * PROCESSES, "read": [MIB] * PROCESSES})

    @needs_darshan
    def test_missing_log(self):
        self.assert_refused(["nothing.darshan"], "nothing.darshan: no such file")

    @needs_darshan
    def test_not_darshan(self):
        path = os.path.join(self.tmp, "notes.txt")
        with open(path, "w") as f:
            f.write("not a Darshan log\n" * 100)
        # PyDarshan's own words (3.5.0) between the brackets.
        self.assert_refused([path], "%s: not a readable Darshan log (Failed to open file.)" % path)

    @needs_darshan
    def test_truncated_log(self):
        path = os.path.join(self.tmp, "truncated.darshan")
        with open(LOG, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:len(data) // 2])
        self.assert_refused([path], "%s: not a readable Darshan log (its DXT_POSIX data do not "
                            "read: truncated or corrupt)" % path)

    @needs_darshan
    def test_log_without_dxt(self):
        self.assert_refused([NODXT_LOG], "%s: no DXT_POSIX records: was DXT enabled "
                            "(DXT_ENABLE_IO_TRACE=1)?" % NODXT_LOG)

    @needs_darshan
    def test_mpiio_offsets_refused(self):
        self.assert_refused([LOG, "--level", "mpiio"],
                            "%s: DXT_MPIIO offsets are -1 (Darshan records none under Open MPI, "
                            "docs/trace.md): use --level posix" % LOG)

    @needs_darshan
    def test_no_file_matches(self):
        self.assert_refused([LOG, "--file", "/scratch/*"],
                            "%s: no DXT_POSIX file matches --file /scratch/*" % LOG)

    @needs_darshan
    def test_file_pattern_keeps_one_file(self):
        out = os.path.join(self.tmp, "one.trace")
        r = self.convert([LOG, "--file", "*/ior-mpiio-indep.dat", "-o", out])
        self.assertEqual(r.rc, 0, r)
        _, _, files, _ = read_trace(out)
        self.assertEqual(len(files), 1)

    def test_without_pydarshan(self):
        # A venv of this interpreter without the system's packages has no
        # PyDarshan (nor anything else).
        bin_dir = common.venv_without_matplotlib(self.tmp)
        python = os.path.join(bin_dir, "python3")
        self.assert_refused([LOG], "PyDarshan is not installed for %s: pip install darshan"
                            % python, python=python)


if __name__ == "__main__":
    unittest.main(verbosity=2)
