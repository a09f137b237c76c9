#!/usr/bin/env bash
# `webtext clean` over the ~3,000 pages of ../shared/eval on 1 and 2 partitions, and on the same
# crawl replicated 4x: best wall time of RUNS runs each, pages/s, the 2-partition speed-up and peak
# RSS (GNU time). Usage: benches/clean_scaling.sh [SHARED] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
export SHARED="${1:-../shared}"
RUNS="${2:-3}"
WORK="${TMPDIR:-/tmp}/webtext-clean-scaling"
mkdir -p "$WORK"
cargo build --release --quiet --bin webtext
[ -f "$WORK/crawl.parquet" ] || bash tools/build_eval_crawl.sh "$WORK/crawl.parquet"
[ -f "$WORK/crawl_x4.parquet" ] || target/release/webtext sql -t "crawl=$WORK/crawl.parquet" \
  --output "$WORK/crawl_x4.parquet" \
  "SELECT * FROM crawl UNION ALL SELECT * FROM crawl UNION ALL SELECT * FROM crawl UNION ALL SELECT * FROM crawl"

best() {  # best wall seconds and the peak RSS (KB) of that run, over RUNS runs of: clean IN --partitions P
  local in="$1" p="$2" best_wall="" best_rss=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" target/release/webtext clean "$in" "$WORK/out.parquet" \
      --partitions "$p" 2>/dev/null
    read -r wall rss < "$WORK/time.txt"
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; best_rss=$rss; fi
  done
  echo "$best_wall $best_rss"
}

pages() { target/release/webtext sql -t "c=$1" --format csv "SELECT count(*) AS n FROM c" | tail -1; }

printf "%-14s %6s %10s %8s %10s %12s\n" table pages partitions wall_s pages_per_s peak_rss_MiB
for table in crawl crawl_x4; do
  n=$(pages "$WORK/$table.parquet")
  for p in 1 2; do
    read -r wall rss < <(best "$WORK/$table.parquet" "$p")
    printf "%-14s %6d %10d %8.2f %10.0f %12.0f\n" "$table" "$n" "$p" "$wall" "$(awk "BEGIN{print $n/$wall}")" "$(awk "BEGIN{print $rss/1024}")"
    eval "wall_${table}_$p=$wall"
  done
done
echo "speed-up on 2 partitions: crawl $(awk "BEGIN{printf \"%.2f\", $wall_crawl_1/$wall_crawl_2}")x, crawl_x4 $(awk "BEGIN{printf \"%.2f\", $wall_crawl_x4_1/$wall_crawl_x4_2}")x"
