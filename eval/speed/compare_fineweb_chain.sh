#!/usr/bin/env bash
# FineWeb's whole recipe from WARC files to kept documents: datatrove 0.10.1's examples/fineweb.py
# (eval/parity/fineweb_datatrove.py) against `webtext fineweb`, one core each, then webtext on two;
# the ratios from one run (eval/speed/fineweb_speed.py).
#
#     bash eval/speed/compare_fineweb_chain.sh [WARC...]
#
# WARC defaults to the evaluation pages' archive that ../shared/eval/warc/make_eval_warc.py writes
# (3,173 records, 54 MB). Makes a venv with datatrove and the packages its blocks import on first
# use, and builds `webtext` in the profiling profile, as the other benches (WEBTEXT=path/to/webtext
# times that binary instead).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$#" -eq 0 ]; then
  set -- "${TMPDIR:-/tmp}/webtext-eval-warc/eval_pages.warc.gz"
fi
VENV="${TMPDIR:-/tmp}/webtext-fineweb-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import datatrove, spacy, trafilatura, warcio, fasttext, magic, cchardet, tldextract, ahocorasick, fasteners, tokenizers" 2>/dev/null; then
  python3 -m venv "$VENV"
  # datatrove's `processing` extra pins trafilatura below 1.12: its packages are named one by
  # one, with the trafilatura webtext reproduces. fastText's numpy-2 build: datatrove 0.10.1
  # requires numpy 2, which fasttext-wheel's predict does not support.
  "$VENV/bin/pip" install -q datatrove==0.10.1 spacy==3.8.18 trafilatura==2.3.1 lxml==6.1.3 \
    lxml_html_clean==0.4.6 warcio==1.8.1 fasttext-numpy2-wheel==0.9.2 tldextract==5.4.0 \
    pyahocorasick regex "xxhash<4" orjson pyarrow==20.0.0 faust-cchardet==3.2.0 python-magic \
    fasteners aiohttp tokenizers
fi
if [ -z "${WEBTEXT:-}" ]; then
  cargo build --quiet --profile profiling --bin webtext
  WEBTEXT=target/profiling/webtext
fi
"$VENV/bin/python" eval/speed/fineweb_speed.py "$WEBTEXT" . "$@"
