#!/usr/bin/env bash
# Speed, memory and quality of `webtext dedup` on the shared de-duplication corpus, next to onion 1.2.
#
#   bash eval/speed/compare_dedup.sh [SHARED_DIR] [REPEATS]
#
# 1. `webtext dedup` (n 7, t 0.5, smoothing: onion's defaults) on eval/dedup/documents.parquet
#    (20,000 documents, 7,708,232 tokens), REPEATS times on 2 cores and on one core (taskset):
#    best wall time, peak RSS, tokens/s, and the ratio to onion 1.2's median wall time recorded by
#    oracle/onion/run_onion.py on a 2-core machine (onion_runs.json). onion itself cannot run here:
#    it needs its C sources and libJudy, neither of which is reachable from this machine.
# 2. Quality against the ground truth (eval/dedup/score.py, needs pyarrow) for the three oracle
#    settings and for --protect-unique-documents, next to onion's own scores (scores.json).
# 3. Scaling: the corpus replicated 10x with fresh doc ids (200,000 documents, 77 M tokens), with
#    --hash-ranges 1 and 8.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="$(cd "${1:-../shared}" && pwd)"
REPEATS="${2:-3}"
CORPUS="$SHARED/eval/dedup/documents.parquet"
WORK="${TMPDIR:-/tmp}/webtext-compare-dedup"
mkdir -p "$WORK"
PYTHON="${PYTHON:-python3}"
# The profiling profile (Cargo.toml): release code with line tables, for perf. With an example, as
# .ci/run builds, so the binary and the examples share one build of DataFusion.
export WEBTEXT_PROFILE=profiling
cargo build --quiet --profile profiling --bin webtext --example build_crawl
WEBTEXT="$PWD/target/profiling/webtext"
TOKENS=7708232

onion_wall=$("$PYTHON" -c "import json; print(json.load(open('$SHARED/oracle/onion/onion_runs.json'))['settings']['n7_t0.5']['median_wall_s']['onion_mark'])")
onion_rss=$("$PYTHON" -c "import json; print(json.load(open('$SHARED/oracle/onion/onion_runs.json'))['settings']['n7_t0.5']['max_rss_kb']['onion_mark'] // 1024)")

# best_of REPEATS LABEL TOKENS -- COMMAND...: prints one table row (best wall, its RSS).
best_of() {
  local label=$1 tokens=$2; shift 3
  local best="" rss=""
  for _ in $(seq "$REPEATS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" > /dev/null 2> "$WORK/stderr.txt" || {
      cat "$WORK/stderr.txt" >&2; exit 1; }
    read -r wall kb < "$WORK/time.txt"
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; rss=$((kb / 1024)); fi
  done
  awk -v l="$label" -v w="$best" -v r="$rss" -v t="$tokens" -v o="$onion_wall" \
    'BEGIN{printf "| %s | %.2f | %.2f M | %d | %.2fx |\n", l, w, t / w / 1e6, r, o / w}'
}

echo "## Speed and memory (best of $REPEATS; onion 1.2 median: ${onion_wall} s, ${onion_rss} MiB)"
echo
echo "| run | wall s | tokens/s | peak RSS MiB | onion wall / ours |"
echo "|---|---:|---:|---:|---:|"
best_of "webtext dedup, 2 cores" $TOKENS -- "$WEBTEXT" dedup "$CORPUS" "$WORK/out.parquet"
best_of "webtext dedup, 2 cores, --hash-ranges 4" $TOKENS -- "$WEBTEXT" dedup "$CORPUS" "$WORK/out.parquet" --hash-ranges 4
best_of "webtext dedup, one core (taskset -c 0, --partitions 1)" $TOKENS -- taskset -c 0 "$WEBTEXT" dedup "$CORPUS" "$WORK/out.parquet" --partitions 1

echo
echo "## Quality against the ground truth (tokens; eval/dedup/score.py)"
echo
if "$PYTHON" -c "import pyarrow" 2> /dev/null; then
  echo "| setting | dup_removed | unique_removed | F1 | onion dup_removed | onion unique_removed | same decision as onion (paragraphs) |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for setting in "n7_t0.5|" "n5_t0.5_m|--n 5 --no-smoothing" "n10_t0.25|--n 10 --threshold 0.25" \
                 "n7_t0.5 + protect|--protect-unique-documents"; do
    name=${setting%%|*}; flags=${setting#*|}; oracle=${name%% *}
    # shellcheck disable=SC2086
    "$WEBTEXT" dedup "$CORPUS" "$WORK/score.parquet" $flags 2> /dev/null
    "$PYTHON" "$SHARED/eval/dedup/score.py" "$WORK/score.parquet" \
      --truth "$SHARED/eval/dedup/paragraphs_truth.parquet" \
      --oracle "$SHARED/oracle/onion/decisions_$oracle.parquet" --json > "$WORK/score.json"
    "$PYTHON" - "$WORK/score.json" "$SHARED/oracle/onion/scores.json" "$name" "$oracle" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))
onion = json.load(open(sys.argv[2]))["settings"][sys.argv[4]]
t, o = ours["tokens"], onion["tokens"]
print("| %s | %.4f | %.4f | %.4f | %.4f | %.4f | %.5f |" % (
    sys.argv[3], t["dup_removed"], t["unique_removed"], t["f1"], o["dup_removed"],
    o["unique_removed"], ours["paragraphs"]["oracle_agreement"]))
PY
  done
else
  echo "skipped: $PYTHON has no pyarrow (PYTHON=... to choose another interpreter)"
fi

echo
echo "## Scaling: the corpus replicated 10x with fresh doc ids"
echo
BIG="$WORK/documents_x10.parquet"
if [ ! -f "$BIG" ]; then
  "$WEBTEXT" sql --table d="$CORPUS" --output "$BIG" \
    "SELECT d.doc_id + k.column1 * 20000 AS doc_id, d.url, d.text
     FROM d CROSS JOIN (VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)) AS k ORDER BY 1" 2> /dev/null
fi
echo "| run | wall s | tokens/s | peak RSS MiB | onion wall / ours (1x corpus) |"
echo "|---|---:|---:|---:|---:|"
REPEATS=1
best_of "1x, --hash-ranges 1" $TOKENS -- "$WEBTEXT" dedup "$CORPUS" "$WORK/out.parquet"
best_of "10x, --hash-ranges 1" $((TOKENS * 10)) -- "$WEBTEXT" dedup "$BIG" "$WORK/out10.parquet"
best_of "10x, --hash-ranges 8" $((TOKENS * 10)) -- "$WEBTEXT" dedup "$BIG" "$WORK/out10.parquet" --hash-ranges 8
"$WEBTEXT" sql --table p="$WORK/out10.parquet" --format csv \
  "SELECT count(*) AS paragraphs, sum(CASE WHEN kept THEN 1 ELSE 0 END) AS kept,
          sum(CASE WHEN kept AND doc_id >= 20000 THEN 1 ELSE 0 END) AS kept_in_copies FROM p"
