#!/usr/bin/env bash
# datatrove 0.10.1's statistics, decontamination, sentence, exact and exact-substring de-duplication against this
# project's on the 20,000 documents of the de-duplication corpus, each on one core (taskset -c 0),
# ratios from one run, peak memory (max RSS) of each:
# - statistics: DocStats, LineStats, ParagraphStats, WordStats, SentenceStats and StatsMerger
#   (eval/parity/stats_datatrove.py) against `webtext stats`;
# - decontamination: NGramsDecontIndexer's hashes and NGramsDecontFilter over every document
#   (eval/parity/decont_datatrove.py) against `webtext decont-index` and ngram_decontamination;
# - sentence de-duplication: its three stages (eval/parity/sentence_dedup_datatrove.py, default
#   configuration) against `webtext sentence-dedup`;
# - exact de-duplication: its three stages (eval/parity/exact_dedup_datatrove.py's default
#   configuration, its kept documents written by its JsonlWriter) against `webtext exact-dedup
#   --kept-only`;
# - exact-substring de-duplication, when DEDUP_DATASET names the reference suffix-array tool's
#   binary (built from github.com/google-research/deduplicate-text-datasets): datatrove's three
#   stages around the tool's make, self-similar and collect (eval/parity/exact_substrings_datatrove.py)
#   against `webtext substring-dedup --kept-only`, both with the oracle's tokenizer.
# The datatrove runs are the oracle scripts, which also write their small outputs.
#
#     bash eval/speed/compare_datatrove_toolkit.sh [SHARED_DIR] [WEBTEXT]
#
# WEBTEXT defaults to a build of the profiling profile, as the other benches (a second
# DataFusion compile: give target/debug/webtext to time the test build instead).
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
DOCS="$SHARED/eval/dedup/documents.parquet"
DT_VENV="${TMPDIR:-/tmp}/webtext-datatrove-stats-venv"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/webtext-toolkit-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
if [ ! -x "$DT_VENV/bin/python" ] || ! "$DT_VENV/bin/python" -c "import datatrove, spacy, tldextract" 2>/dev/null; then
  python3 -m venv "$DT_VENV"
  "$DT_VENV/bin/pip" install -q --only-binary :all: datatrove==0.10.1 pyarrow==26.0.1 spacy==3.8.18 \
    tldextract==5.4.0 regex "xxhash<4" orjson tokenizers==0.23.1
fi
if [ -n "${2:-}" ]; then
  WEBTEXT="$2"
else
  cargo build --quiet --profile profiling --bin webtext
  WEBTEXT=target/profiling/webtext
fi

# "seconds max_rss_kib" of a command, from /usr/bin/time.
timed() {
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" > "$WORK/stdout" 2> "$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
  cat "$WORK/time"
}

echo "== statistics"
read -r DT_STATS DT_STATS_RSS < <(timed taskset -c 0 "$DT_VENV/bin/python" eval/parity/stats_datatrove.py . "$DOCS" "$WORK/stats.parquet" --work "$WORK/dt-stats")
read -r WT_STATS WT_STATS_RSS < <(timed taskset -c 0 "$WEBTEXT" stats "$DOCS" "$WORK/stats" --partitions 1)
cat "$WORK/stderr"

echo "== decontamination"
read -r DT_DECONT DT_DECONT_RSS < <(timed taskset -c 0 "$DT_VENV/bin/python" eval/parity/decont_datatrove.py "$DOCS" "$WORK/eval.parquet" "$WORK/index.parquet" "$WORK/decisions.parquet")
read -r WT_INDEX WT_INDEX_RSS < <(timed taskset -c 0 "$WEBTEXT" decont-index "$WORK/eval.parquet" "$WORK/index" --task-column task --partitions 1)
read -r WT_FILTER WT_FILTER_RSS < <(timed taskset -c 0 "$WEBTEXT" sql --partitions 1 --table "documents=$DOCS" --output "$WORK/ours.parquet" \
  "SELECT doc_id, ngram_decontamination(text, '$WORK/index') AS d FROM documents")
WT_DECONT="$(awk -v a="$WT_INDEX" -v b="$WT_FILTER" 'BEGIN { print a + b }')"
WT_DECONT_RSS="$(( WT_INDEX_RSS > WT_FILTER_RSS ? WT_INDEX_RSS : WT_FILTER_RSS ))"

