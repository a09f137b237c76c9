#!/usr/bin/env bash
# `webtext near-dedup` at scale, in one run:
# - on the 20,000 documents of the de-duplication corpus, against datatrove 0.10.1's four stages
#   (eval/speed/compare_minhash.sh: one core each, the ratio; the goal is at least 50x);
# - on generated corpora of SIZES documents (default 1,000,000 and 10,000,000) under
#   `--memory-limit LIMIT` (default 2G): wall time, peak RSS, documents in clusters and removed,
#   and the time per million documents (linear: the same at each size).
#
# The generated documents are 20 words, each a quadratic in its position modulo the prime
# 2^31 - 1 spelled in letters (so two texts share a 5-word run only where planted). In each block
# of ten ids, the documents ending in 0 and 1 copy the one ending in 2 but for their last word
# (Jaccard 15/17 with it and with each other): 30% of the documents are in clusters of three, 20%
# are removed.
#
#     bash benches/near_dedup_scale.sh [SHARED] [LIMIT] [SIZES...]
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${1:-../shared}"
LIMIT="${2:-2G}"
shift $(( $# < 2 ? $# : 2 ))
SIZES=("$@")
[ "${#SIZES[@]}" -gt 0 ] || SIZES=(1000000 10000000)
WORK="$(mktemp -d "${TMPDIR:-/tmp}/webtext-near-dedup-scale.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

echo "== the 20,000-document corpus against datatrove 0.10.1"
bash eval/speed/compare_minhash.sh "$SHARED"
WEBTEXT=target/profiling/webtext

# "seconds max_rss_kib" of a command, from /usr/bin/time; its stderr in $WORK/stderr.
timed() {
  /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" > "$WORK/stdout" 2> "$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
  cat "$WORK/time"
}

# The 20 words of a document: word k of the text it copies, but its own last word.
words=()
for k in $(seq 0 19); do
  source="source"; [ "$k" = 19 ] && source="id"
  x="(${source} * 20 + ${k})"
  # A quadratic modulo a prime: two runs of five consecutive x give the same five words only
  # when they are the same run (a linear map would make every text a shift of one sequence).
  # Letters, not digits: MinHash's simplification turns every number into 0.
  words+=("translate(CAST(($x * $x * 7 + $x * 13) % 2147483647 AS VARCHAR), '0123456789', 'abcdefghij')")
done
text="concat_ws(' ', $(IFS=,; echo "${words[*]}"))"

rows=()
for n in "${SIZES[@]}"; do
  docs="$WORK/docs-$n.parquet"
  "$WEBTEXT" sql "COPY (
       SELECT id AS doc_id, $text AS text
       FROM (SELECT value AS id, CASE WHEN value % 10 < 2 THEN value - value % 10 + 2 ELSE value END AS source
             FROM generate_series(0, $n - 1))
     ) TO '$docs' STORED AS PARQUET OPTIONS ('format.max_row_group_size' '65536')" > /dev/null
  echo "== $n documents ($(du -h "$docs" | cut -f1)), --memory-limit $LIMIT"
  read -r seconds rss < <(timed "$WEBTEXT" near-dedup "$docs" "$WORK/out-$n.parquet" --memory-limit "$LIMIT" --spill-dir "$WORK")
  tail -1 "$WORK/stderr"
  rows+=("$n $seconds $rss")
  rm -f "$docs" "$WORK/out-$n.parquet"
done

echo "| documents | wall s | s per million | peak RSS MiB |"
echo "|---:|---:|---:|---:|"
for row in "${rows[@]}"; do
  read -r n seconds rss <<< "$row"
  awk -v n="$n" -v s="$seconds" -v kb="$rss" 'BEGIN { printf "| %d | %.1f | %.2f | %.0f |\n", n, s, s / (n / 1e6), kb / 1024 }'
done
