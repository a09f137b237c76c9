#!/usr/bin/env bash
# Times Python jusText 3.0.2 and our justext(html) on the same 300 pages, one core each, and prints
# the ratio from this one run.
#
#     bash eval/speed/compare_justext.sh [SHARED_DIR]
#
# Needs the oracle's Python stack (installed into a venv here on first use).
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
PAGES="$(bash "$SHARED/eval/unpack.sh" "${TMPDIR:-/tmp}/webtext-eval" | tail -1)"
VENV="${TMPDIR:-/tmp}/webtext-justext-venv"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q justext==3.0.2 lxml==6.1.3 lxml_html_clean==0.4.6
fi
cargo build --quiet --profile profiling --example speed_justext
SAMPLE="$SHARED/eval/speed_sample.txt"
ours="$(taskset -c 0 target/profiling/examples/speed_justext "$SAMPLE" "$PAGES")"
python="$(taskset -c 0 "$VENV/bin/python" eval/speed/python_justext_speed.py "$SAMPLE" "$PAGES")"
echo "$python"
echo "$ours"
py_rate="$(echo "$python" | awk '{print $(NF-3)}')"
sql_rate="$(echo "$ours" | awk '/SQL over Parquet/ {print $(NF-3)}')"
awk -v a="$sql_rate" -v b="$py_rate" 'BEGIN { printf "ratio justext(html) SQL / Python jusText: %.1fx\n", a / b }'
