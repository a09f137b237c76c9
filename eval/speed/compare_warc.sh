#!/usr/bin/env bash
# This project's WARC reader against FastWARC 2.0.0, on one core (taskset -c 0), in one run:
#  - the fastwarc crate, in the same process as ours (eval/warc_speed: every record, its HTTP
#    head, every payload byte as stored; best of RUNS), on the Common-Crawl-like archive of the
#    eval pages (gzip per record), the same archive compressed whole with zstd, and the largest
#    third-party files of ../shared/eval/warc;
#  - FastWARC's Python package (pip fastwarc==2.0.0) reading every payload of the same files.
# Prints a table per part and the ratios (above 1: ours is faster).
# Usage: eval/speed/compare_warc.sh [SHARED] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
RUNS="${2:-5}"
WORK="${TMPDIR:-/tmp}/webtext-warc-speed"
mkdir -p "$WORK"
cargo build --release --quiet -p webtext-warc-speed
GZIP_WARC="$(bash eval/quality/eval_warc.sh "$SHARED")"
ZSTD_WARC="$WORK/eval_pages.warc.zst"
if [ ! -f "$ZSTD_WARC" ]; then
  gzip -dc "$GZIP_WARC" | zstd -q -19 -o "$ZSTD_WARC.partial" && mv "$ZSTD_WARC.partial" "$ZSTD_WARC"
fi
THIRD_PARTY=(
  "$SHARED/eval/warc/files/jwat/IAH-20080430204825-00000-blackbook.warc.gz"
  "$SHARED/eval/warc/files/pywb/iana.warc.gz"
  "$SHARED/eval/warc/files/node-warc/books.toscrape.warc"
)
for f in "${THIRD_PARTY[@]}"; do [ -f "$f" ] || { echo "missing $f" >&2; exit 1; }; done
FILES=("$GZIP_WARC" "$ZSTD_WARC" "${THIRD_PARTY[@]}")

echo "== in one process: this project's reader and the fastwarc crate 2.0.0 (best of $RUNS, one core)"
taskset -c 0 target/release/webtext-warc-speed --runs "$RUNS" "${FILES[@]}"

# FastWARC's Python package, in the venv eval/quality/eval_warc.sh made.
VENV="${TMPDIR:-/tmp}/warc-venv"
"$VENV/bin/python" -c "import fastwarc" 2>/dev/null || "$VENV/bin/pip" install -q fastwarc==2.0.0
cat > "$WORK/fastwarc_read.py" <<'PY'
import sys, time
from fastwarc.warc import ArchiveIterator
runs, path = int(sys.argv[1]), sys.argv[2]
data = open(path, "rb").read()
best = None
for _ in range(runs):
    import io
    start = time.perf_counter()
    records = payload = 0
    for record in ArchiveIterator(io.BytesIO(data), parse_http=True):
        records += 1
        payload += len(record.reader.read())
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(f"{records} {payload} {best:.3f}")
PY
echo
echo "== FastWARC 2.0.0's Python package against the crate's times above (best of $RUNS, one core)"
printf "%-48s %9s %12s %9s\n" file records "payload MB" seconds
for f in "${FILES[@]}"; do
  read -r records payload seconds < <(taskset -c 0 "$VENV/bin/python" "$WORK/fastwarc_read.py" "$RUNS" "$f")
  printf "%-48s %9s %12.1f %9s\n" "$(basename "$f")" "$records" "$(awk "BEGIN{print $payload/1e6}")" "$seconds"
done
