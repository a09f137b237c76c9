#!/usr/bin/env python3
"""compute.justext inside PySpark and Ray Data against plain Python calling it, and PyPI jusText
inside the same Spark job: the 300 pages of the speed sample as one Parquet file, read, cleaned
(jusText, English) and written as Parquet by each, on one core (run it under taskset -c 0: Spark
local[1], Ray with one CPU). Prints pages/s, the engines' overhead against plain Python, and the
speed-up a Spark user sees. Best of 3 jobs each, the engines started once beforehand.

    python3 eval/speed/python_engines_speed.py SPEED_SAMPLE.txt PAGES_DIR
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from datafusion_webtext import compute
from python_package_speed import sample_pages

RUNS = 3
SCHEMA = "url string, text string"


def justext_batches(batches):
    from datafusion_webtext import compute

    for batch in batches:
        text = compute.justext(batch.column("html"), "English")
        yield pa.record_batch([batch.column("url"), text], names=["url", "text"])


def pypi_justext_batches(batches):
    import justext

    stoplist = justext.get_stoplist("English")
    for batch in batches:
        texts = []
        for html in batch.column("html").to_pylist():
            try:
                paragraphs = justext.justext(html, stoplist)
                texts.append("\n".join(p.text for p in paragraphs if not p.is_boilerplate))
            except Exception:
                texts.append(None)
        yield pa.record_batch([batch.column("url"), pa.array(texts, pa.string())], names=["url", "text"])


def best_of(run, out: Path) -> float:
    best = float("inf")
    for _ in range(RUNS):
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    sample, pages_dir = sys.argv[1:3]
    pages = sample_pages(sample, pages_dir)
    work = Path(tempfile.mkdtemp(prefix="webtext-engines-speed-"))
    crawl = work / "crawl.parquet"
    pq.write_table(
        pa.table({"url": [u for u, _ in pages], "html": pa.array([h for _, h in pages], pa.binary())}), crawl
    )
    out = work / "out"
    seconds = {}

    def plain() -> None:
        table = pq.read_table(crawl)
        text = compute.justext(table.column("html"), "English")
        os.makedirs(out)
        pq.write_table(pa.table({"url": table.column("url"), "text": text}), out / "part-0.parquet")

    seconds["plain Python: pyarrow + compute.justext"] = best_of(plain, out)
    expected = {r["url"]: r["text"] for r in pq.read_table(out).to_pylist()}

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[1]")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    try:
        frame = spark.read.parquet(str(crawl)).repartition(1)
        for name, function in [
            ("PySpark mapInArrow + compute.justext", justext_batches),
            ("PySpark mapInArrow + PyPI jusText 3.0.2", pypi_justext_batches),
        ]:
            job = lambda f=function: frame.mapInArrow(f, SCHEMA).write.parquet(str(out))  # noqa: E731
            seconds[name] = best_of(job, out)
        spark_texts = {r["url"]: r["text"] for r in pq.read_table(out).to_pylist()}
    finally:
        spark.stop()

    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        def ray_job() -> None:
            ray.data.read_parquet(str(crawl)).map_batches(
                lambda t: pa.Table.from_batches(list(justext_batches(t.to_batches()))),
                batch_format="pyarrow", batch_size=None,
            ).write_parquet(str(out))

        seconds["Ray Data map_batches + compute.justext"] = best_of(ray_job, out)
        ray_texts = {r["url"]: r["text"] for r in pq.read_table(out).to_pylist()}
    finally:
        ray.shutdown()

    for name, s in seconds.items():
        print(f"{name:<45} {len(pages) / s:>8.1f} pages/s  ({s:.3f} s)")
    plain_s = seconds["plain Python: pyarrow + compute.justext"]
    for engine in ("PySpark mapInArrow + compute.justext", "Ray Data map_batches + compute.justext"):
        print(f"{engine}: {plain_s / seconds[engine]:.1%} of plain Python's speed")
    print(
        "compute.justext / PyPI jusText, both inside Spark: "
        f"{seconds['PySpark mapInArrow + PyPI jusText 3.0.2'] / seconds['PySpark mapInArrow + compute.justext']:.1f}x"
    )
    same = ray_texts == expected
    print(f"same texts from Ray: {same}; from Spark (PyPI jusText's, on {len(expected)} pages): "
          f"{sum(spark_texts.get(u) == t for u, t in expected.items())} equal to compute's")
    shutil.rmtree(work, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
