"""The bundled sample crawl (156 pages) from Python: every function, `clean()` and the onion
pipeline give what the `webtext` command gives, and `justext(html)` gives what the PyPI justext
3.0.2 package gives in this same interpreter."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import datafusion_webtext as webtext

from conftest import REPO, SAMPLE_CRAWL, run_webtext, rust_query

EVERY_FUNCTION = """
SELECT id, url,
       justext(html, 'English') AS justext,
       justext_extract(html, 'English') AS justext_extract,
       justext_paragraphs(html, 'English') AS justext_paragraphs,
       boilerpipe(html, 'article') AS boilerpipe,
       boilerpipe_blocks(html, 'default') AS boilerpipe_blocks,
       html_title(html) AS html_title,
       decode_html(html) AS decode_html,
       byte_length(html) AS byte_length,
       stopword_density(justext(html, 'English'), 'English') AS stopword_density,
       ngram_hashes(justext(html, 'English'), 7) AS ngram_hashes,
       content_hash(justext(html, 'English')) AS content_hash,
       detect_language(justext(html, 'English'), 'top=3') AS detect_language,
       gopher_repetition(justext(html, 'English')) AS gopher_repetition,
       gopher_quality(justext(html, 'English')) AS gopher_quality,
       c4_quality(justext(html, 'English')) AS c4_quality,
       fineweb_quality(justext(html, 'English')) AS fineweb_quality,
       minhash(justext(html, 'English')) AS minhash,
       jaccard(justext(html, 'English'), boilerpipe(html, 'article')) AS jaccard
FROM crawl ORDER BY id
"""


def test_every_function_on_the_sample_crawl_equals_the_rust_side(tmp_path):
    rust = rust_query(tmp_path, {"crawl": SAMPLE_CRAWL}, EVERY_FUNCTION).to_pylist()
    ctx = webtext.session()
    ctx.register_parquet("crawl", str(SAMPLE_CRAWL))
    python = ctx.sql(EVERY_FUNCTION).to_pylist()
    assert len(python) == len(rust) == 156
    for ours, theirs in zip(python, rust):
        assert ours == theirs, ours["url"]
    assert sum(1 for r in python if r["justext"]) == 129  # pinned in eval/parity/check_clean_output.py


def by_id(rows: list[dict]) -> dict[str, dict]:
    return {r["id"]: r for r in rows}


def test_clean_equals_webtext_clean(tmp_path):
    out = tmp_path / "cleaned.parquet"
    done = run_webtext("clean", str(SAMPLE_CRAWL), str(out))
    assert done.returncode == 0, done.stderr
    rust = pq.read_table(out)
    python = webtext.clean(SAMPLE_CRAWL)
    assert python.column_names == rust.column_names
    assert by_id(python.to_pylist()) == by_id(rust.to_pylist())


def test_clean_with_extract_content_equals_webtext_clean(tmp_path):
    out = tmp_path / "cleaned.parquet"
    done = run_webtext(
        "clean", str(SAMPLE_CRAWL), str(out), "--extractor", "extract-content",
        "--options", "format=markdown",
    )
    assert done.returncode == 0, done.stderr
    rust = by_id(pq.read_table(out).to_pylist())
    python = by_id(
        webtext.clean(SAMPLE_CRAWL, options="format=markdown", extractor="extract_content")
        .to_pylist()
    )
    assert python == rust
    shares = [r["kept_share"] for r in python.values() if r["text"]]
    assert shares and all(0 < s <= 1 for s in shares)
    with pytest.raises(ValueError, match="unknown extractor 'trafilatura'; known: justext, extract_content"):
        webtext.clean(SAMPLE_CRAWL, extractor="trafilatura")


def test_clean_takes_paths_tables_and_frames_alike(sample_crawl):
    import pandas as pd
    import polars as pl

    expected = by_id(webtext.clean(str(SAMPLE_CRAWL)).to_pylist())
    small = sample_crawl.slice(0, 20)
    expected_small = {k: v for k, v in expected.items() if k in set(small["id"].to_pylist())}
    ctx = webtext.session()
    for source in [small, pl.from_arrow(small), small.to_pandas(), ctx.from_arrow(small)]:
        assert by_id(webtext.clean(source, ctx=ctx).to_pylist()) == expected_small, type(source)
    assert isinstance(small.to_pandas(), pd.DataFrame)


def test_clean_streams_into_a_parquet_file_what_it_would_return(tmp_path):
    out = tmp_path / "cleaned.parquet"
    rows = webtext.clean(SAMPLE_CRAWL, output=out)
    assert rows == 156
    assert by_id(pq.read_table(out).to_pylist()) == by_id(webtext.clean(SAMPLE_CRAWL).to_pylist())
    # Nothing but the output: the temporary file was renamed.
    assert [p.name for p in tmp_path.iterdir()] == ["cleaned.parquet"]
    # A failed run leaves nothing.
    with pytest.raises(Exception):
        webtext.clean(SAMPLE_CRAWL, output=tmp_path / "bad.parquet", options="no_such_option=1")
    assert [p.name for p in tmp_path.iterdir()] == ["cleaned.parquet"]


# Run in a process of its own, so that its peak resident memory (VmHWM: ru_maxrss would include
# what the parent held when it forked) is the clean's.
_CLEAN_AND_MEASURE = """
import sys
from datafusion import SessionConfig
import datafusion_webtext as webtext
def peak_mib():
    status = open("/proc/self/status").read()
    return int(status.split("VmHWM:")[1].split("kB")[0]) // 1024
