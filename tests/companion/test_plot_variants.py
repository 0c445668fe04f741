#!/usr/bin/env python3
"""companion_plot_variants: the overhead charts compare like with like
(docs/mpiio.md, "Like with like"; docs/companion.md).

A real block run of 2 processes (one iteration, layouts shared and fpp)
with MPI-IO's joined calls and PnetCDF's nonblocking ones beside the
default calls. h5perf's JSON names each library run's reference
(run.overhead.over); the block charts' "each API over MPI-IO" plots then
have, beside "pnetcdf/mpiio", bars "pnetcdf nonblocking/mpiio joined",
each bar the variant run's median over MPI-IO's joined run's, which with
one iteration is the JSON's own ratio (overhead.write, overhead.read for
the measures that include open and close); the plain bars stay over
MPI-IO's default run. A document of an earlier build (no overhead
objects) has no variant bars, and the note on variants says which case
holds.
"""
import json
import os
import sys
import unittest

import common

sys.path.insert(0, os.path.dirname(common.HERE))
from harness import TempDir, built_apis, run  # noqa: E402

sys.path.insert(0, common.TOOLS)
import h5perf_charts  # noqa: E402
import h5perf_results as hr  # noqa: E402

ARGS = ("--pattern block --global 64x32 --vars 3 --layout shared,fpp -A mpiio,pnetcdf "
        "--mpiio.joined --pnetcdf.nonblocking -p 2 -i 1 --results %s")
LABEL = "pnetcdf nonblocking/mpiio joined"


class Variants(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if "pnetcdf" not in built_apis():
            raise unittest.SkipTest("this build of h5perf does not include PnetCDF")
        cls.tmp = TempDir()
        d = cls.tmp.__enter__()
        cls.path = os.path.join(d, "variants.json")
        r = run(2, ARGS % cls.path, env={"HDF5_PARAPREFIX": d})
        assert (r.rc, r.h5perf_err) == (0, []), r
        with open(cls.path) as f:
            cls.doc = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def run_of(self, api, variant, layout):
        return [r for r in self.doc["runs"] if (r["api"], r["variant"], r["layout"]) ==
                (api, variant, layout)][0]

    def plot(self, res, measure):
        plots = [p for p in h5perf_charts.block_over_mpiio([res])
                 if p.measure == measure and p.processes == 2]
        self.assertEqual(len(plots), 1)
        return {s.label: {pt[0]: pt[1] for pt in s.points} for s in plots[0].series}

    def test_variant_bars_over_joined(self):
        res = hr.Results(self.path, self.doc)
        for measure, key in (("write_open_close", "write"), ("read_open_close", "read")):
            bars = self.plot(res, measure)
            self.assertEqual(sorted(bars), sorted(["pnetcdf/mpiio", LABEL]))
            for layout in ("shared", "fpp"):
                want = self.run_of("pnetcdf", "nonblocking", layout)["overhead"]
                self.assertEqual(want["over"], {"api": "mpiio", "variant": "joined"})
                self.assertAlmostEqual(bars[LABEL][layout], want[key], delta=1e-9 * want[key])
                plain = self.run_of("pnetcdf", None, layout)["overhead"]
                self.assertEqual(plain["over"], {"api": "mpiio", "variant": None})
                self.assertAlmostEqual(bars["pnetcdf/mpiio"][layout], plain[key],
                                       delta=1e-9 * plain[key])
        self.assertIn("left out but from the overhead charts, which divide them by MPI-IO's "
                      "run with the same method", hr.variant_note(res, charts=True))
        self.assertNotIn("overhead charts", hr.variant_note(res))

    def test_earlier_build_has_no_variant_bars(self):
        doc = json.loads(json.dumps(self.doc))
        for r in doc["runs"]:
            r.pop("overhead", None)
        res = hr.Results(self.path, doc)
        self.assertEqual(sorted(self.plot(res, "write_open_close")), ["pnetcdf/mpiio"])
        self.assertNotIn("overhead charts", hr.variant_note(res, charts=True))


if __name__ == "__main__":
    unittest.main()
