#!/usr/bin/env bash
# Times Java boilerpipe 1.2.0 (warm JVM) and our boilerpipe(html, extractor) over Parquet on the
# same 300 pages, one core each (`taskset -c 0`), and prints the ratio per extractor from this run.
#
#     bash eval/speed/compare_boilerpipe.sh [SHARED_DIR]
#
# Needs Java 11+ and Debian's libboilerpipe-java 1.2.0 (the oracle's classpath), installed here
# with apt-get when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
PAGES="$(bash "$SHARED/eval/unpack.sh" "${TMPDIR:-/tmp}/webtext-eval" | tail -1)"
CP="/usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar"
if [ ! -f /usr/share/java/boilerpipe.jar ]; then
  apt-get install -y -q libboilerpipe-java >/dev/null
fi
cargo build --quiet --profile profiling --example speed_justext
SAMPLE="$SHARED/eval/speed_sample.txt"
ours="$(taskset -c 0 target/profiling/examples/speed_justext "$SAMPLE" "$PAGES")"
java="$(taskset -c 0 java -cp "$CP" eval/speed/JavaBoilerpipeSpeed.java "$SAMPLE" "$PAGES" "$SHARED/eval")"
echo "$java"
echo "$ours"
for e in article default largest_content canola keep_everything num_words_rules article_sentences; do
  j="$(echo "$java" | awk -v e="$e" '$4 == e {print $(NF-3)}')"
  o="$(echo "$ours" | awk -v e="'$e')" '$2 == e {print $(NF-3)}')"
  awk -v e="$e" -v a="$o" -v b="$j" 'BEGIN { printf "ratio boilerpipe(html, %s) SQL / Java: %.2fx\n", e, a / b }'
done
