#!/usr/bin/env python3
"""companion_fixtures: the test inputs are real h5perf results documents.

Every data/*.json (the committed fixtures, and any real run added there) and
every variant the other tests derive must validate against
docs/results.schema.json, and the statistics the tools compute from the
samples must equal the summaries h5perf wrote.
"""
import json
import math
import sys
import unittest

import jsonschema

import common

sys.path.insert(0, common.TOOLS)
import h5perf_results as hr  # noqa: E402

SWEEP_KEY = (2, 512 << 10, "mpiio", "read")
BLOCK_KEY = (2, 128 << 20, "phdf5", "read", "shared")
PARTICLES_KEY = (2, 24 << 20, "phdf5", "read", "shared")


def variants():
    sweep = common.load(common.SWEEP)
    block = common.load(common.BLOCK)
    particles = common.load(common.PARTICLES)
    uniform = common.uniform_particles(particles)
    return {
        "slowed x2": common.slowed(sweep, 2.0),
        "wide spread": common.with_times(sweep, (1, 1 << 20, "posix", "write"),
                                         [0.001, 0.0015, 0.002]),
        "failed in B": common.failed_in(sweep, SWEEP_KEY),
        "one process count": common.only_processes(sweep, 4),
        "block slowed x2": common.slowed(block, 2.0),
        "block shared slowed": common.slowed(block, 2.0, runs=lambda r: r["layout"] == "shared"),
        "block failed": common.failed_in(block, BLOCK_KEY, "verify_failed"),
        "block wide spread": common.with_times(block, BLOCK_KEY, [0.2, 0.3, 0.4]),
        "particles slowed x2": common.slowed(particles, 2.0),
        "particles failed": common.failed_in(particles, PARTICLES_KEY),
        "particles uniform": uniform,
        "particles uniform failed": common.failed_in(
            common.slowed(uniform, 1.5), (2, 16 << 20, "phdf5", "read", "shared"),
            "verify_failed"),
        "block unplaced, new build": common.unplaced_new_build(block),
        "particles unplaced, new build": common.unplaced_new_build(particles),
        "block placed": common.placed_block(),
        "particles placed slowed": common.slowed(common.load(common.PARTICLES_PLACED), 2.0),
    }


class Schema(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(common.SCHEMA) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        cls.validator = jsonschema.Draft202012Validator(schema)

    def assert_valid(self, doc, what):
        errors = ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message)
                  for e in self.validator.iter_errors(doc)]
        self.assertEqual(errors[:5], [], what)

    def test_committed_fixtures(self):
        paths = common.fixture_paths()
        self.assertIn(common.SWEEP, paths)
        self.assertIn(common.FAILURE, paths)
        self.assertIn(common.BLOCK, paths)
        self.assertIn(common.PARTICLES, paths)
        self.assertIn(common.PARTICLES_PLACED, paths)
        for path in paths:
            self.assert_valid(common.load(path), path)

    def test_derived_variants(self):
        for what, doc in variants().items():
            self.assert_valid(doc, what)

    def test_the_validator_rejects_a_broken_document(self):
        # Without this, a validator that accepts everything would pass above.
        doc = common.load(common.FAILURE)
        del doc["runs"][0]["measures"][0]["samples"][0]["seconds"]
        doc["schema_version"] = 4
        self.assertEqual(len(list(self.validator.iter_errors(doc))), 2)


