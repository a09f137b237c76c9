#!/usr/bin/env python3
"""compute.justext from threads: the speed sample's pages cleaned by one thread, then split among
4 threads calling compute.justext at once (the GIL is released while a function runs), on every
core the process may use; prints pages/s of each and the speed-up. Best of 5 runs each.

    python3 eval/speed/python_compute_threads.py SPEED_SAMPLE.txt PAGES_DIR
"""

from __future__ import annotations

import os
import sys
import threading
import time

import pyarrow as pa

from datafusion_webtext import compute
from python_package_speed import best_of, sample_pages

THREADS = 4


def main() -> int:
    sample, pages_dir = sys.argv[1:3]
    pages = sample_pages(sample, pages_dir)
    html = pa.array([h for _, h in pages], pa.binary())
    step = -(-len(html) // THREADS)
    parts = [html.slice(i, step) for i in range(0, len(html), step)]
    results: list = [None] * len(parts)

    def one_thread() -> None:
        compute.justext(html)

    def threads() -> None:
        def run(i: int) -> None:
            results[i] = compute.justext(parts[i])

        started = [threading.Thread(target=run, args=(i,)) for i in range(len(parts))]
        for t in started:
            t.start()
        for t in started:
            t.join()

    alone = best_of(one_thread)
    together = best_of(threads)
    same = pa.concat_arrays(results).equals(compute.justext(html))
    cores = len(os.sched_getaffinity(0))
    print(f"compute.justext, 1 thread:           {len(pages) / alone:8.1f} pages/s ({alone:.3f} s)")
    print(f"compute.justext, {THREADS} threads at once: {len(pages) / together:8.1f} pages/s ({together:.3f} s)")
    print(f"speed-up on {cores} cores: {alone / together:.2f}x  (same texts: {same})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
