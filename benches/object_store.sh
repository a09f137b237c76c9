#!/usr/bin/env bash
# Reading from an object store against reading the same file locally: the Common-Crawl-like
# archive of the ~3,000 evaluation pages (eval/quality/eval_warc.sh), COPIES times over in one
# file, served by a local S3 server on 127.0.0.1 (crates.io's s3s-fs, which keeps objects as
# files and answers a range request by reading that range; installed once), then
#  - every response's payload read by `webtext sql` from s3:// and from the local file;
#  - `webtext clean` from s3:// and from the local file, with its peak RSS (GNU time);
#  - `webtext clean` of the same COPIES as COPIES files into one Parquet file and into a folder of
#    shards (one per file, each committed whole, a manifest last).
# `benches/object_store.sh ../shared 38` makes a 2 GB object for the memory figure. (The tests use
# PyPI's moto instead, which copies the whole object for each range request: fine for the tests'
# small files, hours for 2 GB.)
# Prints seconds, ratios and peak memory of one run. The test build (dev profile: our crate and the
# parsers at opt-level 3) is used, so nothing is compiled again.
# Usage: benches/object_store.sh [SHARED] [COPIES]
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${1:-../shared}"
COPIES="${2:-4}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/webtext-store-bench.XXXXXX")"
S3FS="${TMPDIR:-/tmp}/webtext-s3s-fs"
# 0.14.1: the last release this toolchain (rustc 1.95) builds.
[ -x "$S3FS/bin/s3s-fs" ] || cargo install --quiet --locked s3s-fs@0.14.1 --features binary --root "$S3FS"
cargo build --quiet --features cluster --bin webtext
WEBTEXT="$PWD/target/debug/webtext"
WARC="$(bash eval/quality/eval_warc.sh "$SHARED")"
for _ in $(seq "$COPIES"); do cat "$WARC"; done > "$WORK/crawl.warc.gz"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SECRET="$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
mkdir "$WORK/store"
timeout 7200 "$S3FS/bin/s3s-fs" --host 127.0.0.1 --port "$PORT" --access-key bench \
  --secret-key "$SECRET" "$WORK/store" > "$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2> /dev/null; rm -rf "$WORK"' EXIT
until curl -s -o /dev/null "http://127.0.0.1:$PORT/"; do sleep 0.2; done
# Uploaded (not linked into the server's folder): s3s-fs keeps the ETag of an upload, and computes
# it over the whole file for every request of an object it did not receive.
SIGNED=(--aws-sigv4 "aws:amz:us-east-1:s3" --user "bench:$SECRET" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD")
curl -sf -o /dev/null -X PUT "${SIGNED[@]}" "http://127.0.0.1:$PORT/bench"
# -T streams the file (--data-binary would hold it in memory, which fails for gigabytes).
curl -sf -o /dev/null -H "Content-Type: application/octet-stream" "${SIGNED[@]}" \
  -T "$WORK/crawl.warc.gz" "http://127.0.0.1:$PORT/bench/crawl.warc.gz"
export AWS_ENDPOINT="http://127.0.0.1:$PORT" AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY="$SECRET" AWS_REGION=us-east-1

seconds() {  # wall seconds of the command; its peak RSS (KiB) in $WORK/rss
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$WORK/rss" "$@" > /dev/null || { echo "failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN{printf "%.2f", b-a}'
}
QUERY="SELECT count(payload_raw) FROM t WHERE warc_type = 'response'"
echo "input: $(du -m "$WORK/crawl.warc.gz" | cut -f1) MB of WARC (gzip), $COPIES copies of the evaluation archive"
local_read=$(seconds "$WEBTEXT" sql --table "t=$WORK/crawl.warc.gz" "$QUERY")
store_read=$(seconds "$WEBTEXT" sql --table "t=s3://bench/crawl.warc.gz" "$QUERY")
echo "read every payload: local ${local_read} s, s3:// ${store_read} s, ratio (local/s3) $(awk -v a="$local_read" -v b="$store_read" 'BEGIN{printf "%.2f", a/b}')"
local_clean=$(seconds "$WEBTEXT" clean "$WORK/crawl.warc.gz" "$WORK/local.parquet")
local_rss=$(cat "$WORK/rss")
store_clean=$(seconds "$WEBTEXT" clean "s3://bench/crawl.warc.gz" "$WORK/store.parquet")
store_rss=$(cat "$WORK/rss")
echo "clean: local ${local_clean} s (peak RSS $((local_rss / 1024)) MiB), s3:// ${store_clean} s (peak RSS $((store_rss / 1024)) MiB), ratio $(awk -v a="$local_clean" -v b="$store_clean" 'BEGIN{printf "%.2f", a/b}')"
"$WEBTEXT" sql --table a="$WORK/local.parquet" --table b="$WORK/store.parquet" --format csv \
  "SELECT (SELECT count(*) FROM a) AS local_rows, (SELECT count(*) FROM b) AS store_rows, \
   (SELECT count(*) FROM (SELECT url, text FROM a EXCEPT ALL SELECT url, text FROM b)) AS differing"
mkdir "$WORK/parts"
# The same pages as crawl.warc.gz: the evaluation archive once per file.
for i in $(seq -w "$COPIES"); do
  ln "$WARC" "$WORK/parts/part-$i.warc.gz" 2> /dev/null || cp "$WARC" "$WORK/parts/part-$i.warc.gz"
done
single=$(seconds "$WEBTEXT" clean "$WORK/parts/" "$WORK/single.parquet")
single_rss=$(cat "$WORK/rss")
sharded=$(seconds "$WEBTEXT" clean "$WORK/parts/" "$WORK/sharded/" --shard-bytes 0)
sharded_rss=$(cat "$WORK/rss")
echo "clean $COPIES files: one file ${single} s (peak RSS $((single_rss / 1024)) MiB), a shard per file ${sharded} s (peak RSS $((sharded_rss / 1024)) MiB), ratio (one file/shards) $(awk -v a="$single" -v b="$sharded" 'BEGIN{printf "%.2f", a/b}')"
"$WEBTEXT" sql --table a="$WORK/single.parquet" --table b="$WORK/sharded/" --format csv \
  "SELECT (SELECT count(*) FROM a) AS single_rows, (SELECT count(*) FROM b) AS sharded_rows, \
   (SELECT count(*) FROM (SELECT url, text FROM a EXCEPT ALL SELECT url, text FROM b)) AS differing"