ctx = webtext.session(SessionConfig().with_batch_size(16))
before = peak_mib()
rows = webtext.clean(sys.argv[1], ctx=ctx, output=sys.argv[2])
print(rows, peak_mib() - before)
"""


def _clean_and_measure(tmp_path, sample_crawl, copies):
    """Cleans 96 × ``copies`` pages of the sample, each with a column of 1 MiB that does not
    compress (every input column is written out again) into a Parquet file from a child process;
    the rows written and how far its peak memory grew (MiB)."""
    import os
    import subprocess
    import sys

    pages = pa.concat_tables([sample_crawl.select(["id", "url", "html"]).slice(0, 96)] * copies)
    blobs = pa.array([os.urandom(1 << 20) for _ in range(pages.num_rows)], pa.binary())
    crawl = tmp_path / f"crawl-{copies}.parquet"
    pq.write_table(pages.append_column("blob", blobs), crawl, row_group_size=16)
    del pages, blobs
    out = tmp_path / f"cleaned-{copies}.parquet"
    result = subprocess.run(
        [sys.executable, "-c", _CLEAN_AND_MEASURE, str(crawl), str(out)],
        capture_output=True, text=True, timeout=600, check=True,
    )
    rows, grown_mib = map(int, result.stdout.split())
    written = pq.read_table(out, columns=["id", "text"])
    assert written.num_rows == rows and written["text"].null_count < rows
    crawl.unlink()
    out.unlink()
    return rows, grown_mib


def test_a_crawl_larger_than_memory_is_streamed_through(tmp_path, sample_crawl):
    # 384 MiB of input, then 768 MiB: memory that held the result (or a share of the input) would
    # grow by hundreds of MiB more for the larger one (measured collecting: +800 MiB); streamed,
    # the peak stays where it was (measured: +616 and +663 MiB, DataFusion's and the allocator's
    # working set).
    rows, smaller = _clean_and_measure(tmp_path, sample_crawl, 4)
    assert rows == 384
    rows, larger = _clean_and_measure(tmp_path, sample_crawl, 8)
    assert rows == 768
    assert larger - smaller < 192, f"the peak grew by {smaller} MiB, then by {larger} MiB"


def test_two_threads_cleaning_on_one_context_each_get_their_own_pages(sample_crawl):
    from concurrent.futures import ThreadPoolExecutor

    halves = [sample_crawl.slice(0, 78), sample_crawl.slice(78)]
    ctx = webtext.session()
    for _ in range(3):
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda half: webtext.clean(half, ctx=ctx), halves))
        for half, result in zip(halves, results):
            assert sorted(result["url"].to_pylist()) == sorted(half["url"].to_pylist())


def test_clean_of_a_warc_file_equals_webtext_clean(tmp_path):
    warc = REPO / "tests" / "data" / "http_charset.warc"
    for flags, http_charset in [([], False), (["--http-charset"], True)]:
        out = tmp_path / f"cleaned{len(flags)}.parquet"
        done = run_webtext("clean", *flags, str(warc), str(out))
        assert done.returncode == 0, done.stderr
        rust = pq.read_table(out).to_pylist()
        python = webtext.clean(warc, http_charset=http_charset).to_pylist()
        key = lambda r: r["record_id"]  # noqa: E731
        assert sorted(python, key=key) == sorted(rust, key=key)
        assert len(python) == 2


def sql_file_statements(path: Path, params: dict[str, str]) -> list[str]:
    """A pipeline file's statements with its `-- @param` defaults, overridden by `params`, filled
    in (as `webtext sql --file` fills them in)."""
    text = path.read_text()
    values = dict(re.findall(r"^-- @param (\w+) =[ \t]*(.*)$", text, flags=re.M))
    values = {k: v.strip().strip('"') for k, v in values.items()} | params
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    body = re.sub(r"\$\{(\w+)\}", lambda m: values[m.group(1)], body)
    return [s.strip() for s in body.split(";") if s.strip()]


def test_the_onion_pipeline_from_python_equals_webtext_dedup(tmp_path):
    """sql/dedup_paragraphs.sql run statement by statement from Python (the duplicate_ngrams
    aggregate, then the onion_keep window) decides every paragraph as `webtext dedup` does."""
    ctx = webtext.session()
    ctx.register_parquet("crawl", str(SAMPLE_CRAWL))
    documents = ctx.sql(
        "SELECT CAST(row_number() OVER (ORDER BY id) AS BIGINT) - 1 AS doc_id, "
        "justext(html, 'English') AS text FROM crawl"
    ).to_arrow_table()
    docs = tmp_path / "documents.parquet"
    pq.write_table(documents, docs)

    out = tmp_path / "rust-paragraphs.parquet"
    done = run_webtext("dedup", str(docs), str(out), "--n", "5")
    assert done.returncode == 0, done.stderr
    rust = pq.read_table(out).select(["doc_id", "par_idx", "kept"]).to_pylist()

    ctx = webtext.session()
    ctx.register_parquet("documents", str(docs))
    statements = sql_file_statements(
        REPO / "sql" / "dedup_paragraphs.sql",
        {"n": "5", "duplicates": str(tmp_path / "duplicates")},
    )
    for statement in statements[:-1]:
        ctx.sql(statement).collect()
    python = ctx.sql(statements[-1]).to_arrow_table().select(["doc_id", "par_idx", "kept"])
    key = lambda r: (r["doc_id"], r["par_idx"])  # noqa: E731
    python_rows = sorted(python.to_pylist(), key=key)
    assert python_rows == sorted(rust, key=key)
    dropped = sum(1 for r in python_rows if not r["kept"])
    assert 0 < dropped < len(python_rows)  # the sample's sites repeat some paragraphs


def test_justext_equals_the_pypi_package_in_the_same_interpreter(sample_crawl):
    import importlib.metadata

    import justext

    assert importlib.metadata.version("justext") == "3.0.2"
    stoplist = justext.get_stoplist("English")
    ctx = webtext.session()
    ctx.register_record_batches("crawl", [sample_crawl.to_batches()])
    ours = {r["id"]: r["text"] for r in ctx.sql("SELECT id, justext(html, 'English') AS text FROM crawl").to_pylist()}
    compared = 0
    for page in sample_crawl.select(["id", "html"]).to_pylist():
        paragraphs = justext.justext(page["html"], stoplist)
        expected = "\n".join(p.text for p in paragraphs if not p.is_boilerplate)
        assert ours[page["id"]] == expected, page["id"]
        compared += 1
    assert compared == 156
