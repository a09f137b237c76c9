#!/usr/bin/env bash
# url_filter, c4_badwords, pii_redact and token_count against datatrove 0.10.1's URLFilter,
# C4BadWordsFilter, PIIFormatter and TokensCounter in Python, on the same inputs, one core
# (taskset -c 0), ratios from one run (goal: >= 20x for the filters and PII).
#
#     bash eval/speed/compare_blocks.sh [SHARED_DIR]
#
# Makes a venv with datatrove on first use (its wheel carries the URL block list, which webtext
# reads from there too) and builds `webtext` in the profiling profile, as the other benches
# (WEBTEXT=path/to/webtext times that binary instead, e.g. the test build's target/debug/webtext).
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
VENV="${TMPDIR:-/tmp}/webtext-datatrove-blocks-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import datatrove, tldextract, ahocorasick, aiohttp, regex, tokenizers" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q datatrove==0.10.1 pyarrow==26.0.1 aiohttp tldextract==5.4.0 pyahocorasick fasteners numpy regex tokenizers==0.23.1
fi
if [ -z "${WEBTEXT:-}" ]; then
  cargo build --quiet --profile profiling --bin webtext
  WEBTEXT=target/profiling/webtext
fi
taskset -c 0 "$VENV/bin/python" eval/speed/datatrove_blocks_speed.py "$SHARED" "$WEBTEXT"
