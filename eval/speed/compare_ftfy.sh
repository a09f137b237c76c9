#!/usr/bin/env bash
# ftfy against ftfy 6.3.1's fix_text in Python (datatrove's FTFYFormatter configuration), on the
# same texts, one core (taskset -c 0), ratios from one run.
#
#     bash eval/speed/compare_ftfy.sh [SHARED_DIR]
#
# Makes a venv with ftfy on first use and builds `webtext` in the profiling profile, as the other
# benches (WEBTEXT=path/to/webtext times that binary instead).
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
VENV="${TMPDIR:-/tmp}/webtext-ftfy-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import ftfy, pyarrow" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q ftfy==6.3.1 pyarrow==26.0.1
fi
if [ -z "${WEBTEXT:-}" ]; then
  cargo build --quiet --profile profiling --bin webtext
  WEBTEXT=target/profiling/webtext
fi
taskset -c 0 "$VENV/bin/python" eval/speed/ftfy_speed.py "$SHARED" "$WEBTEXT"
