#!/usr/bin/env python3
"""trafilatura on the speed sample: trafilatura.extract(raw bytes) per page with its defaults, best of 3.

    python3 benches/compare/trafilatura_speed.py SPEED_SAMPLE.txt PAGES_DIR
"""
import sys
import time

import trafilatura

sample, pages_dir = sys.argv[1], sys.argv[2]
pages = []
for line in open(sample):
    if line.startswith("#") or not line.strip():
        continue
    dataset, page_id = line.split("\t")[:2]
    with open(f"{pages_dir}/{dataset}/html/{page_id}.html", "rb") as f:
        pages.append(f.read())
best = float("inf")
for _ in range(3):
    t = time.perf_counter()
    for page in pages:
        try:
            trafilatura.extract(page)
        except Exception:
            pass
    best = min(best, time.perf_counter() - t)
size = sum(map(len, pages))
print(f"{'trafilatura ' + trafilatura.__version__:<34} {len(pages) / best:>8.1f} pages/s {size / 1e6 / best:>7.1f} MB/s")
