"""Hugging Face datasets: a Parquet crawl as a Dataset in Arrow format, cleaned by
datafusion_webtext.compute in map(batched=True), written as Parquet.

    python datasets_clean.py CRAWL.parquet OUT.parquet [CACHE_DIR]
"""

from __future__ import annotations

import sys

import datasets

import cleaning


def main(crawl: str, out: str, cache_dir: str | None = None) -> None:
    pages = datasets.Dataset.from_parquet(crawl, cache_dir=cache_dir).with_format("arrow")
    cleaned = pages.map(cleaning.clean, batched=True, batch_size=64, remove_columns=pages.column_names)
    cleaned.to_parquet(out)


if __name__ == "__main__":
    main(*sys.argv[1:4])
