#!/usr/bin/env bash
# Extraction quality of our boilerpipe next to Java boilerpipe 1.2.0 on the six shared sets, with
# shared/tools/score.py (wcxb and shub F1), for the article and default extractors; and the
# repository head's ArticleExtractor ('article_head', no Java output: compared with Java's article).
#
#   bash eval/quality/boilerpipe_quality.sh [SHARED_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="$(cd "${1:-../shared}" && pwd)"
OUT="${TMPDIR:-/tmp}/webtext-boilerpipe-outputs"
cargo run --quiet --release --example parity_boilerpipe -- "$SHARED" --outputs "$OUT" > /dev/null
echo "| set | extractor | wcxb F1 ours | wcxb F1 Java | shub F1 ours | shub F1 Java | largest gap (points) |"
echo "|---|---|---:|---:|---:|---:|---:|"
for set in cleaneval cleanportaleval dragnet readability scrapinghub wcxb-test; do
  for extractor in article default article_head; do
    ours=$(python3 "$SHARED/tools/score.py" "$SHARED/eval/$set" "$OUT/$set.$extractor.jsonl" --json)
    java=$(python3 "$SHARED/tools/score.py" "$SHARED/eval/$set" "$SHARED/oracle/boilerpipe/$set.jsonl.gz" \
      --field "${extractor%_head}" --json)
    python3 - "$set" "$extractor" "$ours" "$java" <<'PY'
import json, sys
s, e, o, j = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])
gap = max(abs(o["wcxb"]["f1"] - j["wcxb"]["f1"]), abs(o["shub"]["f1"] - j["shub"]["f1"])) * 100
print("| %s | %s | %.4f | %.4f | %.4f | %.4f | %.2f |" % (
    s, e, o["wcxb"]["f1"], j["wcxb"]["f1"], o["shub"]["f1"], j["shub"]["f1"], gap))
PY
  done
done
