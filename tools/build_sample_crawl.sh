#!/usr/bin/env bash
# Rebuilds examples/data/sample_crawl.parquet: the scrapinghub benchmark's pages (MIT licence) of at
# most 250,000 bytes, as a crawl table. Needs ../shared (or SHARED=...).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${SHARED:-../shared}"
EVAL="$(bash "$SHARED/eval/unpack.sh" "${TMPDIR:-/tmp}/webtext-eval" | tail -1)"
cargo run --release --example build_crawl -- examples/data/sample_crawl.parquet \
  --max-page-bytes 250000 "$EVAL/scrapinghub"
