#!/usr/bin/env python3
"""companion_advice_values: h5perf-plot on advisor's answers that the
schema (docs/advice.schema.json) accepts but h5perf would not write: each
gives the page, or one line and exit 2, never a traceback.

Each case is advice/advice.json (a real answer) with one value changed,
checked valid against the schema here. Drawn as they are (exit 0, nothing
on stderr, the table's cells as the document gives them):
- an interval that does not hold its median, or whose ends are reversed;
- a candidate's "read": null in a set that is read back;
- a median null beside an interval;
- a recommendation without its ratio to the baseline.
Refused with one line naming the value (exit 2, no page): a
recommendation or a "not" that names no candidate's id.
"""
import json
import os
import tempfile
import unittest

import jsonschema

import checks
import common

ADVICE = os.path.join(common.HERE, "advice", "advice.json")
SCHEMA = os.path.join(common.ROOT, "docs", "advice.schema.json")
# The recommended candidate (rank 1) and the "not" (the baseline).
BEST = "-A posix --layout fpp"


def first(s):
    return next(c for c in s["candidates"] if c["rank"] == 1)


def interval_apart(s):
    first(s)["write"]["interval"] = [4000.0, 4100.0]


def interval_reversed(s):
    first(s)["write"]["interval"] = [4153.5, 1101.3]


def read_null(s):
    c = first(s)
    c["read"] = None
    c["samples"]["read"] = None


def median_null(s):
    first(s)["write"]["median"] = None


def no_ratio(s):
    s["recommendation"]["ratio_to_baseline"] = None


def recommends_nothing(s):
    s["recommendation"]["candidate"] = 99


def not_nothing(s):
    s["not"]["candidate"] = 42


# name: (change, the best candidate's table row's cells {column: text}, or
# with None the refusal's line after the path).
DRAWN = {
    "interval apart": (interval_apart, {"write MiB/s [95% interval]": "3796.7 [4000.0, 4100.0]"}),
    "interval reversed": (interval_reversed,
                          {"write MiB/s [95% interval]": "3796.7 [4153.5, 1101.3]"}),
    "read null": (read_null, {"read MiB/s [95% interval]": "-"}),
    "median null": (median_null, {"write MiB/s [95% interval]": "-"}),
    "no ratio": (no_ratio, {"candidate": BEST}),
}
REFUSED = {
    "recommends nothing": (recommends_nothing, "sets[0].recommendation.candidate: 99 is no "
                           "candidate's id (sets[0].candidates)"),
    "not nothing": (not_nothing, "sets[0].not.candidate: 42 is no candidate's id "
                    "(sets[0].candidates)"),
}


class UnusualValues(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(SCHEMA) as f:
            cls.validator = jsonschema.Draft202012Validator(json.load(f))

    def variant(self, tmp, name, change):
        doc = common.load(ADVICE)
        change(doc["sets"][0])
        self.assertEqual([e.message for e in self.validator.iter_errors(doc)], [], name)
        return common.save(doc, tmp, name.replace(" ", "-") + ".json")

    def test_drawn(self):
        for name, (change, cells) in DRAWN.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                path = self.variant(tmp, name, change)
                r = common.run_tool("h5perf-plot", [path, "--html", "page.html"], cwd=tmp)
                self.assertEqual((r.rc, r.err_lines), (0, []), r)
                with open(os.path.join(tmp, "page.html"), encoding="utf-8") as f:
                    page = checks.Page(f.read())
                self.assertEqual(page.errors, [])
                self.assertEqual(len(page.svg_images()), 1)
                row = next(r for r in page.table_with("candidate") if r["rank"] == "1")
                self.assertEqual({k: row[k] for k in cells}, cells)

    def test_no_ratio_said(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = self.variant(tmp, "no ratio", no_ratio)
            r = common.run_tool("h5perf-plot", [path, "--html", "page.html"], cwd=tmp)
            self.assertEqual(r.rc, 0, r)
            with open(os.path.join(tmp, "page.html"), encoding="utf-8") as f:
                text = " ".join("".join(checks.Page(f.read()).text).split())
        self.assertIn("Recommendation: %s, no ratio to the baseline's throughput (significantly "
                      "better than the baseline, its data verified)." % BEST, text)

    def test_refused(self):
        for name, (change, line) in REFUSED.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                path = self.variant(tmp, name, change)
                r = common.run_tool("h5perf-plot", [path, "--html", "page.html"], cwd=tmp)
                self.assertEqual((r.rc, r.err_lines, r.out),
                                 (2, ["h5perf-plot: '%s': %s" % (path, line)], ""), r)
                self.assertFalse(os.path.exists(os.path.join(tmp, "page.html")))


if __name__ == "__main__":
    unittest.main()
