#!/usr/bin/env bash
# Times trafilatura 2.3.1 (the version of shared/eval/BASELINES.md, installed into a venv here on
# first use), our extractor (`extract_content`) and our jusText on the same 300 pages of
# shared/eval/speed_sample.txt, one core each (taskset -c 0), best of three, and prints the ratios
# from this one run.
#
#     bash eval/speed/compare_extract.sh [SHARED_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
PAGES="$(bash "$SHARED/eval/unpack.sh" "${TMPDIR:-/tmp}/webtext-eval" | tail -1)"
VENV="${TMPDIR:-/tmp}/webtext-trafilatura-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import trafilatura" 2> /dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q trafilatura==2.3.1 lxml_html_clean
fi
cargo build --quiet --profile profiling --example speed_extract
SAMPLE="$SHARED/eval/speed_sample.txt"
ours="$(taskset -c 0 target/profiling/examples/speed_extract "$SAMPLE" "$PAGES")"
theirs="$(taskset -c 0 "$VENV/bin/python" eval/speed/trafilatura_speed.py "$SAMPLE" "$PAGES")"
echo "$theirs"
echo "$ours"
rate() { echo "$1" | awk -v label="$2" 'index($0, label) == 1 {print $(NF-3)}'; }
t="$(rate "$theirs" trafilatura)"
e="$(rate "$ours" "extract_content (ours)")"
j="$(rate "$ours" "justext (ours)")"
awk -v e="$e" -v t="$t" -v j="$j" 'BEGIN {
  printf "ratio extract_content / trafilatura: %.1fx (goal >= 15x)\n", e / t
  printf "ratio extract_content / justext: %.2fx (goal >= 0.7x)\n", e / j }'
