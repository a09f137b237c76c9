#!/usr/bin/env bash
# `webtext clean` on the Common-Crawl-like archive of the eval pages (../shared/eval/warc/
# make_eval_warc.py) must keep the same text per URL as on the Parquet crawl of the same pages
# (tools/build_eval_crawl.sh). Pages without a URL in their manifest are `<set>:<id>` in the
# Parquet crawl and https://<set>.webtext-eval.invalid/<id>.html in the archive; a URL crawled twice
# compares its sorted texts. Exits non-zero on any difference. Usage: eval/parity/check_warc_clean.sh [SHARED]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-${SHARED:-../shared}}"
WORK="${TMPDIR:-/tmp}/webtext-warc-clean"
mkdir -p "$WORK"
# With an example, so the binary is built with the features of the tests and examples (dev-dependencies).
# WEBTEXT_PROFILE and WEBTEXT_FEATURES as in tools/build_eval_crawl.sh: .ci/run passes its test build's
# (dev, --features cluster), so CI compiles DataFusion once; by hand the default is release.
PROFILE="${WEBTEXT_PROFILE:-release}"
cargo build --profile "$PROFILE" ${WEBTEXT_FEATURES:-} --quiet --bin webtext --example build_crawl
WEBTEXT="target/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")/webtext"
WARC="$(bash eval/quality/eval_warc.sh "$SHARED")"
[ -f "$WORK/crawl.parquet" ] || SHARED="$SHARED" WEBTEXT_PROFILE="$PROFILE" bash tools/build_eval_crawl.sh "$WORK/crawl.parquet"
rm -f "$WORK/from_warc.parquet" "$WORK/from_parquet.parquet"
"$WEBTEXT" clean "$WARC" "$WORK/from_warc.parquet"
"$WEBTEXT" clean "$WORK/crawl.parquet" "$WORK/from_parquet.parquet"
"$WEBTEXT" sql --format csv \
  --table "w=$WORK/from_warc.parquet" --table "p=$WORK/from_parquet.parquet" "
  WITH pw AS (
    SELECT CASE WHEN url = \"set\" || ':' || id
                THEN 'https://' || \"set\" || '.webtext-eval.invalid/' || id || '.html' ELSE url END AS url,
           text
    FROM p),
  per_url_p AS (SELECT url, array_sort(array_agg(coalesce(text, '<NULL>'))) AS texts FROM pw GROUP BY url),
  per_url_w AS (SELECT url, array_sort(array_agg(coalesce(text, '<NULL>'))) AS texts FROM w GROUP BY url)
  SELECT (SELECT count(*) FROM p) AS parquet_pages,
         (SELECT count(*) FROM w) AS warc_pages,
         (SELECT count(*) FROM per_url_p) AS parquet_urls,
         (SELECT count(*) FROM per_url_w) AS warc_urls,
         (SELECT count(*) FROM per_url_p JOIN per_url_w USING (url) WHERE per_url_p.texts = per_url_w.texts) AS same_text,
         (SELECT count(*) FROM per_url_p FULL JOIN per_url_w USING (url)
          WHERE per_url_p.texts IS DISTINCT FROM per_url_w.texts) AS differing_or_missing" \
  | tee "$WORK/check.csv"
python3 - "$WORK/check.csv" <<'PY'
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
n = {k: int(v) for k, v in row.items()}
ok = (n["parquet_pages"] == n["warc_pages"] > 0 and n["parquet_urls"] == n["warc_urls"] == n["same_text"]
      and n["differing_or_missing"] == 0)
print("same text per URL from WARC and from Parquet: %d of %d URLs (%d pages)"
      % (n["same_text"], n["parquet_urls"], n["parquet_pages"]))
sys.exit(0 if ok else 1)
PY
