#!/usr/bin/env python3
"""trafilatura 2.3.1 on the pages `speed_trafilatura --dump` wrote (NUL-separated text, decoded
as the oracle decodes them): extract(text, ...) per page as datatrove calls it (FineWeb's
settings) and with the defaults, best of 3, the de-duplication cache emptied before each run.

    python3 eval/speed/trafilatura_text_speed.py PAGES_FILE
"""
import sys
import time

import trafilatura
from trafilatura.deduplication import LRU_TEST

pages = [p for p in open(sys.argv[1], encoding="utf-8", newline="").read().split("\0") if p]
size = sum(len(p.encode("utf-8")) for p in pages)
for label, kwargs in [
    ("fineweb (favor_precision, no comments, deduplicate)",
     dict(favor_precision=True, include_comments=False, deduplicate=True)),
    ("defaults", {}),
]:
    best, kept = float("inf"), 0
    for _ in range(3):
        LRU_TEST.clear()
        t = time.perf_counter()
        kept = sum(trafilatura.extract(p, **kwargs) is not None for p in pages)
        best = min(best, time.perf_counter() - t)
    print(f"trafilatura {trafilatura.__version__} {label:<52} {len(pages) / best:>8.1f} pages/s "
          f"{size / 1e6 / best:>7.1f} MB/s  ({kept} texts)")
