#!/usr/bin/env python3
"""Compare h5perf's stdout with a golden file of tests/golden.

Usage: compare.py GOLDEN ACTUAL

The golden file starts with '# args: ...' and '# np: N' lines (skipped here)
followed by the expected report with run-dependent values masked. ACTUAL is
masked the same way (see README.md) and the two are compared line by line.
Prints the first difference and exits 1; exits 0 when equal, 2 on bad usage.
Python 3 standard library only.
"""
import re
import sys

NUM = r"(?:[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?nan|[-+]?inf)"

# Only lines with one of these labels are masked; any other line must match
# verbatim, spacing included. Padding before a number (%6.2f, %7.3f) is part
# of the number and masked with it.
MASKS = [
    (re.compile(r"^(HDF5 Library: Version ).*$"), r"\g<1><ver>"),
    (
        re.compile(r"^(.*Dumping MPI Info Object \(up to )[0-9]+( bytes per item\):)$"),
        r"\g<1><maxinfo>\g<2>",
    ),
    (
        re.compile(r"^( +(?:Maximum|Average|Minimum) Throughput:) +" + NUM + r"( MB/s)$"),
        r"\g<1> <num>\g<2>",
    ),
    (
        re.compile(
            r"^( +(?:Maximum|Average|Minimum) Throughput:) +" + NUM + r"( MB/s) \( *" + NUM + r" s\)$"
        ),
        r"\g<1> <num>\g<2> (<num> s)",
    ),
    (
        re.compile(
            r"^( +(?:Minimum|Average|Maximum) Accumulated Time using [0-9]+ file\(s\):) +"
            + NUM
            + r"( s)$"
        ),
        r"\g<1> <num>\g<2>",
    ),
    (re.compile(r"^( +(?:Minimum|Maximum) Time:) +" + NUM + r"s$"), r"\g<1> <num>s"),
]


def mask_line(line):
    for pattern, replacement in MASKS:
        masked, n = pattern.subn(replacement, line)
        if n:
            return masked
    return line


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last line, it is not one more
    return lines


def golden_body(lines):
    """The golden file's expected lines: without its leading '# ' metadata."""
    i = 0
    while i < len(lines) and (lines[i].startswith("# args:") or lines[i].startswith("# np:")):
        i += 1
    return lines[i:]


def first_difference(expected, actual):
    """(line number, expected, actual) of the first difference, or None."""
    for i in range(max(len(expected), len(actual))):
        e = expected[i] if i < len(expected) else None
        a = actual[i] if i < len(actual) else None
        if e != a:
            return i + 1, e, a
    return None


def main(argv):
    if len(argv) != 3:
        print("usage: compare.py GOLDEN ACTUAL", file=sys.stderr)
        return 2
    expected = golden_body(read_lines(argv[1]))
    actual = [mask_line(l) for l in read_lines(argv[2])]
    diff = first_difference(expected, actual)
    if diff is None:
        return 0
    line, e, a = diff
    print("%s: first difference at line %d (after masking)" % (argv[1], line))
    print("  expected: %s" % ("<end of output>" if e is None else repr(e)))
    print("  actual:   %s" % ("<end of output>" if a is None else repr(a)))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
