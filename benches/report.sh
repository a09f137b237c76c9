#!/usr/bin/env bash
# `webtext report` against `webtext clean` on the ~3,000 pages of ../shared/eval (one Parquet
# file), in one run: best wall time of RUNS runs each, peak RSS (GNU time), and the ratio
# report / clean (the issue's bound: 2). Both parse every page once on all cores.
# Usage: benches/report.sh [SHARED] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
export SHARED="${1:-../shared}"
RUNS="${2:-3}"
WORK="${TMPDIR:-/tmp}/webtext-report-bench"
mkdir -p "$WORK"
# The profiling profile (release code with line tables), with an example as .ci/run builds, so the
# binary and the examples share one build of DataFusion.
export WEBTEXT_PROFILE=profiling
cargo build --profile profiling --quiet --bin webtext --example build_crawl
[ -f "$WORK/crawl.parquet" ] || bash tools/build_eval_crawl.sh "$WORK/crawl.parquet"
W=target/profiling/webtext

best() {  # best wall seconds and that run's peak RSS (KB) of: webtext ARGS...
  local best_wall="" best_rss=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$W" "$@" 2> /dev/null
    read -r wall rss < "$WORK/time.txt"
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; best_rss=$rss; fi
  done
  echo "$best_wall $best_rss"
}

pages=$("$W" sql -t "c=$WORK/crawl.parquet" --format csv "SELECT count(*) AS n FROM c" | tail -1)
read -r clean_s clean_kb < <(best clean "$WORK/crawl.parquet" "$WORK/clean.parquet")
read -r report_s report_kb < <(best report "$WORK/crawl.parquet" "$WORK/report.html")
read -r dedup_s dedup_kb < <(best report "$WORK/crawl.parquet" "$WORK/report-dedup.html" --dedup)
echo "pages: $pages, best of $RUNS runs, $(nproc) cores"
printf "%-32s %8s %10s %12s %14s\n" run "wall s" "pages/s" "peak MiB" "/ clean time"
row() { awk -v n="$1" -v s="$2" -v kb="$3" -v c="$clean_s" -v p="$pages" \
  'BEGIN{printf "%-32s %8.2f %10.0f %12.0f %14.2f\n", n, s, p/s, kb/1024, s/c}'; }
row "webtext clean" "$clean_s" "$clean_kb"
row "webtext report" "$report_s" "$report_kb"
row "webtext report --dedup" "$dedup_s" "$dedup_kb"
