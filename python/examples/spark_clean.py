"""PySpark: a Parquet crawl cleaned by datafusion_webtext.compute inside mapInArrow, written as
Parquet; no Python UDF, no row crosses into Python objects (Spark hands each task's rows over as
Arrow record batches).

    python spark_clean.py CRAWL.parquet OUT_DIR
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from pyspark.sql import SparkSession

import cleaning


def clean_batches(batches):
    # Runs in Spark's Python workers: cleaning.py reaches them through addPyFile.
    import cleaning

    for batch in batches:
        yield from cleaning.clean(batch).to_batches()


def main(crawl: str, out: str) -> None:
    # The workers run this interpreter, which has datafusion_webtext and pyarrow.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("datafusion-webtext")
        # Everything on this machine, nothing listening beyond it.
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    try:
        spark.sparkContext.addPyFile(str(Path(cleaning.__file__).resolve()))
        pages = spark.read.parquet(crawl).select("url", "html")
        pages.mapInArrow(clean_batches, cleaning.SPARK_SCHEMA).write.mode("error").parquet(out)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:3])
