#!/usr/bin/env bash
# Builds a crawl table of every page of the six evaluation sets of ../shared/eval (~3,000 pages,
# ~240 MB of html) for the scaling runs of `webtext clean`. Usage: tools/build_eval_crawl.sh OUT.parquet
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:?usage: tools/build_eval_crawl.sh OUT.parquet}"
SHARED="${SHARED:-../shared}"
EVAL="$(bash "$SHARED/eval/unpack.sh" "${TMPDIR:-/tmp}/webtext-eval" | tail -1)"
# The benches build in the profiling profile (WEBTEXT_PROFILE=profiling, with their WEBTEXT_FEATURES)
# and reuse it here.
cargo run --profile "${WEBTEXT_PROFILE:-release}" ${WEBTEXT_FEATURES:-} --example build_crawl -- "$OUT" \
  "$EVAL/cleaneval" "$EVAL/cleanportaleval" "$EVAL/dragnet" "$EVAL/readability" "$EVAL/scrapinghub" "$EVAL/wcxb-test"
