#!/usr/bin/env bash
# FineWeb's extended filter chain (URL filter, extraction, language, Gopher, C4, FineWeb quality,
# bad words, PII) from a WARC file: datatrove 0.10.1's pipeline in Python (trafilatura) against
# webtext's sql/warc_to_parquet.sql + sql/fineweb.sql (jusText), one core (taskset -c 0), the
# ratio from one run.
#
#     bash eval/speed/compare_fineweb_chain.sh [WARC]
#
# WARC defaults to the evaluation pages' archive that ../shared/eval/warc/make_eval_warc.py writes
# (3,013 pages, 54 MB). Makes a venv with datatrove and the packages its blocks import on first
# use, and builds `webtext` in the profiling profile, as the other benches (WEBTEXT=path/to/webtext
# times that binary instead).
set -euo pipefail
cd "$(dirname "$0")/../.."
WARC="${1:-${TMPDIR:-/tmp}/webtext-eval-warc/eval_pages.warc.gz}"
VENV="${TMPDIR:-/tmp}/webtext-fineweb-chain-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import datatrove, spacy, trafilatura, warcio, fasttext, magic, cchardet, tldextract, ahocorasick, fasteners, aiohttp" 2>/dev/null; then
  python3 -m venv "$VENV"
  # fastText's numpy-2 build: datatrove 0.10.1 requires numpy 2, which fasttext-wheel's predict
  # does not support.
  "$VENV/bin/pip" install -q datatrove==0.10.1 spacy==3.8.18 trafilatura==2.0.0 lxml_html_clean \
    warcio==1.8.1 fasttext-numpy2-wheel==0.9.2 tldextract==5.4.0 pyahocorasick regex "xxhash<4" \
    orjson pyarrow==20.0.0 faust-cchardet python-magic fasteners aiohttp
fi
if [ -z "${WEBTEXT:-}" ]; then
  cargo build --quiet --profile profiling --bin webtext
  WEBTEXT=target/profiling/webtext
fi
taskset -c 0 "$VENV/bin/python" eval/speed/datatrove_fineweb_chain_speed.py "$WARC" "$WEBTEXT" .
