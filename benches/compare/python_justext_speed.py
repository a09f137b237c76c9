#!/usr/bin/env python3
"""Python jusText 3.0.2 on the speed sample: justext.justext(raw bytes, English) per page, best of 3.

    python3 benches/compare/python_justext_speed.py SPEED_SAMPLE.txt PAGES_DIR
"""
import sys
import time

import justext

sample, pages_dir = sys.argv[1], sys.argv[2]
pages = []
for line in open(sample):
    if line.startswith("#") or not line.strip():
        continue
    dataset, page_id = line.split("\t")[:2]
    with open(f"{pages_dir}/{dataset}/html/{page_id}.html", "rb") as f:
        pages.append(f.read())
stoplist = justext.get_stoplist("English")
best = float("inf")
for _ in range(3):
    t = time.perf_counter()
    for page in pages:
        try:
            justext.justext(page, stoplist)
        except Exception:
            pass
    best = min(best, time.perf_counter() - t)
size = sum(map(len, pages))
print(f"{'Python jusText 3.0.2':<34} {len(pages) / best:>8.1f} pages/s {size / 1e6 / best:>7.1f} MB/s")
