#!/usr/bin/env bash
# Scale by simulation: `webtext clean --cluster` of a synthetic Common-Crawl-like crawl
# (benches/generate_warc_crawl.py: FILES gzip'd WARC files of RECORDS records, small pages) into
# a folder of shards, one shard per WARC file, on a cluster of EXECUTORS executor processes (one
# task each) on this machine, at two corpus sizes (a quarter of the files, then all of them), each
# on a fresh cluster so that every process's peak memory is that job's. Prints, per size: the wall
# time, tasks (shards) and records per second, the peak RSS of the client, the scheduler and each
# executor, and the scheduler's CPU time per task; what the README's Common Crawl projection uses.
# SHARDS_PER_JOB (default: the command's) caps the tasks of each job the client submits;
# RETENTION (default: the scheduler's) is the seconds the scheduler keeps a finished job's state.
# Usage: [WEBTEXT_BENCH_PROFILE=dev] [SHARDS_PER_JOB=N] [RETENTION=S] benches/cluster_scale.sh [FILES] [RECORDS] [EXECUTORS]
set -euo pipefail
cd "$(dirname "$0")/.."
FILES="${1:-1000}"
RECORDS="${2:-1000}"
EXECUTORS="${3:-4}"
WORK="${TMPDIR:-/tmp}/webtext-cluster-scale"
mkdir -p "$WORK"
PROFILE="${WEBTEXT_BENCH_PROFILE:-profiling}"
export WEBTEXT_PROFILE="$PROFILE" WEBTEXT_FEATURES="--features cluster"
cargo build --profile "$PROFILE" --features cluster --quiet --bin webtext
W=$PWD/target/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")/webtext

CRAWL="$WORK/crawl-$FILES-$RECORDS"
python3 benches/generate_warc_crawl.py "$CRAWL" "$FILES" "$RECORDS"
QUARTER="$WORK/crawl-$FILES-$RECORDS-quarter"
if [ ! -d "$QUARTER" ]; then
  rm -rf "$QUARTER.tmp"; mkdir "$QUARTER.tmp"
  ls "$CRAWL" | head -n $((FILES / 4)) | while read -r f; do ln "$CRAWL/$f" "$QUARTER.tmp/$f"; done
  mv "$QUARTER.tmp" "$QUARTER"
fi

PIDS=()
stop_cluster() { for p in "${PIDS[@]}"; do kill -- "-$p" 2>/dev/null || true; done; PIDS=(); sleep 1; }
trap stop_cluster EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# The webtext process under the `timeout` whose process group is $1.
webtext_pid() { pgrep -g "$1" -x webtext | head -1; }
peak_rss_mb() { awk '/^VmHWM/{printf "%.0f", $2/1024}' "/proc/$1/status"; }
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14+$15)/hz}' "/proc/$1/stat"; }
start_cluster() {
  local port; port=$(free_port)
  setsid timeout 7200 "$W" cluster scheduler --bind "127.0.0.1:$port" \
    ${RETENTION:+--finished-job-retention "$RETENTION"} > "$WORK/scheduler.log" 2>&1 &
  PIDS+=($!)
  sleep 1
  for i in $(seq "$EXECUTORS"); do
    local flight grpc; flight=$(free_port); grpc=$(free_port)
    rm -rf "$WORK/executor-$i"
    setsid timeout 7200 "$W" cluster executor --scheduler "127.0.0.1:$port" --bind "127.0.0.1:$flight" \
      --grpc-port "$grpc" --concurrent-tasks 1 --work-dir "$WORK/executor-$i" > "$WORK/executor-$i.log" 2>&1 &
    PIDS+=($!)
  done
  sleep 3
  URL="df://127.0.0.1:$port"
}

echo "$(nproc) cores; $EXECUTORS executors x 1 task; one shard per WARC file; ${SHARDS_PER_JOB:-default} shards per job; finished jobs kept ${RETENTION:-the default} s; profile $PROFILE"
printf "%-7s %9s %7s %8s %9s %10s %10s %12s %18s %13s\n" files records tasks "wall s" "tasks/s" \
  "records/s" "client MB" "scheduler MB" "executors MB" "sched ms/task"
for input in "$QUARTER" "$CRAWL"; do
  files=$(ls "$input" | wc -l)
  records=$((files * RECORDS))
  start_cluster
  scheduler=$(webtext_pid "${PIDS[0]}")
  cpu_before=$(cpu_seconds "$scheduler")
  rm -rf "$WORK/out"
  /usr/bin/time -f "%e %M" -o "$WORK/time.txt" \
    "$W" clean "$input" "$WORK/out/" --shard-bytes 0 --cluster "$URL" \
    ${SHARDS_PER_JOB:+--shards-per-job "$SHARDS_PER_JOB"} 2> "$WORK/client.log"
  read -r wall client_kb < "$WORK/time.txt"
  tasks=$(ls "$WORK/out" | grep -c '\.parquet$')
  cpu_after=$(cpu_seconds "$scheduler")
  executors=""
  for p in "${PIDS[@]:1}"; do executors+="$(peak_rss_mb "$(webtext_pid "$p")") "; done
  printf "%-7s %9s %7s %8.1f %9.1f %10.0f %10.0f %12s %18s %13.2f\n" "$files" "$records" "$tasks" "$wall" \
    "$(awk "BEGIN{print $tasks/$wall}")" "$(awk "BEGIN{print $records/$wall}")" \
    "$(awk "BEGIN{print $client_kb/1024}")" "$(peak_rss_mb "$scheduler")" "${executors% }" \
    "$(awk "BEGIN{print 1000*($cpu_after-$cpu_before)/$tasks}")"
  stop_cluster
done
tail -1 "$WORK/client.log"
