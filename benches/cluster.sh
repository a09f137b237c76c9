#!/usr/bin/env bash
# `webtext clean` on the ~3,000 evaluation pages (~240 MB of HTML) as a crawl of 8 Parquet files: in one
# process, and on a Ballista cluster on this machine (a scheduler and one executor of 2 tasks, then
# two executors of 1 task each), all processes on 127.0.0.1: into one file (on the cluster one
# executor task writes it, the rows shuffled to it, and the client receives its counts) and into a
# folder of shards with --shard-bytes 0 and with the default size, also for the crawl four times
# over (on the cluster the executors write them and the client receives a row of counts
# per shard). Also `sql/clean.sql` (url and text only) both ways, and `clean` of the evaluation archive as
# 8 WARC files (8 copies) into shards and into one file, and `sql/fineweb.sql` into shards with its decisions a file
# per shard (on the cluster the executors write both). Best wall time of RUNS runs, pages/s, and the cluster's
# overhead over the single process, from one run of this script; on the cluster, the bytes the client
# reads from its sockets for clean (strace, one run).
# Usage: [WEBTEXT_BENCH_PROFILE=dev] benches/cluster.sh [SHARED] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
export SHARED="${1:-../shared}"
RUNS="${2:-3}"
WORK="${TMPDIR:-/tmp}/webtext-cluster-bench"
mkdir -p "$WORK"
# The profile to time (WEBTEXT_BENCH_PROFILE=dev reuses the test build: quicker to get, but
# DataFusion's own code is then unoptimised, so its figures are comparisons only).
PROFILE="${WEBTEXT_BENCH_PROFILE:-profiling}"
export WEBTEXT_PROFILE="$PROFILE" WEBTEXT_FEATURES="--features cluster"
cargo build --profile "$PROFILE" --features cluster --quiet --bin webtext --example build_crawl
W=target/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")/webtext
[ -f "$WORK/crawl.parquet" ] || bash tools/build_eval_crawl.sh "$WORK/crawl.parquet"
if [ ! -d "$WORK/crawl" ]; then
  mkdir -p "$WORK/crawl"
  for part in 0 1 2 3 4 5 6 7; do
    $W sql -t "c=$WORK/crawl.parquet" --output "$WORK/crawl/part-$part.parquet" \
      "SELECT * FROM (SELECT *, row_number() OVER () AS n FROM c) WHERE n % 8 = $part" 2>/dev/null
  done
fi
# The same crawl four times over (32 files), for the default shard size at a larger input.
if [ ! -d "$WORK/crawl4" ]; then
  mkdir -p "$WORK/crawl4"
  for copy in 0 1 2 3; do
    for part in 0 1 2 3 4 5 6 7; do cp "$WORK/crawl/part-$part.parquet" "$WORK/crawl4/copy-$copy-part-$part.parquet"; done
  done
fi
PAGES=$($W sql -t "c=$WORK/crawl" --format csv "SELECT count(*) AS n FROM c" | tail -1)
if [ ! -d "$WORK/warc" ]; then
  mkdir -p "$WORK/warc"
  ARCHIVE="$(bash eval/quality/eval_warc.sh "$SHARED")"
  for part in 0 1 2 3 4 5 6 7; do cp "$ARCHIVE" "$WORK/warc/part-$part.warc.gz"; done
fi
WARC_PAGES=$($W sql -t "warc=$WORK/warc" --format csv "SELECT count(*) AS n FROM ($(cat sql/warc_to_parquet.sql))" | tail -1)

PIDS=()
stop_cluster() { for p in "${PIDS[@]}"; do kill -- "-$p" 2>/dev/null || true; done; PIDS=(); sleep 1; }
trap stop_cluster EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start_cluster EXECUTORS TASKS_EACH: a scheduler and executors, each in a process group of its own
# under a time limit; sets URL.
start_cluster() {
  local port; port=$(free_port)
  setsid timeout 3600 $W cluster scheduler --bind "127.0.0.1:$port" > "$WORK/scheduler.log" 2>&1 &
  PIDS+=($!)
  sleep 1
  for i in $(seq "$1"); do
    local flight grpc; flight=$(free_port); grpc=$(free_port)
    setsid timeout 3600 $W cluster executor --scheduler "127.0.0.1:$port" --bind "127.0.0.1:$flight" \
      --grpc-port "$grpc" --concurrent-tasks "$2" --work-dir "$WORK/executor-$i" > "$WORK/executor-$i.log" 2>&1 &
    PIDS+=($!)
  done
  sleep 3
  URL="df://127.0.0.1:$port"
}

