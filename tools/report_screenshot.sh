#!/usr/bin/env bash
# The documentation's picture (docs/src/report-sample.png): `webtext report` of the bundled sample crawl, drawn by
# headless Chromium (Debian's `chromium`). Usage: tools/report_screenshot.sh [PROFILE] (release)
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE="${1:-release}"
WORK="${TMPDIR:-/tmp}/webtext-report-screenshot"
rm -rf "$WORK" && mkdir -p "$WORK"
cargo build --quiet --profile "$PROFILE" --bin webtext
dir="$PROFILE"; [ "$PROFILE" = dev ] && dir=debug
"target/$dir/webtext" report examples/data/sample_crawl.parquet "$WORK/report.html"
timeout -s KILL 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --disable-extensions --disable-background-networking --disable-component-update \
  --user-data-dir="$WORK/profile" --window-size=1280,2400 --screenshot="$WORK/report.png" \
  "file://$WORK/report.html" 2> "$WORK/chromium.log"
cp "$WORK/report.png" docs/src/report-sample.png
echo "wrote docs/src/report-sample.png ($(stat -c %s docs/src/report-sample.png) bytes)"
