#!/usr/bin/env python3
"""Runs h5perf with a golden file's arguments and process count, in an empty
scratch directory with HDF5_PARAPREFIX and HDF5_MPI_INFO unset, and compares
its stdout with the golden report (compare.py masks the numbers).

Usage: run_golden.py GOLDEN
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, ".."))
sys.path.insert(0, here)
from compare import first_difference, golden_body, mask_line, read_lines  # noqa: E402
from harness import TempDir, listing, run  # noqa: E402


def main(golden):
    with open(golden) as fh:
        first = fh.readline()
        second = fh.readline()
    args = first[len("# args:"):].strip()
    np = int(second[len("# np:"):])
    with TempDir() as d:
        r = run(np, args, cwd=d)
        if r.rc != 0:
            print("FAIL: exit status %d\n%r" % (r.rc, r))
            return 1
        actual = [mask_line(l) for l in r.out.split("\n")]
        if actual and actual[-1] == "":
            actual.pop()
        diff = first_difference(golden_body(read_lines(golden)), actual)
        if diff:
            print("FAIL %s: line %d\n  expected: %r\n  actual:   %r\n%s" % (
                os.path.basename(golden), diff[0], diff[1], diff[2], r.out))
            return 1
        if listing(d):
            print("FAIL: files left behind: %s" % listing(d))
            return 1
    print("PASS " + os.path.basename(golden))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
