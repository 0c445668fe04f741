#!/usr/bin/env python3
"""The workload file's JSON Schema (docs/workload.schema.json) against the
YAML documents as PyYAML loads them: every example in examples/workloads
validates; documents h5perf's parser refuses for their structure (an
unknown key, a word outside its list, a shape that is not one, a grid and
a map together, neither arrays nor particles) do not; and the schema is a
valid draft 2020-12 schema. Needs PyYAML (python3-yaml) and jsonschema."""
import glob
import json
import os
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:
    sys.exit("workload_schema: needs PyYAML and jsonschema (Debian: apt-get install python3-yaml "
             "python3-jsonschema; scripts/setup does): %s" % e)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARRAY = "arrays: [{global: [64], decomposition: {grid: [2]}}]\n"

# Documents the schema must refuse, each with why.
REFUSED = [
    (ARRAY + "colour: red\n", "an unknown top-level key"),
    ("name: x\n", "no arrays, particles or traces"),
    ("arrays: [{global: abc, decomposition: {grid: [2]}}]\n", "a shape that is not one"),
    ("arrays: [{global: [1, 2, 3, 4], decomposition: {grid: [2]}}]\n", "four dimensions"),
    ("arrays: [{global: [64], decomposition: {grid: [2], map: m.txt}}]\n", "a grid and a map"),
    ("arrays: [{global: [64]}]\n", "no decomposition"),
    ("arrays: [{global: [64], decomposition: {grid: [2]}, type: f128}]\n", "an unknown type"),
    ("particles: [{per_process: 8, variables: 9}]\n", "nine particle variables"),
    ("particles: [{distribution: uniform}]\n", "no per_process"),
    (ARRAY + "baseline: {api: hdf6}\n", "an unknown API"),
    (ARRAY + "baseline: {transfer_size: 1Q}\n", "a size with an unknown unit"),
    (ARRAY + "baseline: {transfer_size: 0}\n", "a size of 0"),
    (ARRAY + "baseline: {hints: {nc_var_align_size: 4K}}\n", "PnetCDF's alignment as a hint"),
    (ARRAY + "search: {layouts: {drop: [fpp]}}\n", "an edit other than add and remove"),
    (ARRAY + "search: {mpiio_components: [romio-321]}\n", "a component name with '-'"),
    (ARRAY + "search: {chunk_shapes: [[8, 0]]}\n", "a chunk shape with an extent of 0"),
    (ARRAY + "search: {chunk_shapes: [cube]}\n", "a chunk shape that is not one"),
    (ARRAY + "baseline: {metadata_block_size: 2Q}\n", "a metadata block size with an unknown unit"),
    (ARRAY + "search: {collective_metadata: [maybe]}\n", "collective metadata neither true nor false"),
    (ARRAY + "baseline: {pnetcdf_nonblocking: maybe}\n", "nonblocking neither true nor false"),
    ("traces: [{name: app}]\n", "a trace without its file"),
    ("traces: [{trace: app.trace, steps: 2}]\n", "an array's key in a trace"),
]
ACCEPTED = [
    ARRAY,
    "arrays: [{global: 64x32, decomposition: {grid: 2x1}, type: F32, read_back: {grid: [1, 2]}}]\n",
    "arrays: [{decomposition: {map: m.txt, use: 2}, variables: 4}]\n",
    "particles: [{distribution: 'list:1,2,3', variables: [x, y]}]\n",
    "traces: [{name: app, trace: ../app.trace}]\n"
    "search: {layouts: [shared, fpp], transfer_sizes: [whole, 1M], align_data: [packed, 4K]}\n",
    ARRAY + "baseline: {api: mpiio, collective: yes, align_data: packed, transfer_size: 4MB,"
    " hints: {cb_nodes: 2, romio_cb_write: enable, my_hint: abc}}\n",
    ARRAY + "search: {apis: posix, transfer_sizes: {add: [4K], remove: whole},"
    " hints: {romio_cb_write: [], striping_unit: [1M]}, io_modes: [collective]}\n",
    ARRAY + "baseline: {layout: chunked, chunk: [8], collective_metadata: true,"
    " metadata_block_size: 64K}\n",
    ARRAY + "search: {chunk_shapes: [block, [8], 16], collective_metadata: [false, true],"
    " metadata_block_sizes: {add: [1M]}}\n",
    ARRAY + "baseline: {api: pnetcdf, pnetcdf_nonblocking: true}\n"
    "search: {pnetcdf_nonblocking: [true]}\n",
]


def main():
    failures = []
    with open(os.path.join(ROOT, "docs", "workload.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    examples = sorted(glob.glob(os.path.join(ROOT, "examples", "workloads", "*.yaml")))
    if len(examples) < 3:
        failures.append("expected the three examples in examples/workloads, found %d"
                        % len(examples))
    for path in examples:
        with open(path) as f:
            errors = [e.message for e in v.iter_errors(yaml.safe_load(f))]
        if errors:
            failures.append("%s: %s" % (os.path.relpath(path, ROOT), "; ".join(errors)))
    for text in ACCEPTED:
        errors = [e.message for e in v.iter_errors(yaml.safe_load(text))]
        if errors:
            failures.append("refused %r: %s" % (text, "; ".join(errors)))
    for text, why in REFUSED:
        if v.is_valid(yaml.safe_load(text)):
            failures.append("took %s: %r" % (why, text))
    for f in failures:
        print("workload_schema: " + f, file=sys.stderr)
    print("workload_schema: %d examples, %d accepted, %d refused documents: %s"
          % (len(examples), len(ACCEPTED), len(REFUSED), "FAILED" if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
