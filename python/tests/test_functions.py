"""Every function from Python SQL: over a Parquet file and over in-memory pyarrow tables, with each
input type, NULLs, and the same results as the `webtext` command (the Rust side) on the same
file. Bad arguments raise the Rust side's one-line error as a Python exception."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import datafusion_webtext as webtext

from conftest import rust_error, rust_query

PARAGRAPH = (
    "The old harbour of the town was where the fishermen brought in their boats every morning, "
    "and it was there that the people of the town came to buy the fish they would have for "
    "dinner. Many of them still remember the smell of the sea and the noise of the market."
)
PAGE = (
    "<html><head><meta charset='utf-8'><title>The harbour</title></head><body>"
    "<div><a href='/'>Home</a> | <a href='/news'>News</a></div>"
    f"<p>{PARAGRAPH}</p><p>{PARAGRAPH.replace('morning', 'evening')}</p>"
    "<p>Copyright 2024. All rights reserved.</p></body></html>"
)
SHORT_PAGE = "<p>Café, naïve, 東京: not ASCII.</p>"
# id 2 is NULL, id 3 empty; id 4 repeats id 0, so the de-duplication functions find duplicates.
VALUES = [PAGE, SHORT_PAGE, None, "", PAGE]

INPUT_TYPES = {
    "string": pa.string(),
    "large_string": pa.large_string(),
    "string_view": pa.string_view(),
    "binary": pa.binary(),
}

# A byte-level BPE tokenizer.json of the repository's tests.
TOKENIZER = Path(__file__).resolve().parents[2] / "tests" / "data" / "tokenizer-bpe-400.json"

# Each function's call on column v; {duplicates} is the folder of duplicate n-grams.
HTML_CALLS = {
    "justext": "justext(v, 'English')",
    "justext_extract": "justext_extract(v, 'English')",
    "justext_paragraphs": "justext_paragraphs(v, 'English')",
    "boilerpipe": "boilerpipe(v, 'article')",
    "boilerpipe_blocks": "boilerpipe_blocks(v, 'article')",
    "html_title": "html_title(v)",
    "extract_metadata": "extract_metadata(v)",
    "extract_content": "extract_content(v)",
    "extract_content_result": "extract_content_result(v)",
    "decode_html": "decode_html(v)",
    "datatrove_decode": "datatrove_decode(v)",
    "libmagic_mime": "libmagic_mime(v)",
    "byte_length": "byte_length(v)",
    "trafilatura": "trafilatura(v, 'favor_precision=true')",
}


def _decont_index() -> str:
    """A decontamination index of one task, "quiz", holding the 2-grams of "what is two plus two"."""
    from datafusion_webtext import jobs

    folder = Path(tempfile.mkdtemp(prefix="webtext-test-decont-"))
    pq.write_table(pa.table({"text": ["what is two plus two"]}), folder / "quiz.parquet")
    jobs.decont_index(folder / "quiz.parquet", folder / "index", n_grams=2)
    return str(folder / "index")


DECONT_INDEX = _decont_index()
TEXT_CALLS = {
    "stopword_density": "stopword_density(v, 'English')",
    "ngram_hashes": "ngram_hashes(v, 3)",
    "content_hash": "content_hash(v)",
    "duplicate_fraction": "duplicate_fraction(v, 3, '{duplicates}')",
    "duplicate_positions": "duplicate_positions(v, 3, '{duplicates}')",
    "detect_language": "detect_language(v, 'top=2')",
    "fasttext_predict": "fasttext_predict(v, 'k=2')",
    "gopher_repetition": "gopher_repetition(v)",
    "gopher_quality": "gopher_quality(v, 'min_doc_words=5')",
    "c4_quality": "c4_quality(v, 'filter_no_terminal_punct=false')",
    "fineweb_quality": "fineweb_quality(v)",
    "url_filter": "url_filter(v, 'block_list=none')",
    "c4_badwords": "c4_badwords(v, 'en')",
    "pii_redact": "pii_redact(v)",
    "ftfy": "ftfy(v)",
    "remove_symbol_lines": "remove_symbol_lines(v, '|', chr(10))",
    "token_count": f"token_count(v, 'tokenizer={TOKENIZER}')",
    "minhash": "minhash(v)",
    "minhash_bands": "minhash_bands(minhash(v, 'num_buckets=3, hashes_per_bucket=2'), 3, 2)",
    "jaccard": "jaccard(v, v)",
    "datatrove_stats": "datatrove_stats(v, 'doc, word')",
    "ngram_decontamination": f"ngram_decontamination(v, '{DECONT_INDEX}', 'n_grams=2')",
    "sentence_dedup_hashes": "sentence_dedup_hashes(v, 'n_sentences=1')",
    "sentence_dedup_filter": "sentence_dedup_filter(v, make_array(0), 'n_sentences=1, min_doc_words=0')",
    "exact_dedup_hash": "exact_dedup_hash(v, 'hash_fc=sha1')",
}
QUERIES = {
    **{name: f"SELECT id, {call} AS r FROM t ORDER BY id" for name, call in HTML_CALLS.items()},
    **{name: f"SELECT id, {call} AS r FROM t ORDER BY id" for name, call in TEXT_CALLS.items()},
    "duplicate_ngrams": "SELECT duplicate_ngrams(ngram_hashes(v, 3)) AS r FROM t",
    "onion_keep": "SELECT id, onion_keep(v, 3, 0.5) OVER (ORDER BY id) AS r FROM t ORDER BY id",
    "minhash_clusters": "SELECT minhash_clusters(id, minhash_bands(minhash(v), 14, 8)) AS r FROM t",
    "minhash_union": "SELECT id, minhash_union(id, id + 1) OVER (ORDER BY id) AS r FROM t ORDER BY id",
    "pii_redact_in_order": "SELECT id, pii_redact_in_order(v) OVER (ORDER BY id) AS r FROM t ORDER BY id",
    "trafilatura_in_order": "SELECT id, trafilatura_in_order(v) OVER (ORDER BY id) AS r FROM t ORDER BY id",
    "bloom_filter_keep": "SELECT id, bloom_filter_keep(v, 'm_bytes=65535, k=3, n_grams=2') OVER (ORDER BY id) AS r "
    "FROM t ORDER BY id",
    "minhash_union_clusters": "SELECT minhash_union_clusters(u) AS r FROM "
    "(SELECT minhash_union(id, id + 1) OVER (ORDER BY id) AS u FROM t)",
}
TEXT_ONLY = set(TEXT_CALLS) | {
    "duplicate_ngrams", "onion_keep", "minhash_clusters", "pii_redact_in_order", "bloom_filter_keep",
}


def test_every_function_is_exported_with_its_documentation():
    assert set(QUERIES) == set(webtext.FUNCTIONS)
    for name, function in webtext.FUNCTIONS.items():
        assert getattr(webtext, name) is function
        assert function.__doc__ and f"{name}(" in function.__doc__, name
    assert "Removes boilerplate" in webtext.justext.__doc__


def input_table(input_type: pa.DataType) -> pa.Table:
    values = [v.encode() if v is not None and pa.types.is_binary(input_type) else v for v in VALUES]
    return pa.table({"id": pa.array(range(len(VALUES)), pa.int64()), "v": pa.array(values, input_type)})


@pytest.fixture(scope="module")
def duplicates(tmp_path_factory) -> Path:
    """The duplicate 3-grams of the input's text, written by duplicate_ngrams from Python."""
    folder = tmp_path_factory.mktemp("duplicates")
    ctx = webtext.session()
    ctx.register_record_batches("t", [input_table(pa.string()).to_batches()])
    ctx.sql(
        f"COPY (SELECT unnest(duplicate_ngrams(ngram_hashes(v, 3))) AS h FROM t) "
        f"TO '{folder}/range-0-of-1.parquet' STORED AS PARQUET"
    ).collect()
    return folder


