#!/usr/bin/env python3
"""Writes the man page of a companion command (tools/h5perf-plot,
tools/h5perf-compare) from its own argparse parser and docstring, to stdout.

Usage: packaging/man/argparse_man.py tools/h5perf-plot > packaging/man/h5perf-plot.1

The pages are committed (building h5perf needs no Python);
tests/install/man.py regenerates them and fails when a committed page
differs, so a parser change without a new page fails the tests. The command
is imported, not run: its parse_args() builds the parser, which is caught
at its parse_args() call. Standard library only.
"""
import argparse
import importlib.machinery
import importlib.util
import os
import re
import sys


class Caught(Exception):
    def __init__(self, parser):
        super().__init__("parser caught")
        self.parser = parser


def load_parser(path):
    """(module, parser) of the command at path."""
    name = os.path.basename(path).replace("-", "_") + "_man"
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)

    def catch(self, args=None, namespace=None):
        raise Caught(self)

    saved = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = catch
    try:
        module.parse_args([])
    except Caught as c:
        return module, c.parser
    finally:
        argparse.ArgumentParser.parse_args = saved
    raise SystemExit("%s: parse_args() never parsed" % path)


def roff(text):
    """Plain text as roff input: minus signs, backslashes, no control lines."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def paragraphs(doc):
    """The docstring after its title and Usage lines, as paragraphs (split
    at blank lines)."""
    lines = doc.strip().splitlines()[1:]
    out, cur = [], []
    for line in lines:
        line = line.strip()
        if line.startswith("Usage:"):
            continue
        if not line:
            if cur:
                out.append(" ".join(cur))
            cur = []
            continue
        cur.append(line)
    if cur:
        out.append(" ".join(cur))
    return out


def term(action):
    """"-o OUTDIR", "--title T", "RESULTS.json"."""
    metavar = action.metavar or action.dest.upper()
    if not action.option_strings:
        return "\\fI%s\\fR" % roff(metavar)
    names = ", ".join("\\fB%s\\fR" % roff(o) for o in action.option_strings)
    return names if action.nargs == 0 else "%s \\fI%s\\fR" % (names, roff(metavar))


def page(path):
    module, parser = load_parser(path)
    prog = parser.prog
    other = "h5perf-compare" if prog == "h5perf-plot" else "h5perf-plot"
    fmt = parser._get_formatter()
    out = [".\\\" Generated from %s by packaging/man/argparse_man.py; do not edit." % prog,
           ".TH %s 1 \"\" \"h5perf\" \"User Commands\"" % prog.upper(), ".nh",
           ".SH NAME", "%s \\- %s" % (roff(prog), roff(parser.description.rstrip("."))),
           ".SH SYNOPSIS", roff(parser.usage), ".SH DESCRIPTION"]
    for p in paragraphs(module.__doc__):
        out += [".PP", roff(p)]
    for title, positional in (("ARGUMENTS", True), ("OPTIONS", False)):
        out.append(".SH " + title)
        for a in parser._actions:
            if bool(a.option_strings) != positional and a.help != argparse.SUPPRESS:
                out += [".TP", term(a), roff(fmt._expand_help(a))]
    out += [".SH \"SEE ALSO\"", ".BR h5perf (1),", ".BR %s (1);" % roff(other),
            "h5perf's docs/companion.md."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: argparse_man.py tools/h5perf-plot")
    sys.stdout.write(page(sys.argv[1]))
