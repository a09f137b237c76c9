#!/usr/bin/env bash
# The Python package's speed: justext(html) from Python SQL and from compute.justext against the
# `webtext` command and PyPI jusText 3.0.2 in the same process, on the 300 pages of the speed
# sample, one core, ratios from one run (goals: Python SQL >= 90% of the command and >= 20x PyPI
# jusText; compute >= 95% of Python SQL); then compute.justext from 4 threads on two cores.
#
#     bash eval/speed/compare_python.sh [SHARED_DIR]
#
# Builds the extension and the command in the profiling profile (release code, as the other
# benches) into a venv of python/requirements-test.txt made here on first use.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
PAGES="$(bash "$SHARED/eval/unpack.sh" "${TMPDIR:-/tmp}/webtext-eval" | tail -1)"
VENV="${TMPDIR:-/tmp}/webtext-python-bench-venv"
if [ ! -x "$VENV/bin/maturin" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r python/requirements-test.txt
fi
cargo build --quiet --profile profiling --bin webtext --example speed_justext
(cd python && VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH" maturin develop --quiet --profile profiling)
taskset -c 0 "$VENV/bin/python" eval/speed/python_package_speed.py \
  "$SHARED/eval/speed_sample.txt" "$PAGES" target/profiling/webtext target/profiling/examples/speed_justext
# compute.justext from 4 threads at once, on two cores.
taskset -c 0,1 "$VENV/bin/python" eval/speed/python_compute_threads.py "$SHARED/eval/speed_sample.txt" "$PAGES"
# compute.justext inside PySpark and Ray Data, and PyPI jusText inside the same Spark job, one core.
taskset -c 0 "$VENV/bin/python" eval/speed/python_engines_speed.py "$SHARED/eval/speed_sample.txt" "$PAGES"
