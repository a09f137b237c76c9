#!/usr/bin/env bash
# `webtext clean` over the ~3,000 pages of ../shared/eval (Parquet, and the same pages as WARC), and
# the Parquet crawl replicated 4x: one
# cleaning thread pinned to one core (taskset -c 0: reading, cleaning and writing share it), one
# cleaning thread free to overlap with the reader/writer thread, and two cleaning threads on both
# cores. Best wall time of RUNS runs each, pages/s, peak RSS (GNU time), and the speed-up of two
# cores over one. Usage: benches/clean_scaling.sh [SHARED] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
export SHARED="${1:-../shared}"
RUNS="${2:-3}"
WORK="${TMPDIR:-/tmp}/webtext-clean-scaling"
mkdir -p "$WORK"
# The profiling profile (Cargo.toml): release code with line tables, for perf. With an example, as
# .ci/run builds, so the binary and the examples share one build of DataFusion.
export WEBTEXT_PROFILE=profiling
cargo build --profile profiling --quiet --bin webtext --example build_crawl
[ -f "$WORK/crawl.parquet" ] || bash tools/build_eval_crawl.sh "$WORK/crawl.parquet"
[ -f "$WORK/crawl_x4.parquet" ] || target/profiling/webtext sql -t "crawl=$WORK/crawl.parquet" \
  --output "$WORK/crawl_x4.parquet" \
  "SELECT * FROM crawl UNION ALL SELECT * FROM crawl UNION ALL SELECT * FROM crawl UNION ALL SELECT * FROM crawl"
# The same pages as a Common-Crawl-like WARC.
WARC="$(bash eval/quality/eval_warc.sh "$SHARED")"
declare -A input=([crawl]="$WORK/crawl.parquet" [crawl_x4]="$WORK/crawl_x4.parquet" [warc]="$WARC")
tables="crawl crawl_x4 warc"

best() {  # best wall seconds and the peak RSS (KB) of that run, over RUNS runs of: [taskset] clean IN --partitions P
  local in="$1" p="$2" pin="$3" best_wall="" best_rss=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" $pin target/profiling/webtext clean "$in" "$WORK/out.parquet" \
      --partitions "$p" 2>/dev/null
    read -r wall rss < "$WORK/time.txt"
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; best_rss=$rss; fi
  done
  echo "$best_wall $best_rss"
}

# Pages cleaned: the rows of the last output (a WARC's HTML responses, a crawl's rows).
pages() { target/profiling/webtext sql -t "c=$WORK/out.parquet" --format csv "SELECT count(*) AS n FROM c" | tail -1; }

printf "%-10s %6s %-22s %8s %10s %12s\n" table pages run wall_s pages_per_s peak_rss_MiB
for table in $tables; do
  for run in one_core one_thread two_threads; do
    case $run in
      one_core) p=1; pin="taskset -c 0" ;;
      one_thread) p=1; pin="" ;;
      two_threads) p=2; pin="" ;;
    esac
    read -r wall rss < <(best "${input[$table]}" "$p" "$pin")
    n=$(pages)
    printf "%-10s %6d %-22s %8.2f %10.0f %12.0f\n" "$table" "$n" "$run (--partitions $p)" "$wall" "$(awk "BEGIN{print $n/$wall}")" "$(awk "BEGIN{print $rss/1024}")"
    eval "wall_${table}_$run=$wall"
  done
done
for table in $tables; do
  eval "a=\$wall_${table}_one_core b=\$wall_${table}_one_thread c=\$wall_${table}_two_threads"
  echo "$table: two cores over one core $(awk "BEGIN{printf \"%.2f\", $a/$c}")x; --partitions 2 over --partitions 1 $(awk "BEGIN{printf \"%.2f\", $b/$c}")x"
done