COERCION = "user-defined coercion failed with: "


def assert_same_error(python: str, rust: str) -> None:
    """The Python exception says what the `webtext` command says.

    A function's own planning error is one line, the same but for the prefixes the hosts add:
    "FFI error: " (datafusion-ffi, on what crosses the boundary) and "DataFusion error: "
    (datafusion-python, on an error raised while the query runs). A refused input type is DataFusion's coercion
    error around the function's one-line reason; across the boundary DataFusion wraps it twice and
    lists the candidate signatures on lines of their own (the command joins its lines): the reason
    and the list are the same.
    """
    if COERCION not in rust:
        assert "\n" not in python, python
        assert python.removeprefix("DataFusion error: ").removeprefix("FFI error: ") == rust
        return
    python_reason = python.rsplit(COERCION, 1)[1]
    rust_reason = rust.rsplit(COERCION, 1)[1]
    lines = [line.strip() for line in python_reason.splitlines() if line.strip()]
    assert " ".join(lines) == rust_reason


def rows(table: pa.Table) -> list[dict]:
    return table.to_pylist()


@pytest.mark.parametrize("type_name", INPUT_TYPES)
@pytest.mark.parametrize("function", QUERIES)
def test_function_over_parquet_and_memory_equals_rust(function, type_name, tmp_path, duplicates):
    table = input_table(INPUT_TYPES[type_name])
    parquet = tmp_path / "t.parquet"
    pq.write_table(table, parquet)
    sql = QUERIES[function].format(duplicates=duplicates)
    if type_name == "binary" and function in TEXT_ONLY:
        # Text functions refuse bytes, with the Rust side's message.
        ctx = webtext.session()
        ctx.register_parquet("t", str(parquet))
        with pytest.raises(Exception) as raised:
            ctx.sql(sql).collect()
        assert_same_error(str(raised.value), rust_error(sql.replace("FROM t", f"FROM '{parquet}'")))
        assert "argument 1 (text) must be a string column, got BinaryView" in str(raised.value)
        return
    rust = rows(rust_query(tmp_path, {"t": parquet}, sql))

    from_parquet = webtext.session()
    from_parquet.register_parquet("t", str(parquet))
    assert rows(from_parquet.sql(sql).to_arrow_table()) == rust

    in_memory = webtext.session()
    in_memory.register_record_batches("t", [table.to_batches()])
    assert rows(in_memory.sql(sql).to_arrow_table()) == rust

    if function in HTML_CALLS or function in TEXT_CALLS:
        null_row = next(r for r in rust if r["id"] == 2)
        assert null_row["r"] is None, f"{function}(NULL) is not NULL"


