#!/usr/bin/env python3
"""Checks what sql/clean.sql wrote for the bundled sample crawl against Python jusText 3.0.2.

Usage: check_clean_output.py CLEANED.jsonl [SHARED]

CLEANED.jsonl holds the rows of sql/clean.sql (url, text, ...) as `webtext sql --format jsonl`
prints them. Without SHARED it checks the pinned count: 129 of the 156 sample pages keep text
(counted in ../shared/oracle/justext/scrapinghub.jsonl.gz for the sample's pages). With SHARED it
also checks that every page's text is exactly the good paragraphs of Python jusText, joined by '\\n'.
"""
import csv
import gzip
import json
import os
import sys

EXPECTED_PAGES_WITH_TEXT = 129


def main() -> int:
    rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    got = {r["url"]: r["text"] for r in rows}
    problems = []
    if len(got) != EXPECTED_PAGES_WITH_TEXT:
        problems.append(f"{len(got)} pages with text, expected {EXPECTED_PAGES_WITH_TEXT}")
    if len(sys.argv) > 2 and os.path.isdir(os.path.join(sys.argv[2], "oracle", "justext")):
        shared = sys.argv[2]
        manifest = os.path.join(shared, "eval", "scrapinghub", "manifest.tsv")
        url_of = {r["id"]: r["url"] for r in csv.DictReader(open(manifest), delimiter="\t")}
        oracle = os.path.join(shared, "oracle", "justext", "scrapinghub.jsonl.gz")
        expected = {}
        for line in gzip.open(oracle, "rt", encoding="utf-8"):
            page = json.loads(line)
            text = "\n".join(p["text"] for p in page["paragraphs"] if p["class_type"] == "good")
            if text:
                expected[url_of[page["id"]]] = text
        for url, text in got.items():
            if url not in expected:
                problems.append(f"{url}: kept text, Python jusText keeps none")
            elif expected[url] != text:
                problems.append(f"{url}: text differs from Python jusText's")
        print(f"checked {len(got)} pages against Python jusText 3.0.2's output")
    for p in problems:
        print("FAIL:", p, file=sys.stderr)
    if not problems:
        print(f"ok: {len(got)} pages with text")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
