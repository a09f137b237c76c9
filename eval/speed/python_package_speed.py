#!/usr/bin/env python3
"""justext(html) from Python SQL (datafusion-python + datafusion_webtext) and from
datafusion_webtext.compute (on a pyarrow array) against the `webtext` command and PyPI jusText
3.0.2, on the speed sample's pages, in one run; prints pages/s and the ratios. Run it on one core (eval/speed/compare_python.sh does, with taskset).

    python3 eval/speed/python_package_speed.py SPEED_SAMPLE.txt PAGES_DIR WEBTEXT_BIN SPEED_JUSTEXT_BIN

All three do the same work: the Python package and the command run the same query over the same
Parquet file (url, html as Binary) on one partition and write the same Parquet result; PyPI
jusText runs justext.justext(raw bytes, English) per page; compute.justext runs on the pages as
one pyarrow Binary array already in memory, against the same query from Python SQL over the same
array as an in-memory table. Best of 5 runs each.

Each run of the command is a new process, whose first page pays for the first use of the
stoplists and codec tables (about 25 ms); the Python runs share one warm process. The same query
in a warm Rust process (the speed_justext example, `justext(html) SQL over Parquet`) is the
like-for-like measure of what crossing datafusion-ffi costs.
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
from datafusion_webtext import compute

RUNS = 5
QUERY = "SELECT url, justext(html, 'English') AS text FROM crawl"
# The same scan and write without the function: what is left of a run when jusText is taken out
# (the command's process start and planning, the Parquet reading and writing).
BASELINE = "SELECT url, url AS text FROM crawl"


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
    sample, pages_dir, command, speed_justext = sys.argv[1:5]
    pages = sample_pages(sample, pages_dir)
    work = Path(tempfile.mkdtemp(prefix="webtext-python-speed-"))
    crawl = work / "crawl.parquet"
    pq.write_table(
        pa.table({"url": [u for u, _ in pages], "html": pa.array([h for _, h in pages], pa.binary())}),
        crawl,
    )

    def python_sql(query: str = QUERY):
        def run() -> None:
            ctx = webtext.session(SessionConfig().with_target_partitions(1))
            ctx.register_parquet("crawl", str(crawl))
            ctx.sql(query).write_parquet(str(work / "python.parquet"))

        return run

    def the_command(query: str = QUERY):
        def run() -> None:
            subprocess.run(
                [command, "sql", "--partitions", "1", "--table", f"crawl={crawl}",
                 "--output", str(work / "command.parquet"), query],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )

        return run

    stoplist = justext.get_stoplist("English")

    def pypi_justext() -> None:
        for _, html in pages:
            try:
                justext.justext(html, stoplist)
            except Exception:
                pass

    html = pa.array([h for _, h in pages], pa.binary())
    in_memory = pa.table({"url": [u for u, _ in pages], "html": html})

    def python_sql_in_memory() -> None:
        ctx = webtext.session(SessionConfig().with_target_partitions(1))
        ctx.register_record_batches("crawl", [in_memory.to_batches()])
        ctx.sql(QUERY).to_arrow_table()

    def compute_justext() -> None:
        compute.justext(html, "English")

    memory_seconds = {
        "justext(html), Python SQL on an in-memory table": best_of(python_sql_in_memory),
        "compute.justext(html) on a pyarrow array": best_of(compute_justext),
    }

    def sql_texts() -> list:
        ctx = webtext.session(SessionConfig().with_target_partitions(1))
        ctx.register_record_batches("crawl", [in_memory.to_batches()])
        return ctx.sql(QUERY).to_arrow_table().column("text").to_pylist()

    same_compute = compute.justext(html, "English").to_pylist() == sql_texts()
    baseline_python = best_of(python_sql(BASELINE))
    baseline_command = best_of(the_command(BASELINE))
    seconds = {
        "justext(html), Python SQL (datafusion_webtext)": best_of(python_sql()),
        "justext(html), the webtext command": best_of(the_command()),
        "PyPI jusText 3.0.2, same process": best_of(pypi_justext),
    }
    rust_in_process = subprocess.run(
        [speed_justext, sample, pages_dir], check=True, capture_output=True, text=True
    ).stdout
    line = next(l for l in rust_in_process.splitlines() if "SQL over Parquet" in l)
    rust_rate = float(line.split("pages/s")[0].split()[-1])
    by_url = lambda rows: sorted(rows, key=lambda r: r["url"])  # noqa: E731
    same = by_url(pq.read_table(work / "python.parquet").to_pylist()) == by_url(
        pq.read_table(work / "command.parquet").to_pylist()
    )
    size = sum(len(h) for _, h in pages)
    rates = {}
    for name, s in seconds.items():
        rates[name] = len(pages) / s
        print(f"{name:<50} {len(pages) / s:>8.1f} pages/s {size / 1e6 / s:>7.2f} MB/s  ({s:.3f} s)")
    python, command_rate, pypi = rates.values()
    print(f"Python SQL / webtext command: {python / command_rate:.1%}  (same output: {same})")
    python_work = seconds["justext(html), Python SQL (datafusion_webtext)"] - baseline_python
    command_work = seconds["justext(html), the webtext command"] - baseline_command
    print(
        f"without the scan, write and process start (baseline {baseline_python:.3f} s in Python, "
        f"{baseline_command:.3f} s for the command): jusText's work "
        f"{len(pages) / python_work:.1f} pages/s from Python, {len(pages) / command_work:.1f} "
        f"from the command, {command_work / python_work:.1%}"
    )
    print(f"{'justext(html), Rust SQL in a warm process':<50} {rust_rate:>8.1f} pages/s  (speed_justext)")
    print(f"Python SQL / Rust SQL in process: {python / rust_rate:.1%}")
    print(f"Python SQL / PyPI jusText:    {python / pypi:.1f}x")
    for name, s in memory_seconds.items():
        print(f"{name:<50} {len(pages) / s:>8.1f} pages/s {size / 1e6 / s:>7.2f} MB/s  ({s:.3f} s)")
    sql_memory, compute_seconds = memory_seconds.values()
    print(f"compute / Python SQL, both in memory: {sql_memory / compute_seconds:.1%}  (same texts: {same_compute})")
    print(f"compute / the webtext command: {seconds['justext(html), the webtext command'] / compute_seconds:.1%}")
    print(f"compute / PyPI jusText:       {seconds['PyPI jusText 3.0.2, same process'] / compute_seconds:.1f}x")
    return 0 if same and same_compute else 1


if __name__ == "__main__":
    sys.exit(main())
