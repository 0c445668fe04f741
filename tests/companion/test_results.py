#!/usr/bin/env python3
"""companion_results: tools/h5perf_results.py, the shared reading module.

Table-driven: size labels, short names, statistics of known times, the keys
of the guide's, the block and the particles patterns' documents, the
workload parameters, the particles pattern's descriptions, and the one-line
message of the schema's validation (and of the check that no run comes
twice) for each kind of broken document, the ones that made the tools fail
with a traceback included.
"""
import copy
import json
import os
import sys
import tempfile
import unittest

import common

sys.path.insert(0, common.TOOLS)
import h5perf_results as hr  # noqa: E402


class Sizes(unittest.TestCase):
    def test_format_size(self):
        for n, text in ((1, "1B"), (1023, "1023B"), (1024, "1KiB"), (4096, "4KiB"),
                        (1536, "1.5KiB"), (1 << 20, "1MiB"), (3 << 19, "1.5MiB"),
                        (256 << 10, "256KiB"), (1 << 30, "1GiB"), (16 << 30, "16GiB"),
                        (1000, "1000B")):
            self.assertEqual(hr.format_size(n), text, n)

    def test_short_names(self):
        self.assertEqual(hr.short_names(["a/run.json", "b/ext4.json"]), ["run", "ext4"])
        self.assertEqual(hr.short_names(["x/lustre/run.json", "x/gpfs/run.json"]),
                         ["lustre/run", "gpfs/run"])
        self.assertEqual(hr.short_names(["d/run.json", "d/run.json"]), ["d/run", "d/run #2"])


class Statistics(unittest.TestCase):
    def stats(self, times, status="ok", measure="write", nbytes=8 * hr.MIB):
        run = {"bytes": nbytes}
        m = {"measure": measure, "status": status, "samples": [
            {"status": "ok", "seconds": {"slowest": t}} for t in times]}
        return hr.measure_stats(run, m)

    def test_median_min_max(self):
        s = self.stats([2.0, 1.0, 4.0])
        self.assertTrue(s.ok)
        self.assertEqual((s.median, s.max, s.min), (4.0, 8.0, 2.0))
        self.assertEqual((s.iterations, s.median_seconds), (3, 2.0))

    def test_even_iterations_use_the_median_time(self):
        # As h5perf's summary: the throughput of the median time (1.5 s).
        self.assertAlmostEqual(self.stats([1.0, 2.0]).median, 8.0 / 1.5)

    def test_failed_measure_has_no_numbers(self):
        s = self.stats([1.0], status="io_error")
        self.assertFalse(s.ok)
        self.assertEqual(s.failure, "io_error")
        self.assertIsNone(s.median)
        self.assertEqual(self.stats([]).failure, "no iterations")

    def test_open_close_times_have_no_throughput(self):
        s = self.stats([0.5], measure="write_open")
        self.assertTrue(s.ok)
        self.assertIsNone(s.median)
        self.assertEqual(s.median_seconds, 0.5)

    def test_zero_time_is_zero_throughput_as_h5perf(self):
        self.assertEqual(hr.mib_per_s(1 << 20, 0.0), 0.0)


def broken(edit, fixture=common.FAILURE):
    doc = common.load(fixture)
    edit(doc)
    return doc