echo "== sentence de-duplication"
read -r DT_SENT DT_SENT_RSS < <(timed taskset -c 0 "$DT_VENV/bin/python" eval/parity/sentence_dedup_datatrove.py "$DOCS" "$WORK/sent.parquet" "$WORK/sent-index" --work "$WORK/dt-sent" --configs default)
read -r WT_SENT WT_SENT_RSS < <(timed taskset -c 0 "$WEBTEXT" sentence-dedup "$DOCS" "$WORK/sent-ours.parquet" --partitions 1)
cat "$WORK/stderr"

echo "== exact de-duplication"
read -r DT_EXACT DT_EXACT_RSS < <(timed taskset -c 0 "$DT_VENV/bin/python" eval/parity/exact_dedup_datatrove.py "$DOCS" "$WORK/exact.parquet" "$WORK/exact-index" --work "$WORK/dt-exact" --configs default --write-kept "$WORK/dt-exact-kept")
read -r WT_EXACT WT_EXACT_RSS < <(timed taskset -c 0 "$WEBTEXT" exact-dedup "$DOCS" "$WORK/exact-ours.parquet" --kept-only --partitions 1)
cat "$WORK/stderr"

DT_SUBSTR=0; DT_SUBSTR_RSS=0; WT_SUBSTR=0; WT_SUBSTR_RSS=0
if [ -n "${DEDUP_DATASET:-}" ]; then
  echo "== exact-substring de-duplication"
  TOKENIZER=eval/parity/exact_substrings_tokenizer.json
  read -r DT_SUBSTR DT_SUBSTR_RSS < <(timed taskset -c 0 "$DT_VENV/bin/python" eval/parity/exact_substrings_datatrove.py "$DOCS" "$WORK/substr.parquet" "$TOKENIZER" "$DEDUP_DATASET" --work "$WORK/dt-substr")
  read -r WT_SUBSTR WT_SUBSTR_RSS < <(timed taskset -c 0 "$WEBTEXT" substring-dedup "$DOCS" "$WORK/substr-ours.parquet" --tokenizer "$TOKENIZER" --kept-only --partitions 1)
  cat "$WORK/stderr"
fi

awk -v ds="$DT_STATS" -v dsr="$DT_STATS_RSS" -v ws="$WT_STATS" -v wsr="$WT_STATS_RSS" \
    -v dd="$DT_DECONT" -v ddr="$DT_DECONT_RSS" -v wd="$WT_DECONT" -v wdr="$WT_DECONT_RSS" \
    -v dn="$DT_SENT" -v dnr="$DT_SENT_RSS" -v wn="$WT_SENT" -v wnr="$WT_SENT_RSS" \
    -v de="$DT_EXACT" -v der="$DT_EXACT_RSS" -v we="$WT_EXACT" -v wer="$WT_EXACT_RSS" \
    -v du="$DT_SUBSTR" -v dur="$DT_SUBSTR_RSS" -v wu="$WT_SUBSTR" -v wur="$WT_SUBSTR_RSS" 'BEGIN {
  printf "| family (20,000 documents, one core) | datatrove s | MiB | webtext s | MiB | ratio |\n|---|---:|---:|---:|---:|---:|\n";
  printf "| statistics (5 blocks + merger) | %.2f | %.0f | %.2f | %.0f | %.1fx |\n", ds, dsr / 1024, ws, wsr / 1024, ds / ws;
  printf "| decontamination (index + filter) | %.2f | %.0f | %.2f | %.0f | %.1fx |\n", dd, ddr / 1024, wd, wdr / 1024, dd / wd;
  printf "| sentence de-duplication (3 stages) | %.2f | %.0f | %.2f | %.0f | %.1fx |\n", dn, dnr / 1024, wn, wnr / 1024, dn / wn;
  printf "| exact de-duplication (3 stages) | %.2f | %.0f | %.2f | %.0f | %.1fx |\n", de, der / 1024, we, wer / 1024, de / we;
  if (wu > 0) printf "| exact-substring de-duplication (3 stages + the suffix-array tool) | %.2f | %.0f | %.2f | %.0f | %.1fx |\n", du, dur / 1024, wu, wur / 1024, du / wu;
}'