def test_the_input_types_give_the_same_results(duplicates):
    """String, large string, string view and UTF-8 bytes of the same pages: the same answers."""
    results = {}
    for type_name, input_type in INPUT_TYPES.items():
        ctx = webtext.session()
        ctx.register_record_batches("t", [input_table(input_type).to_batches()])
        results[type_name] = {
            name: rows(ctx.sql(QUERIES[name]).to_arrow_table())
            for name in HTML_CALLS
        }
    for type_name in INPUT_TYPES:
        assert results[type_name] == results["string"], type_name


def test_the_functions_find_the_planted_duplicate(duplicates):
    ctx = webtext.session()
    ctx.register_record_batches("t", [input_table(pa.string()).to_batches()])
    fractions = ctx.sql(QUERIES["duplicate_fraction"].format(duplicates=duplicates)).to_pylist()
    by_id = {r["id"]: r["r"] for r in fractions}
    assert by_id[0] == by_id[4] == 1.0  # the page occurs twice: every 3-gram is a duplicate
    assert by_id[1] < 1.0  # the short page shares only markup words with the others
    keep = {r["id"]: r["r"] for r in ctx.sql(QUERIES["onion_keep"]).to_pylist()}
    # onion keeps the first copy's paragraphs and drops the second's.
    assert all(keep[0]) and not any(keep[4])


def test_dataframe_api_calls_the_functions():
    from datafusion import col, lit

    ctx = webtext.session()
    ctx.register_record_batches("t", [input_table(pa.string()).to_batches()])
    df = ctx.table("t").select(col("id"), webtext.html_title(col("v")).alias("title"))
    titles = {r["id"]: r["title"] for r in df.to_pylist()}
    assert titles[0] == "The harbour"
    assert titles[2] is None
    extract = webtext.justext(col("v"), lit("English")).alias("text")
    texts = ctx.table("t").select(extract).to_pylist()
    assert texts[0]["text"].split("\n")[0] == PARAGRAPH


