#!/usr/bin/env python3
"""justext(html) from Python SQL (datafusion-python + datafusion_webtext) against the `webtext`
command and PyPI jusText 3.0.2, on the speed sample's pages, in one run; prints pages/s and the
ratios. Run it on one core (benches/compare_python.sh does, with taskset).

    python3 benches/compare/python_package_speed.py SPEED_SAMPLE.txt PAGES_DIR WEBTEXT_BIN

All three do the same work: the Python package and the command run the same query over the same
Parquet file (url, html as Binary) on one partition and write the same Parquet result; PyPI
jusText runs justext.justext(raw bytes, English) per page. Best of 3 runs each.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import justext
import pyarrow as pa
import pyarrow.parquet as pq
from datafusion import SessionConfig

import datafusion_webtext as webtext

RUNS = 3
QUERY = "SELECT url, justext(html, 'English') AS text FROM crawl"


def sample_pages(sample: str, pages_dir: str) -> list[tuple[str, bytes]]:
    pages = []
    for line in open(sample):
        if line.startswith("#") or not line.strip():
            continue
        dataset, page_id = line.split("\t")[:2]
        pages.append((f"{dataset}/{page_id}", Path(f"{pages_dir}/{dataset}/html/{page_id}.html").read_bytes()))
    return pages


def best_of(run) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    sample, pages_dir, command = sys.argv[1], sys.argv[2], sys.argv[3]
    pages = sample_pages(sample, pages_dir)
    work = Path(tempfile.mkdtemp(prefix="webtext-python-speed-"))
    crawl = work / "crawl.parquet"
    pq.write_table(
        pa.table({"url": [u for u, _ in pages], "html": pa.array([h for _, h in pages], pa.binary())}),
        crawl,
    )

    def python_sql() -> None:
        ctx = webtext.session(SessionConfig().with_target_partitions(1))
        ctx.register_parquet("crawl", str(crawl))
        ctx.sql(QUERY).write_parquet(str(work / "python.parquet"))

    def the_command() -> None:
        subprocess.run(
            [command, "sql", "--partitions", "1", "--table", f"crawl={crawl}",
             "--output", str(work / "command.parquet"), QUERY],
            check=True, stdout=subprocess.DEVNULL,
        )

    stoplist = justext.get_stoplist("English")

    def pypi_justext() -> None:
        for _, html in pages:
            try:
                justext.justext(html, stoplist)
            except Exception:
                pass

    seconds = {
        "justext(html), Python SQL (datafusion_webtext)": best_of(python_sql),
        "justext(html), the webtext command": best_of(the_command),
        "PyPI jusText 3.0.2, same process": best_of(pypi_justext),
    }
    same = (
        pq.read_table(work / "python.parquet").sort_by("url").to_pylist()
        == pq.read_table(work / "command.parquet").sort_by("url").to_pylist()
    )
    size = sum(len(h) for _, h in pages)
    rates = {}
    for name, s in seconds.items():
        rates[name] = len(pages) / s
        print(f"{name:<50} {len(pages) / s:>8.1f} pages/s {size / 1e6 / s:>7.2f} MB/s  ({s:.3f} s)")
    python, command_rate, pypi = rates.values()
    print(f"Python SQL / webtext command: {python / command_rate:.1%}  (same output: {same})")
    print(f"Python SQL / PyPI jusText:    {python / pypi:.1f}x")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