def set_path(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def delete_path(doc, path):
    for k in path[:-1]:
        doc = doc[k]
    del doc[path[-1]]


# (what is broken, the edit, a fragment of the expected message)
BROKEN = [
    ("not an object", lambda d: d.clear() or d.update({"x": 1}), "not an h5perf results document"),
    ("other schema", lambda d: set_path(d, ["schema"], "fio"), "not an h5perf results document"),
    ("version 4", lambda d: set_path(d, ["schema_version"], 4), "unsupported schema_version 4"),
    ("version true", lambda d: set_path(d, ["schema_version"], True),
     "unsupported schema_version true"),
    ("no runs", lambda d: delete_path(d, ["runs"]), "': 'runs' is a required property"),
    ("runs object", lambda d: set_path(d, ["runs"], {}), "runs: {} is not of type 'array'"),
    ("context list", lambda d: set_path(d, ["context"], []),
     "context: [] is not of type 'object'"),
    ("bad api", lambda d: set_path(d, ["runs", 1, "api"], "lustre"),
     "runs[1].api: 'lustre' is not one of ['posix', 'mpiio', 'phdf5', 'pnetcdf']"),
    ("zero processes", lambda d: set_path(d, ["runs", 0, "processes"], 0),
     "runs[0].processes: 0 is less than the minimum of 1"),
    ("bool bytes", lambda d: set_path(d, ["runs", 0, "bytes"], True),
     "runs[0].bytes: True is not of type 'integer'"),
    ("string time", lambda d: set_path(d, ["runs", 0, "measures", 2, "samples", 1, "seconds",
                                           "slowest"], "1.0"),
     "runs[0].measures[2].samples[1].seconds.slowest: '1.0' is not of type 'number'"),
    ("unknown measure", lambda d: set_path(d, ["runs", 2, "measures", 0, "measure"], "fsync"),
     "runs[2].measures[0].measure: 'fsync' is not one of ["),
    ("duplicate run", lambda d: d["runs"].append(copy.deepcopy(d["runs"][0])),
     "second run of 2 processes, transfer size 512KiB, posix"),
    # What made the tools end in a traceback, half of the charts written:
    # an integer too large for a float, fields of the wrong type.
    ("huge integer", lambda d: set_path(d, ["runs", 0, "bytes"], 10 ** 400),
     "the integer 10000000000000000000... is beyond 64 bits (h5perf writes 64-bit integers "
     "and finite decimals)"),
    ("mpi_info list", lambda d: set_path(d, ["config", "mpi_info"], ["a=b"]),
     "config.mpi_info: ['a=b'] is not of type 'object'"),
    ("apis number", lambda d: set_path(d, ["config", "apis"], 3),
     "config.apis: 3 is not of type 'array'"),
    ("warnings number", lambda d: set_path(d, ["config", "warnings"], 7),
     "config.warnings: 7 is not of type 'array'"),
]

# An HDF5 run's I/O mode whose cause is not text (the headline fixture's
# runs[2] is collective HDF5).
BROKEN_IO_MODE = [
    ("cause number", lambda d: d["runs"][2]["actual_io_mode"]["write"].update(
        cause=12, mode="no_collective", modes=["no_collective"], collective=False),
     "runs[2].actual_io_mode.write.cause: 12 is not of type 'string', 'null'"),
]


# The same for the block fixture.
BROKEN_BLOCK = [
    ("unknown pattern", lambda d: set_path(d, ["config", "pattern"], "waves"),
     "config.pattern: 'waves' is not one of ['guide', 'block', 'particles', 'map', 'madbench', 'trace']"),
    # Each pattern has its own configuration.
    ("block without config.block", lambda d: set_path(d, ["config", "pattern"], "block") or
     delete_path(d, ["config", "block"]), "config: 'block' is a required property"),
    ("no block", lambda d: delete_path(d, ["config", "block"]),
     "config: 'block' is a required property"),
    ("block list", lambda d: set_path(d, ["config", "block"], []),
     "config.block: [] is not of type 'object'"),
    ("run without layout", lambda d: delete_path(d, ["runs", 4, "layout"]),
     "runs[4]: 'layout' is a required property"),
    ("unknown layout", lambda d: set_path(d, ["runs", 4, "layout"], "striped"),
     "runs[4].layout: 'striped' is not one of ['shared', 'chunked', 'fpp']"),
    # Runs of one process count share their transfer size: a second run is
    # one of the same layout and API.
    ("duplicate run", lambda d: d["runs"].append(copy.deepcopy(d["runs"][4])),
     "runs[27]: second run of 4 processes, layout chunked, mpiio"),
]

# The same for the particles fixture: keyed as the block pattern's.
BROKEN_PARTICLES = [
    ("no particles", lambda d: delete_path(d, ["config", "particles"]),
     "config: 'particles' is a required property"),
    ("particles string", lambda d: set_path(d, ["config", "particles"], "imbalance:0.5"),
     "config.particles: 'imbalance:0.5' is not of type 'object'"),
    ("run without layout", lambda d: delete_path(d, ["runs", 4, "layout"]),
     "runs[4]: 'layout' is a required property"),
    ("duplicate run", lambda d: d["runs"].append(copy.deepcopy(d["runs"][4])),
     "runs[18]: second run of 4 processes, layout fpp, mpiio"),
]

# The placed particles fixture: a second run is one of the same layout,
# API and placement (runs[3]: 2 processes, shared, posix, 4K+512).
BROKEN_PLACED = [
    ("duplicate placed run", lambda d: d["runs"].append(copy.deepcopy(d["runs"][3])),
     "runs[24]: second run of 2 processes, layout shared, posix, align_data 4096, shift 512"),
    ("negative shift", lambda d: set_path(d, ["runs", 3, "shift"], -512),
     "runs[3].shift: -512 is less than the minimum of 0"),
    ("string align", lambda d: set_path(d, ["runs", 3, "align_data"], "4K"),
     "runs[3].align_data: '4K' is not of type 'integer'"),
]

KIB, MIB = 1 << 10, 1 << 20
LAYOUTS = ("shared", "chunked", "fpp")
APIS = ("posix", "mpiio", "phdf5")
DATA = ("write", "write_open_close", "read", "read_open_close")


class Keys(unittest.TestCase):
    def test_guide_keys_are_unchanged(self):
        res = hr.load(common.SWEEP)
        self.assertEqual((res.pattern, res.block, res.layouts()), ("guide", False, []))
        self.assertEqual(res.keys()[:5], [(1, 256 * KIB, api, m) for api in ("posix",)
                                          for m in DATA] + [(1, 256 * KIB, "mpiio", "write")])
        self.assertEqual(len(res.keys()), 108)
        self.assertEqual(res.configs, res.stats)

    def test_block_keys_have_the_layout(self):
        res = hr.load(common.BLOCK)
        self.assertEqual((res.pattern, res.block), ("block", True))
        self.assertEqual(res.layouts(), list(LAYOUTS))
        # (processes, transfer size, API, measure, layout): one process
        # count's runs share a transfer size and differ by layout; listed by
        # API, then layout, as the block report's rows.
        self.assertEqual(res.keys(), [(p, (256 * MIB) // p, api, m, layout) for p in (1, 2, 4)
                                      for api in APIS for layout in LAYOUTS for m in DATA])
        self.assertEqual(res.process_counts(), [1, 2, 4])
        self.assertEqual(res.keys("read")[:4], [(1, 256 * MIB, "posix", "read", layout)
                                               for layout in LAYOUTS] +
                         [(1, 256 * MIB, "mpiio", "read", "shared")])
        # A configuration leaves the transfer size out.
        self.assertEqual(len(res.configs), 108)
        self.assertIs(res.configs[(2, "phdf5", "fpp", "write")],
                      res.stats[(2, 128 * MIB, "phdf5", "write", "fpp")])
        self.assertEqual(hr.configuration((2, 128 * MIB, "phdf5", "write", "fpp")),
                         (2, "phdf5", "fpp", "write"))
        self.assertEqual(hr.configuration((2, MIB, "phdf5", "write")), (2, MIB, "phdf5", "write"))

    def test_block_statistics_are_the_runs(self):
        doc = common.load(common.BLOCK)
        res = hr.load(common.BLOCK)
        run = common.find_run(doc, 4, 64 * MIB, "mpiio", "chunked")
        m = common.find_measure(run, "read_open_close")
        self.assertAlmostEqual(res.configs[(4, "mpiio", "chunked", "read_open_close")].median,
                               common.expected_median(run, m), places=9)

    def test_particles_keys_have_the_layout(self):
        res = hr.load(common.PARTICLES)
        self.assertEqual((res.pattern, res.block, res.particles, res.by_layout),
                         ("particles", False, True, True))
        self.assertEqual(res.layouts(), ["shared", "fpp"])
        # As the block pattern's: a process count's runs share their
        # transfer size (the largest process's particles of one variable,
        # 1.5 x 4194304 x 4 bytes with imbalance:0.5) and differ by layout.
        size = {1: 16 * MIB, 2: 24 * MIB, 4: 24 * MIB}
        self.assertEqual(res.keys(), [(p, size[p], api, m, layout) for p in (1, 2, 4)
                                      for api in APIS for layout in ("shared", "fpp")
                                      for m in DATA])
        self.assertIs(res.configs[(4, "posix", "shared", "read")],
                      res.stats[(4, 24 * MIB, "posix", "read", "shared")])
        self.assertEqual(res.particle_counts(), {1: (4194304, 4194304, 4194304),
                                                 2: (8388608, 2097152, 6291456),
                                                 4: (16777216, 2097152, 6291456)})
        for key in ((hr.load(common.SWEEP), False), (hr.load(common.BLOCK), True)):
            self.assertEqual((key[0].particles, key[0].by_layout), (False, key[1]))

    def test_particles_descriptions(self):
        for spec, text in (
                ({"distribution": "imbalance:0.5", "per_process": 1000, "seed": None},
                 "imbalance:0.5 around 1000 per process"),
                ({"distribution": "uniform", "per_process": 1000, "seed": None},
                 "uniform, 1000 per process"),
                ({"distribution": "normal:300", "per_process": 1000, "seed": 7},
                 "normal:300 around 1000 per process, seed 7"),
                ({"distribution": "list:4,0,6", "per_process": None, "seed": None},
                 "list:4,0,6")):
            self.assertEqual(hr.distribution_text({"particles": spec}), text)
        self.assertEqual(hr.counts_text((2000, 500, 1500)),
                         "2000 particles, 500 to 1500 per process")
        self.assertEqual(hr.counts_text((3000, 1000, 1000)), "3000 particles, 1000 per process")
        # A process count has its counts from any of its runs that gives
        # them (they are optional).
        doc = common.load(common.PARTICLES)
        for run in doc["runs"]:
            if run["processes"] == 1:
                del run["particles"]
        with tempfile.TemporaryDirectory() as tmp:
            res = hr.load(common.save(doc, tmp, "odd.json"))
        self.assertEqual(sorted(res.particle_counts()), [2, 4])

    def test_workload(self):
        self.assertEqual(hr.load(common.BLOCK).workload(), {
            "pattern": "block", "io_mode": "independent", "global": [512, 512, 256],
            "element_size": 4, "vars": 2, "grid": None, "read_grid": None})
        self.assertEqual(hr.load(common.SWEEP).workload(), {
            "geometry": "1d", "layout": "contiguous", "storage": "contiguous",
            "io_mode": "independent", "bytes_per_process": MIB, "block_size": 256 * KIB,
            "num_dsets": 1, "num_files": 1})
        self.assertEqual(hr.load(common.PARTICLES).workload(), {
            "pattern": "particles", "io_mode": "independent", "per_process": 4194304,
            "distribution": "imbalance:0.5", "seed": None,
            "vars": ["x", "y", "z", "px", "py", "pz", "id_1", "id_2"]})

    def test_one_pattern(self):
        sweep, block = hr.load(common.SWEEP), hr.load(common.BLOCK)
        hr.check_one_pattern([block, block], "compared")
        hr.check_one_pattern([sweep, hr.load(common.FAILURE)], "compared")
        with self.assertRaises(hr.ResultsError) as cm:
            hr.check_one_pattern([sweep, sweep, block], "compared")
        self.assertEqual(str(cm.exception), (
            "'%s' has the guide pattern's results and '%s' the block pattern's: they measure "
            "different things and are not compared" % (common.SWEEP, common.BLOCK)))
        # Version 2 with pattern "guide" is the guide's, like version 1.
        doc = common.load(common.SWEEP)
        doc.update(schema_version=2)
        doc["config"]["pattern"] = "guide"
        with tempfile.TemporaryDirectory() as tmp:
            v2 = hr.load(common.save(doc, tmp, "v2.json"))
        hr.check_one_pattern([sweep, v2], "compared")
        self.assertEqual(v2.keys(), sweep.keys())
        particles = hr.load(common.PARTICLES)
        hr.check_one_pattern([particles, particles], "plotted together")
        for other, name in ((block, "block"), (sweep, "guide")):
            with self.assertRaises(hr.ResultsError) as cm:
                hr.check_one_pattern([particles, other], "compared")
            self.assertEqual(str(cm.exception), (
                "'%s' has the particles pattern's results and '%s' the %s pattern's: they "
                "measure different things and are not compared" % (
                    common.PARTICLES, other.path, name)))


class PlacedKeys(unittest.TestCase):
    """--align-data and --shift: a placed run's key ends with its placement,
    a packed run's keeps the key it had before."""

    def test_placed_keys(self):
        res = hr.load(common.PARTICLES_PLACED)
        self.assertTrue(res.placed)
        self.assertEqual(res.placements, [(4096, 0), (4096, 512), (1 << 20, 0), (1 << 20, 512)])
        self.assertEqual(res.first, (4096, 0))
        self.assertEqual(res.placement_lists(), ([4096, 1 << 20], [0, 512]))
        size = {1: 4 * 4194304, 2: 4 * 6291456}
        # Every run has its own keys: none merged, none dropped.
        self.assertEqual(len(res.stats), 24 * 4)
        # Listed by API, layout, then placement in run order (packed first).
        self.assertEqual(res.keys("write")[:6], [
            (1, size[1], "posix", "write", "shared", 4096, 0),
            (1, size[1], "posix", "write", "shared", 4096, 512),
            (1, size[1], "posix", "write", "shared", 1 << 20, 0),
            (1, size[1], "posix", "write", "shared", 1 << 20, 512),
            (1, size[1], "posix", "write", "fpp"),
            (1, size[1], "mpiio", "write", "shared", 4096, 0)])
        self.assertIn((2, "phdf5", "shared", "read"), res.configs)
        self.assertIn((2, "mpiio", "shared", "read", 1 << 20, 512), res.configs)
        self.assertNotIn((2, "mpiio", "shared", "read"), res.configs)
        # The charts by layout: the first placement where runs are placed.
        self.assertIs(res.main[(2, "mpiio", "shared", "read")],
                      res.configs[(2, "mpiio", "shared", "read", 4096, 0)])
        self.assertIs(res.main[(2, "phdf5", "shared", "read")],
                      res.configs[(2, "phdf5", "shared", "read")])
        self.assertEqual(len(res.main), 12 * 4)

    def test_unplaced_documents_keep_their_keys(self):
        for path in (common.BLOCK, common.PARTICLES):
            old = hr.load(path)
            doc = common.unplaced_new_build(common.load(path))
            new = hr.Results(path, doc)
            self.assertEqual((old.placed, new.placed), (False, False), path)
            self.assertEqual(new.keys(), old.keys(), path)
            self.assertEqual(set(new.configs), set(old.configs), path)
            self.assertEqual(set(new.main), set(old.configs), path)
            self.assertEqual((old.first, new.first), ((0, 0), (0, 0)), path)

    def test_a_list_alone_makes_an_input_placed(self):
        # --shift 0: every run packed, but the input ran with a list.
        doc = common.unplaced_new_build(common.load(common.PARTICLES))
        doc["config"]["particles"]["shift"] = [0]
        self.assertTrue(hr.Results("shift0.json", doc).placed)

    def test_placement_text(self):
        for pair, text in (((0, 0), "packed"), ((4096, 0), "4K"), ((4096, 512), "4K+512"),
                           ((1 << 20, 4096), "1M+4K"), ((0, 512), "packed+512"),
                           ((1536, 0), "1536"), ((3 << 30, 0), "3072M")):
            self.assertEqual(hr.placement_text(pair), text)


class Validation(unittest.TestCase):
    def test_fixtures_load(self):
        for path in common.fixture_paths():
            hr.load(path)

    def test_each_broken_document_is_one_line_naming_the_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            for fixture, what, edit, fragment in [(common.FAILURE,) + b for b in BROKEN] + [
                    (common.BLOCK,) + b for b in BROKEN_BLOCK] + [
                    (common.PARTICLES,) + b for b in BROKEN_PARTICLES] + [
                    (common.PARTICLES_PLACED,) + b for b in BROKEN_PLACED] + [
                    (common.HEADLINE,) + b for b in BROKEN_IO_MODE]:
                path = common.save(broken(edit, fixture), tmp, "bad.json")
                with self.assertRaises(hr.ResultsError, msg=what) as cm:
                    hr.load(path)
                msg = str(cm.exception)
                self.assertTrue(msg.startswith("'%s': " % path), (what, msg))
                self.assertIn(fragment, msg, what)
                self.assertNotIn("\n", msg, what)

    def test_unreadable_and_not_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(hr.ResultsError, "cannot read: No such file"):
                hr.load(os.path.join(tmp, "missing.json"))
            path = os.path.join(tmp, "text.json")
            with open(path, "w") as f:
                f.write("Transfer size: 1MB\n")
            with self.assertRaisesRegex(hr.ResultsError, "^'%s': not JSON: " % path):
                hr.load(path)
            with open(path, "w") as f:
                json.dump([1, 2], f)
            with self.assertRaisesRegex(hr.ResultsError, "not an h5perf results document"):
                hr.load(path)


if __name__ == "__main__":
    unittest.main(verbosity=2)