def test_register_on_a_plain_context_sets_the_crate_options():
    from datafusion import SessionContext

    ctx = webtext.register(SessionContext())
    for key, value in webtext.SESSION_OPTIONS:
        shown = ctx.sql(f"SHOW {key}").to_pylist()
        assert shown[0]["value"] == value
    assert ctx.sql("SELECT html_title('<title>x</title>') AS t").to_pylist() == [{"t": "x"}]


def test_fineweb2_languages_lists_what_the_webtext_command_lists(tmp_path):
    """The table function over FFI gives the rows of the command's, and its languages filter."""
    ctx = webtext.session()
    sql = (
        "SELECT name, tokenizer, available, language_score FROM fineweb2_languages() "
        "ORDER BY name"
    )
    ours = ctx.sql(sql).to_arrow_table()
    assert ours.num_rows == 1929
    assert ours.to_pylist() == rust_query(tmp_path, {}, sql).to_pylist()
    quality = ctx.sql(
        "SELECT gopher_quality('der Hund und die Katze', 'language=' || name)['stop_words'] AS s "
        "FROM fineweb2_languages() WHERE name = 'deu_Latn'"
    ).to_pylist()
    assert quality == [{"s": 3}]


def test_functions_register_one_by_one():
    from datafusion import SessionContext

    ctx = SessionContext()
    ctx.register_udf(webtext.html_title)
    ctx.register_udaf(webtext.duplicate_ngrams)
    ctx.register_udwf(webtext.onion_keep)
    assert ctx.sql("SELECT html_title('<title>y</title>') AS t").to_pylist() == [{"t": "y"}]


BAD_CALLS = [
    "SELECT justext('x', 'Klingon')",
    "SELECT justext('x', 'English', 'length_low=abc')",
    "SELECT boilerpipe('x', 'nonsense')",
    "SELECT ngram_hashes('a b c', 0)",
    "SELECT html_title('<title>x</title>', 'bogus=1')",
    "SELECT duplicate_fraction('a', 7, '/no/such/folder')",
    "SELECT duplicate_ngrams(ngram_hashes('a b', 1), '3/2')",
    "SELECT onion_keep('a', 7, 2.0) OVER (ORDER BY 1)",
    "SELECT decode_html('x', 5)",
    "SELECT * FROM read_warc('/no/such/crawl.warc.gz')",
    "SELECT * FROM read_warc('x.warc', 'on_error=sometimes')",
]


@pytest.mark.parametrize("sql", BAD_CALLS)
def test_bad_arguments_raise_the_rust_error(ctx, sql):
    expected = rust_error(sql)
    with pytest.raises(Exception) as raised:
        ctx.sql(sql).collect()
    assert_same_error(str(raised.value), expected)


def hostile_pages() -> list[bytes | None]:
    return [
        b"<div>" * 100_000 + b"deep",
        b"\xff\xfe\x00<p>not \xc3 valid utf-8 \x80</p>",
        b"<html><body><p>" + b"word " * 2_000_000 + b"</p></body></html>",  # 10 MB
        b"<" * 10_000,
        None,
        b"",
    ]


def test_hostile_pages_give_values_or_nulls_never_a_crash(ctx):
    ctx.register_record_batches(
        "t", [[pa.record_batch({"v": pa.array(hostile_pages(), pa.binary())})]]
    )
    calls = ", ".join(f"{call} AS {name}" for name, call in HTML_CALLS.items())
    result = ctx.sql(f"SELECT {calls} FROM t").to_pylist()
    assert len(result) == len(hostile_pages())
    assert result[4]["justext"] is None
    assert result[1]["decode_html"] is not None


def test_a_datafusion_of_another_major_release_is_refused_at_import():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import datafusion; datafusion.__version__ = '54.1.0'; import datafusion_webtext"],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert "datafusion_webtext is built for datafusion 55.x, but datafusion 54.1.0 is installed" in done.stderr
