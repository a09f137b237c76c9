"""Polars: datafusion_webtext.compute called on a Polars frame's columns (map_batches hands each
Series over; Polars and pyarrow share the Arrow buffers), written as Parquet.

    python polars_clean.py CRAWL.parquet OUT.parquet
"""

from __future__ import annotations

import sys

import polars as pl

from datafusion_webtext import compute


def justext(html: pl.Series) -> pl.Series:
    return pl.from_arrow(compute.justext(html.to_arrow(), "English"))


def main(crawl: str, out: str) -> None:
    pages = pl.read_parquet(crawl, columns=["url", "html"])
    cleaned = pages.with_columns(text=pl.col("html").map_batches(justext, return_dtype=pl.String))
    cleaned = cleaned.with_columns(
        language=pl.col("text").map_batches(
            lambda text: pl.from_arrow(compute.detect_language(text.to_arrow())).struct.field("language"),
            return_dtype=pl.String,
        )
    )
    cleaned.drop("html").write_parquet(out)


if __name__ == "__main__":
    main(*sys.argv[1:3])
