#!/usr/bin/env bash
# Issue 17's speed figures, ratios from one run, one core (taskset -c 0):
# - the four quality filters (gopher_repetition, gopher_quality, c4_quality, fineweb_quality) on
#   the 20,000 documents of the de-duplication corpus against datatrove 0.10.1's filters in Python
#   (goal: >= 50x);
# - detect_language in MB/s on the 67,369 texts of the language set against fastText's own Python
#   binding with the same model, lid.176.ftz.
#
#     bash eval/speed/compare_filters.sh [SHARED_DIR]
#
# Makes two venvs on first use (datatrove with spaCy; fasttext-wheel 0.9.2, which needs numpy < 2)
# and builds `webtext` in the profiling profile, as the other benches.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
DT_VENV="${TMPDIR:-/tmp}/webtext-datatrove-venv"
FT_VENV="${TMPDIR:-/tmp}/webtext-fasttext-venv"
if [ ! -x "$DT_VENV/bin/python" ] || ! "$DT_VENV/bin/python" -c "import datatrove, spacy" 2>/dev/null; then
  python3 -m venv "$DT_VENV"
  "$DT_VENV/bin/pip" install -q datatrove==0.10.1 pyarrow==26.0.1 spacy==3.8.18 regex "xxhash<4" orjson tokenizers
fi
if [ ! -x "$FT_VENV/bin/python" ] || ! "$FT_VENV/bin/python" -c "import fasttext" 2>/dev/null; then
  python3 -m venv "$FT_VENV"
  "$FT_VENV/bin/pip" install -q --only-binary :all: fasttext-wheel==0.9.2 'numpy<2' pyarrow==20.0.0
fi
cargo build --quiet --profile profiling --bin webtext
echo "== the four quality filters: datatrove 0.10.1 (Python) against webtext"
taskset -c 0 "$DT_VENV/bin/python" eval/speed/datatrove_filters_speed.py \
  "$SHARED/eval/dedup/documents.parquet" target/profiling/webtext
echo "== language identification: fastText's Python binding against webtext, lid.176.ftz"
taskset -c 0 "$FT_VENV/bin/python" eval/speed/fasttext_speed.py \
  "$SHARED/eval/langid/sentences.parquet" models/lid.176.ftz target/profiling/webtext