class Consistency(unittest.TestCase):
    """The tools' statistics (from samples) against h5perf's summaries."""

    def check(self, path, doc):
        res = hr.load(path)
        for run in doc["runs"]:
            for m in run["measures"]:
                key = common.key_of(run, m["measure"])
                s, summary, what = res.stats[key], m["summary"], (path, key)
                self.assertEqual(s.ok, summary is not None, what)
                if summary is None:
                    continue
                self.assertTrue(math.isclose(s.median_seconds, summary["seconds"]["median"],
                                             rel_tol=1e-12), what)
                self.assertEqual(s.iterations, summary["iterations"], what)
                mbs = summary["mib_per_s"]
                if mbs is None:
                    self.assertIsNone(s.median, what)
                    continue
                for mine, theirs in ((s.median, "median"), (s.min, "min"), (s.max, "max")):
                    self.assertTrue(math.isclose(mine, mbs[theirs], rel_tol=1e-9),
                                    (what, theirs, mine, mbs[theirs]))
                self.assertTrue(math.isclose(s.median, common.expected_median(run, m),
                                             rel_tol=1e-12), what)

    def test_fixtures(self):
        for path in common.fixture_paths():
            self.check(path, common.load(path))

    def test_failure_fixture_has_what_the_other_tests_need(self):
        doc = common.load(common.FAILURE)
        failed = [(r["transfer_size"], r["api"], r["status"]) for r in doc["runs"]
                  if r["status"] != "ok"]
        self.assertEqual(failed, [(512 << 10, "mpiio", "verify_failed"),
                                  (1 << 20, "phdf5", "io_error")])
        self.assertIn("No space left on device", doc["runs"][-1]["errors"][0])

    def test_block_fixture_has_what_the_other_tests_need(self):
        # Version 2, the block pattern: 3 process counts x 3 layouts x 3 APIs,
        # each count's runs sharing its transfer size (a process's block of
        # one variable: 512x512x256 x 4 bytes / processes) and grid.
        doc = common.load(common.BLOCK)
        self.assertEqual((doc["schema_version"], doc["config"]["pattern"]), (2, "block"))
        self.assertEqual(len(doc["runs"]), 27)
        for run in doc["runs"]:
            p = run["processes"]
            self.assertEqual((run["transfer_size"], run["bytes"]), ((256 << 20) // p, 512 << 20))
            self.assertEqual(run["grid"], {4: [2, 2, 1], 2: [2, 1, 1], 1: [1, 1, 1]}[p])
            self.assertEqual(run["status"], "ok")
            self.assertEqual([m["measure"] for m in run["measures"]],
                             ["write", "write_open_close", "read", "read_open_close"])
        self.assertEqual({(r["processes"], r["layout"], r["api"]) for r in doc["runs"]},
                         {(p, layout, api) for p in (1, 2, 4)
                          for layout in ("shared", "chunked", "fpp")
                          for api in ("posix", "mpiio", "phdf5")})
        # Every figure lasts long enough for h5perf-compare's default minimum time.
        times = [s["seconds"]["slowest"] for r in doc["runs"] for m in r["measures"]
                 for s in m["samples"]]
        self.assertGreater(min(times), 0.1)


    def test_particles_fixture_has_what_the_other_tests_need(self):
        # Version 2, the particles pattern: 3 process counts x 2 layouts x 3
        # APIs, imbalance:0.5 of 4194304 per process (docs/particles.md: from
        # 0.5 N on process 0 to 1.5 N on the last), 8 variables.
        doc = common.load(common.PARTICLES)
        self.assertEqual((doc["schema_version"], doc["config"]["pattern"]), (2, "particles"))
        self.assertEqual(doc["config"]["particles"]["distribution"], "imbalance:0.5")
        self.assertEqual(len(doc["runs"]), 18)
        counts = {4: [2097152, 3495253, 4893355, 6291456], 2: [2097152, 6291456], 1: [4194304]}
        for run in doc["runs"]:
            c = counts[run["processes"]]
            self.assertEqual(run["particles"], {"total": sum(c), "min": min(c), "max": max(c)})
            # The largest process's particles of one variable; all of them,
            # of the 8 variables.
            self.assertEqual((run["transfer_size"], run["bytes"]), (4 * max(c), 32 * sum(c)))
            self.assertEqual(run["status"], "ok")
        self.assertEqual([(r["processes"], r["layout"], r["api"]) for r in doc["runs"]],
                         [(p, layout, api) for p in (4, 2, 1) for layout in ("shared", "fpp")
                          for api in ("posix", "mpiio", "phdf5")])
        times = [s["seconds"]["slowest"] for r in doc["runs"] for m in r["measures"]
                 for s in m["samples"]]
        self.assertGreater(min(times), 0.1)

    def test_placed_fixture_has_what_the_other_tests_need(self):
        # particles.json's workload at 2 and 1 processes with --align-data
        # 4K,1M --shift 0,512, in h5perf's run order (src/pattern/app_points.c): at
        # each layout every placement, --shift innermost, its APIs; HDF5
        # and fpp once, packed.
        doc = common.load(common.PARTICLES_PLACED)
        spec = doc["config"]["particles"]
        self.assertEqual((spec["align_data"], spec["shift"]), ([4096, 1 << 20], [0, 512]))
        order = []
        for p in (2, 1):
            for i, pair in enumerate([(4096, 0), (4096, 512), (1 << 20, 0), (1 << 20, 512)]):
                order += [(p, "shared", api, pair) for api in ("posix", "mpiio")]
                order += [(p, "shared", "phdf5", (0, 0))] if i == 0 else []
            order += [(p, "fpp", api, (0, 0)) for api in ("posix", "mpiio", "phdf5")]
        self.assertEqual([(r["processes"], r["layout"], r["api"], common.placement_of(r))
                          for r in doc["runs"]], order)
        self.assertEqual({r["status"] for r in doc["runs"]}, {"ok"})
        times = [s["seconds"]["slowest"] for r in doc["runs"] for m in r["measures"]
                 for s in m["samples"]]
        self.assertGreater(min(times), 0.1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
