#!/usr/bin/env bash
# WARC reading and cleaning speed on the Common-Crawl-like archive of the ~3,000 eval pages
# (../shared/eval/warc/make_eval_warc.py), one core (taskset -c 0), best of RUNS runs each:
#  - every payload read: FastWARC 2.0.0's Python iterator (bench_read.py) against
#    `webtext sql` selecting every response's payload;
#  - `webtext clean` from the WARC against `webtext clean` from the Parquet crawl of the same pages.
# Prints the seconds and the ratios of one run. Usage: eval/speed/warc_read.sh [SHARED] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
export SHARED="${1:-../shared}"
RUNS="${2:-3}"
WORK="${TMPDIR:-/tmp}/webtext-warc-bench"
mkdir -p "$WORK"
# The profiling profile (Cargo.toml): release code with line tables, for perf. With an example, as
# .ci/run builds, so the binary and the examples share one build of DataFusion.
export WEBTEXT_PROFILE=profiling
cargo build --profile profiling --quiet --bin webtext --example build_crawl
WARC="$(bash eval/quality/eval_warc.sh "$SHARED")"
# The venv eval/quality/eval_warc.sh made has warcio; FastWARC is added for the comparison.
VENV="${TMPDIR:-/tmp}/warc-venv"
"$VENV/bin/python" -c "import fastwarc" 2>/dev/null || "$VENV/bin/pip" install -q fastwarc==2.0.0
[ -f "$WORK/crawl.parquet" ] || bash tools/build_eval_crawl.sh "$WORK/crawl.parquet"

best() {  # best wall seconds of RUNS runs of the command
  local best=""
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s.%N); "$@" > /dev/null 2>&1; end=$(date +%s.%N)
    best=$(awk -v a="$start" -v b="$end" -v c="$best" 'BEGIN{t=b-a; if (c=="" || t<c) print t; else print c}')
  done
  echo "$best"
}

# FastWARC alone: every record, its payload read to the end in 1 MiB reads (as bench_read.py).
cat > "$WORK/fastwarc_read.py" <<'PY'
import sys
from fastwarc.warc import ArchiveIterator
with open(sys.argv[1], "rb") as f:
    for record in ArchiveIterator(f):
        while record.reader.read(1 << 20):
            pass
PY
fastwarc=$(best taskset -c 0 "$VENV/bin/python" "$WORK/fastwarc_read.py" "$WARC")
ours=$(best taskset -c 0 target/profiling/webtext sql --partitions 1 --format csv \
  "SELECT count(*) FROM read_warc('$WARC') WHERE payload IS NOT NULL")
from_warc=$(best taskset -c 0 target/profiling/webtext clean "$WARC" "$WORK/out_warc.parquet" --partitions 1)
from_parquet=$(best taskset -c 0 target/profiling/webtext clean "$WORK/crawl.parquet" "$WORK/out_parquet.parquet" --partitions 1)
printf "%-44s %8s\n" run seconds
printf "%-44s %8.2f\n" "FastWARC 2.0.0, every payload (Python)" "$fastwarc"
printf "%-44s %8.2f\n" "webtext, every payload (read_warc)" "$ours"
printf "%-44s %8.2f\n" "webtext clean from WARC" "$from_warc"
printf "%-44s %8.2f\n" "webtext clean from Parquet" "$from_parquet"
echo "reading: webtext is $(awk "BEGIN{printf \"%.2f\", $fastwarc/$ours}")x FastWARC's speed"
echo "cleaning: from WARC at $(awk "BEGIN{printf \"%.0f\", 100*$from_parquet/$from_warc}")% of the pages/s from Parquet"
