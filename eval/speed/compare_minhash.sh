#!/usr/bin/env bash
# Issue 18's figures, ratios from one run:
# - end to end, datatrove 0.10.1's MinHash de-duplication (its four stages, Python, one worker)
#   against `webtext near-dedup` on the 20,000 documents of the de-duplication corpus, both on one
#   core (taskset -c 0), and webtext on every core; peak memory (max RSS) of each (goal: >= 50x);
# - webtext on the corpus repeated 10 times with fresh ids (200,000 documents), one core: the
#   time should grow linearly.
#
#     bash eval/speed/compare_minhash.sh [SHARED_DIR]
#
# Makes the datatrove venv on first use (as eval/speed/compare_filters.sh) and builds `webtext` in
# the profiling profile, as the other benches.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
DOCS="$SHARED/eval/dedup/documents.parquet"
DT_VENV="${TMPDIR:-/tmp}/webtext-datatrove-venv"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/webtext-minhash-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
if [ ! -x "$DT_VENV/bin/python" ] || ! "$DT_VENV/bin/python" -c "import datatrove, spacy" 2>/dev/null; then
  python3 -m venv "$DT_VENV"
  "$DT_VENV/bin/pip" install -q datatrove==0.10.1 pyarrow==26.0.1 spacy==3.8.18 regex "xxhash<4" orjson tokenizers
fi
cargo build --quiet --profile profiling --bin webtext
WEBTEXT=target/profiling/webtext

# "seconds max_rss_kib" of a command, from /usr/bin/time.
timed() {
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" > "$WORK/stdout" 2> "$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
  cat "$WORK/time"
}

echo "== 20,000 documents: datatrove's four stages (one core)"
read -r DT_SECONDS DT_RSS < <(timed taskset -c 0 "$DT_VENV/bin/python" eval/speed/datatrove_minhash_speed.py "$DOCS" "$WORK/datatrove")
cat "$WORK/stdout"
echo "== webtext near-dedup (one core, then every core)"
read -r ONE_SECONDS ONE_RSS < <(timed taskset -c 0 "$WEBTEXT" near-dedup "$DOCS" "$WORK/one.parquet" --partitions 1)
cat "$WORK/stderr"
read -r ALL_SECONDS ALL_RSS < <(timed "$WEBTEXT" near-dedup "$DOCS" "$WORK/all.parquet")
cat "$WORK/stderr"

echo "== the corpus 10 times with fresh ids (200,000 documents), one core"
# Row groups of 8,192 documents, as a crawl's files have them (a reader holds one row group's
# column chunk in memory: one row group of 200,000 texts would dominate the peak).
"$WEBTEXT" sql --table d="$DOCS" \
  "COPY (SELECT doc_id + copy * 20000 AS doc_id, text FROM d CROSS JOIN (SELECT unnest(range(0, 10)) AS copy) ORDER BY copy, doc_id)
   TO '$WORK/ten.parquet' STORED AS PARQUET OPTIONS ('format.max_row_group_size' '8192')" > /dev/null
read -r TEN_SECONDS TEN_RSS < <(timed taskset -c 0 "$WEBTEXT" near-dedup "$WORK/ten.parquet" "$WORK/ten-out.parquet" --partitions 1)
cat "$WORK/stderr"

awk -v dt="$DT_SECONDS" -v dtr="$DT_RSS" -v one="$ONE_SECONDS" -v oner="$ONE_RSS" \
    -v all="$ALL_SECONDS" -v allr="$ALL_RSS" -v ten="$TEN_SECONDS" -v tenr="$TEN_RSS" 'BEGIN {
  printf "| run | documents | seconds | max RSS (MiB) | vs datatrove |\n|---|---:|---:|---:|---:|\n";
  printf "| datatrove 0.10.1, 4 stages, one core | 20,000 | %.2f | %.0f | 1 |\n", dt, dtr / 1024;
  printf "| webtext near-dedup, one core | 20,000 | %.2f | %.0f | %.1fx |\n", one, oner / 1024, dt / one;
  printf "| webtext near-dedup, every core | 20,000 | %.2f | %.0f | %.1fx |\n", all, allr / 1024, dt / all;
  printf "| webtext near-dedup, one core | 200,000 | %.2f | %.0f | time x%.2f for 10x the documents |\n", ten, tenr / 1024, ten / one;
}'