best() {  # best wall seconds over RUNS runs of the command
  local best_wall=""
  for _ in $(seq "$RUNS"); do
    rm -rf "$WORK/out.parquet" "$WORK/out"
    /usr/bin/time -f "%e" -o "$WORK/time.txt" "$@" > /dev/null 2>&1
    local wall; wall=$(cat "$WORK/time.txt")
    if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then best_wall=$wall; fi
  done
  echo "$best_wall"
}

# Bytes the client process reads from its TCP sockets while it runs the command (strace's view of
# every read on a socket: the results and Ballista's job status calls).
received_mb() {
  strace -f -qq -yy -e trace=read,readv,recvfrom,recvmsg -e signal=none -o "$WORK/strace.txt" "$@" \
    > /dev/null 2>&1
  awk '/<TCP/ && / = [0-9]+$/ {s += $NF} END {printf "%.3f", s/1e6}' "$WORK/strace.txt"
}

declare -A seconds received
# sql/fineweb.sql into shards, its decisions a file per shard beside them (datatrove's word lists
# alone as the URL filter: the block list is not bundled).
FINEWEB=(sql -t "crawl=$WORK/crawl" --file sql/fineweb.sql --param url_filter=block_list=none --param 'extraction=justext(page)'
  --param "decisions=$WORK/decisions/\${shard}.parquet" --output "$WORK/out/" --shard-bytes 0)
run_all() {  # label, then extra arguments for clean and sql
  local label="$1"; shift
  seconds["clean $label"]=$(best $W clean "$WORK/crawl" "$WORK/out.parquet" "$@")
  seconds["clean.sql $label"]=$(best $W sql -t "crawl=$WORK/crawl" --file sql/clean.sql --output "$WORK/out.parquet" "$@")
  seconds["clean shards $label"]=$(best $W clean "$WORK/crawl" "$WORK/out/" --shard-bytes 0 "$@")
  seconds["clean shards, default size $label"]=$(best $W clean "$WORK/crawl" "$WORK/out/" "$@")
  seconds["clean shards x4 $label"]=$(best $W clean "$WORK/crawl4" "$WORK/out/" --shard-bytes 0 "$@")
  seconds["clean shards x4, default size $label"]=$(best $W clean "$WORK/crawl4" "$WORK/out/" "$@")
  seconds["clean WARC shards $label"]=$(best $W clean "$WORK/warc" "$WORK/out/" --shard-bytes 0 "$@")
  seconds["clean WARC $label"]=$(best $W clean "$WORK/warc" "$WORK/out.parquet" "$@")
  seconds["fineweb shards $label"]=$(best $W "${FINEWEB[@]}" "$@")
  if [ "$label" != "single process" ]; then
    rm -rf "$WORK/out.parquet" "$WORK/out"
    received["clean $label"]=$(received_mb $W clean "$WORK/crawl" "$WORK/out.parquet" "$@")
    rm -rf "$WORK/out"
    received["clean shards $label"]=$(received_mb $W clean "$WORK/crawl" "$WORK/out/" --shard-bytes 0 "$@")
    rm -rf "$WORK/out"
    received["clean WARC shards $label"]=$(received_mb $W clean "$WORK/warc" "$WORK/out/" --shard-bytes 0 "$@")
    rm -rf "$WORK/out"
    received["fineweb shards $label"]=$(received_mb $W "${FINEWEB[@]}" "$@")
  fi
}
run_all "single process" --partitions 2
start_cluster 1 2
run_all "cluster, 1 executor x 2 tasks" --cluster "$URL" --partitions 8
stop_cluster
start_cluster 2 1
run_all "cluster, 2 executors x 1 task" --cluster "$URL" --partitions 8
stop_cluster

echo "$PAGES pages in 8 Parquet files, $WARC_PAGES pages in 8 WARC files, $(nproc) cores, best of $RUNS"
printf "%-56s %8s %8s %10s %12s\n" "run" "wall s" "pages/s" "overhead" "client MB in"
for job in clean clean.sql "clean shards" "clean shards, default size" "clean shards x4" \
  "clean shards x4, default size" "clean WARC shards" "clean WARC" "fineweb shards"; do
  base=${seconds["$job single process"]}
  pages=$PAGES
  [[ "$job" == "clean WARC"* ]] && pages=$WARC_PAGES
  [[ "$job" == *x4* ]] && pages=$((4 * PAGES))
  for label in "single process" "cluster, 1 executor x 2 tasks" "cluster, 2 executors x 1 task"; do
    s=${seconds["$job $label"]}
    printf "%-56s %8.2f %8.0f %9.0f%% %12s\n" "$job, $label" "$s" "$(awk "BEGIN{print $pages/$s}")" \
      "$(awk "BEGIN{print 100*($s/$base-1)}")" "${received["$job $label"]:--}"
  done
done

