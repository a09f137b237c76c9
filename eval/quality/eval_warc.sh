#!/usr/bin/env bash
# Prints the path of the Common-Crawl-like archive of the eval pages, writing it first when it is
# missing: ../shared/eval/warc/make_eval_warc.py into ${TMPDIR:-/tmp}/webtext-eval-warc, with
# warcio 1.8.1 in the venv ${TMPDIR:-/tmp}/warc-venv. Usage: eval/quality/eval_warc.sh [SHARED]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-${SHARED:-../shared}}"
WARCDIR="${TMPDIR:-/tmp}/webtext-eval-warc"
VENV="${TMPDIR:-/tmp}/warc-venv"
if [ ! -f "$WARCDIR/eval_pages.warc.gz" ]; then
  [ -x "$VENV/bin/python" ] || { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q warcio==1.8.1; } >&2
  (cd "$SHARED/eval/warc" && "$VENV/bin/python" make_eval_warc.py --out-dir "$WARCDIR") >&2
fi
echo "$WARCDIR/eval_pages.warc.gz"
