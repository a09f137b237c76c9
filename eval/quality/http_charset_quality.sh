#!/usr/bin/env bash
# What `webtext clean --http-charset` changes on the Common-Crawl-like archive of the eval pages
# (whose HTTP Content-Type carries each page's true encoding, from the sets' manifests): pages whose
# text differs, the U+FFFD (undecodable bytes) in the kept text, and extraction quality against the gold text (shared/tools/score.py, wcxb and shub
# F1) with jusText's own decoding and with the HTTP charset as hint, per set.
# Usage: eval/quality/http_charset_quality.sh [SHARED]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="$(cd "${1:-../shared}" && pwd)"
WORK="${TMPDIR:-/tmp}/webtext-http-charset"
mkdir -p "$WORK"
cargo build --release --quiet --bin webtext --example build_crawl
WARC="$(bash eval/quality/eval_warc.sh "$SHARED")"
[ -f "$WORK/crawl.parquet" ] || SHARED="$SHARED" bash tools/build_eval_crawl.sh "$WORK/crawl.parquet"
for variant in own http; do
  flag=""; [ "$variant" = http ] && flag="--http-charset"
  rm -f "$WORK/$variant.parquet"
  target/release/webtext clean "$WARC" "$WORK/$variant.parquet" $flag 2> /dev/null
  # The archive's URL of a page without one in its manifest is https://<set>.webtext-eval.invalid/<id>.html.
  target/release/webtext sql --format jsonl --table "c=$WORK/$variant.parquet" --table "p=$WORK/crawl.parquet" "
    SELECT DISTINCT p.\"set\", p.id, c.text
    FROM c JOIN p ON c.url = CASE WHEN p.url = p.\"set\" || ':' || p.id
      THEN 'https://' || p.\"set\" || '.webtext-eval.invalid/' || p.id || '.html' ELSE p.url END" \
    > "$WORK/$variant.jsonl"
done
echo "| set | pages | text changed | U+FFFD kept, own decoding | U+FFFD kept, --http-charset | wcxb F1 own | wcxb F1 --http-charset | shub F1 own | shub F1 --http-charset |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in cleaneval cleanportaleval dragnet readability scrapinghub wcxb-test; do
  for variant in own http; do
    python3 -c "
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['set'] == sys.argv[2]:
        print(json.dumps({'id': r['id'], 'text': r.get('text')}))" "$WORK/$variant.jsonl" "$set" > "$WORK/$set.$variant.jsonl"
  done
  own=$(python3 "$SHARED/tools/score.py" "$SHARED/eval/$set" "$WORK/$set.own.jsonl" --json)
  http=$(python3 "$SHARED/tools/score.py" "$SHARED/eval/$set" "$WORK/$set.http.jsonl" --json)
  python3 - "$set" "$WORK/$set.own.jsonl" "$WORK/$set.http.jsonl" "$own" "$http" <<'PY'
import json, sys
s, a, b, o, h = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), json.loads(sys.argv[5])
texts = lambda p: {r["id"]: r.get("text") for r in map(json.loads, open(p))}
ta, tb = texts(a), texts(b)
changed = sum(ta[k] != tb.get(k) for k in ta)
replaced = lambda t: sum((v or "").count("\ufffd") for v in t.values())
print("| %s | %d | %d | %d | %d | %.4f | %.4f | %.4f | %.4f |" % (
    s, len(ta), changed, replaced(ta), replaced(tb),
    o["wcxb"]["f1"], h["wcxb"]["f1"], o["shub"]["f1"], h["shub"]["f1"]))
PY
done
