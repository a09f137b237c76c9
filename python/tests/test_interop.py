"""The book's interop examples (docs/src/python.md): results to pandas and Polars, Polars and pyarrow tables in."""

import pandas as pd
import polars as pl
import pyarrow as pa

import datafusion_webtext as webtext

from conftest import SAMPLE_CRAWL


def test_results_go_to_pandas_and_polars():
    ctx = webtext.session()
    ctx.register_parquet("crawl", str(SAMPLE_CRAWL))
    df = ctx.sql("SELECT url, justext(html, 'English') AS text FROM crawl")
    pandas_frame = df.to_pandas()
    polars_frame = df.to_polars()
    assert isinstance(pandas_frame, pd.DataFrame) and isinstance(polars_frame, pl.DataFrame)
    assert len(pandas_frame) == len(polars_frame) == 156
    assert sorted(pandas_frame["text"]) == sorted(polars_frame["text"].to_list())


def test_polars_and_pyarrow_tables_are_queried_with_the_functions():
    pages = pl.DataFrame(
        {"url": ["a", "b"], "html": ["<title>First</title><p>x</p>", "<title>Second</title>"]}
    )
    ctx = webtext.session()
    ctx.register_view("pages", ctx.from_polars(pages))
    titles = ctx.sql("SELECT url, html_title(html) AS title FROM pages ORDER BY url").to_polars()
    assert titles["title"].to_list() == ["First", "Second"]

    table = pa.table({"text": ["one two three four", "one two three four", "five six seven"]})
    ctx.register_record_batches("docs", [table.to_batches()])
    hashes = ctx.sql("SELECT content_hash(text) AS h FROM docs").to_pydict()["h"]
    assert hashes[0] == hashes[1] != hashes[2]
