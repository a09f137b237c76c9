"""datafusion_webtext.compute: every scalar function called on pyarrow arrays gives what the SQL
function gives on the same rows (every input type, NULLs, errors), options as keywords, chunked
arrays chunk by chunk, constants alone as a scalar, and the GIL released while a function runs."""

from __future__ import annotations

import threading
import time

import pyarrow as pa
import pytest

import datafusion_webtext as webtext
from datafusion_webtext import compute

from conftest import rust_error
from test_functions import (  # noqa: F401
    DECONT_INDEX, HTML_CALLS, INPUT_TYPES, PAGE, TEXT_CALLS, TOKENIZER, VALUES, duplicates,
)

# Each SQL call of test_functions as compute makes it, options given as keywords where the SQL
# gives an options string, to check the keywords' translation too.
COMPUTE_CALLS = {
    "justext": lambda v, d: compute.justext(v, "English"),
    "justext_extract": lambda v, d: compute.justext_extract(v, language="English"),
    "justext_paragraphs": lambda v, d: compute.justext_paragraphs(v, "English"),
    "boilerpipe": lambda v, d: compute.boilerpipe(v, "article"),
    "boilerpipe_blocks": lambda v, d: compute.boilerpipe_blocks(v, extractor="article"),
    "html_title": lambda v, d: compute.html_title(v),
    "extract_metadata": lambda v, d: compute.extract_metadata(v),
    "extract_content": lambda v, d: compute.extract_content(v),
    "extract_content_result": lambda v, d: compute.extract_content_result(v),
    "decode_html": lambda v, d: compute.decode_html(v),
    "datatrove_decode": lambda v, d: compute.datatrove_decode(v),
    "libmagic_mime": lambda v, d: compute.libmagic_mime(v),
    "byte_length": lambda v, d: compute.byte_length(v),
    "trafilatura": lambda v, d: compute.trafilatura(v, favor_precision=True),
    "stopword_density": lambda v, d: compute.stopword_density(v, "English"),
    "ngram_hashes": lambda v, d: compute.ngram_hashes(v, 3),
    "content_hash": lambda v, d: compute.content_hash(v),
    "duplicate_fraction": lambda v, d: compute.duplicate_fraction(v, 3, str(d)),
    "duplicate_positions": lambda v, d: compute.duplicate_positions(v, n=3, duplicates=str(d)),
    "detect_language": lambda v, d: compute.detect_language(v, top=2),
    "fasttext_predict": lambda v, d: compute.fasttext_predict(v, k=2),
    "gopher_repetition": lambda v, d: compute.gopher_repetition(v),
    "gopher_quality": lambda v, d: compute.gopher_quality(v, min_doc_words=5),
    "c4_quality": lambda v, d: compute.c4_quality(v, filter_no_terminal_punct=False),
    "fineweb_quality": lambda v, d: compute.fineweb_quality(v),
    "url_filter": lambda v, d: compute.url_filter(v, options="block_list=none"),
    "c4_badwords": lambda v, d: compute.c4_badwords(v, "en"),
    "pii_redact": lambda v, d: compute.pii_redact(v),
    "ftfy": lambda v, d: compute.ftfy(v),
    "remove_symbol_lines": lambda v, d: compute.remove_symbol_lines(v, "|", "\n"),
    "token_count": lambda v, d: compute.token_count(v, tokenizer=str(TOKENIZER)),
    "minhash": lambda v, d: compute.minhash(v),
    "minhash_bands": lambda v, d: compute.minhash_bands(
        compute.minhash(v, num_buckets=3, hashes_per_bucket=2), 3, 2
    ),
    "jaccard": lambda v, d: compute.jaccard(v, v),
    "datatrove_stats": lambda v, d: compute.datatrove_stats(v, "doc, word"),
    "ngram_decontamination": lambda v, d: compute.ngram_decontamination(v, DECONT_INDEX, n_grams=2),
    "sentence_dedup_hashes": lambda v, d: compute.sentence_dedup_hashes(v, n_sentences=1),
    "sentence_dedup_filter": lambda v, d: compute.sentence_dedup_filter(
        v, pa.array([[0]] * len(v), pa.list_(pa.int64())), n_sentences=1, min_doc_words=0
    ),
    "exact_dedup_hash": lambda v, d: compute.exact_dedup_hash(v, hash_fc="sha1"),
}
CALLS = {**HTML_CALLS, **TEXT_CALLS}
TEXT_ONLY = set(TEXT_CALLS)


def column(input_type: pa.DataType) -> pa.Array:
    values = [v.encode() if v is not None and pa.types.is_binary(input_type) else v for v in VALUES]
    return pa.array(values, input_type)


def sql_result(call: str, values: pa.Array) -> pa.Array:
    ctx = webtext.session()
    ctx.register_record_batches("t", [[pa.record_batch({"id": pa.array(range(len(values))), "v": values})]])
    return ctx.sql(f"SELECT {call} AS r FROM t ORDER BY id").to_arrow_table().column("r").combine_chunks()


def test_every_scalar_function_is_in_compute_with_its_documentation():
    scalars = {name for name, f in webtext.FUNCTIONS.items() if type(f).__name__ == "ScalarUDF"}
    assert set(compute.__all__) == scalars == set(COMPUTE_CALLS)
    assert compute.justext.__doc__ == webtext.justext.__doc__
    assert str(compute.justext.__signature__) == "(html, language=None, options=None, **keys)"
    assert str(compute.byte_length.__signature__) == "(value)"
    assert str(compute.ngram_hashes.__signature__) == "(text, n, options=None, **keys)"


@pytest.mark.parametrize("type_name", INPUT_TYPES)
@pytest.mark.parametrize("function", COMPUTE_CALLS)
def test_compute_equals_the_sql_function(function, type_name, duplicates):
    values = column(INPUT_TYPES[type_name])
    call = CALLS[function].format(duplicates=duplicates)
    if type_name == "binary" and function in TEXT_ONLY:
        with pytest.raises(ValueError) as raised:
            COMPUTE_CALLS[function](values, duplicates)
        assert "argument 1 (text) must be a string column, got Binary" in str(raised.value)
        with pytest.raises(Exception) as sql_raised:
            sql_result(call, values)
        assert "argument 1 (text) must be a string column, got Binary" in str(sql_raised.value)
        return
    result = COMPUTE_CALLS[function](values, duplicates)
    assert isinstance(result, pa.Array)
    expected = sql_result(call, values)
    assert result.type == expected.type
    assert result.to_pylist() == expected.to_pylist()
    if function != "jaccard":
        assert result[2].as_py() is None, f"{function}(NULL) is not NULL"


def test_an_omitted_argument_before_the_options_is_sqls_default():
    values = column(pa.string())
    for name, function in webtext.FUNCTIONS.items():
        native = getattr(compute, name, None)
        syntax = function.__doc__.split("SQL: ``")[1].split("``")[0]
        if native is None or "[, options]]" not in syntax or syntax.count("[") != 2:
            continue
        first = syntax.split("(")[1].split(" ")[0]
        # on_error=null is every function's default: the call equals SQL's call without arguments.
        result = native(values, on_error="null")
        assert result.to_pylist() == sql_result(f"{name}(v)", values).to_pylist(), (name, first)


def test_options_are_keywords_after_an_options_string():
    values = column(pa.string())
    both = compute.justext(values, "English", "length_low=30", max_link_density=0.1)
    sql = sql_result("justext(v, 'English', 'length_low=30, max_link_density=0.1')", values)
    assert both.to_pylist() == sql.to_pylist()
    flags = compute.c4_quality(values, filter_no_terminal_punct=False, filter_lorem_ipsum=True)
    sql = sql_result("c4_quality(v, 'filter_no_terminal_punct=false, filter_lorem_ipsum=true')", values)
    assert flags.to_pylist() == sql.to_pylist()


def test_bad_arguments_raise_the_sql_functions_errors():
    values = column(pa.string())
    cases = [
        (lambda: compute.justext(values, "Klingon"), "SELECT justext('x', 'Klingon')"),
        (lambda: compute.justext(values, no_such_key=1), "SELECT justext('x', 'English', 'no_such_key=1')"),
        (lambda: compute.ngram_hashes(values, 0), "SELECT ngram_hashes('x', 0)"),
        (lambda: compute.gopher_quality(values, min_doc_words="many"), "SELECT gopher_quality('x', 'min_doc_words=many')"),
    ]
    for call, sql in cases:
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) == rust_error(sql).removeprefix("Error during planning: ")
    with pytest.raises(TypeError, match="takes no options"):
        compute.byte_length(values, on_error="null")
    with pytest.raises(TypeError, match="missing required argument: n"):
        compute.ngram_hashes(values)
    with pytest.raises(TypeError, match=r"argument 2 must be an Arrow array .* got dict"):
        compute.justext(values, {"language": "English"})
    with pytest.raises(ValueError, match="differ in length"):
        compute.jaccard(values, values.slice(1))
    with pytest.raises(ValueError, match="cannot hold"):
        compute.justext(values, stoplist="a,b")


def test_chunked_arrays_are_called_chunk_by_chunk():
    values = column(pa.string())
    chunked = pa.chunked_array([values.slice(0, 2), values.slice(2)])
    result = compute.justext(chunked)
    assert isinstance(result, pa.ChunkedArray) and result.num_chunks == 2
    assert result.to_pylist() == compute.justext(values).to_pylist()
    # Two chunked arguments with other boundaries are aligned without a copy.
    other = pa.chunked_array([values.slice(0, 3), values.slice(3)])
    assert compute.jaccard(chunked, other).to_pylist() == compute.jaccard(values, values).to_pylist()
    empty = compute.justext(pa.chunked_array([], pa.string()))
    assert isinstance(empty, pa.ChunkedArray) and len(empty) == 0 and empty.type == pa.string()


def test_any_arrow_capsule_object_is_taken():
    class Capsules:
        """An array known only by the PyCapsule protocol, as Polars or nanoarrow hand one over."""

        def __init__(self, array):
            self.array = array

        def __arrow_c_array__(self, requested_schema=None):
            return self.array.__arrow_c_array__(requested_schema)

    values = column(pa.large_string())
    assert compute.justext(Capsules(values)).to_pylist() == compute.justext(values).to_pylist()


def test_constants_alone_give_a_scalar():
    result = compute.justext(PAGE, "English")
    assert isinstance(result, pa.Scalar)
    assert result.as_py() == sql_result("justext(v, 'English')", pa.array([PAGE])).to_pylist()[0]
    assert compute.byte_length(None).as_py() is None


def test_threads_call_at_once_with_the_same_results():
    values = pa.array([PAGE.replace("harbour", f"harbour {i}") for i in range(400)])
    alone = compute.justext(values)
    results = [None] * 4

    def run(i):
        results[i] = compute.justext(values)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r.equals(alone) for r in results)


def test_the_gil_is_released_while_a_function_runs():
    """A Python thread that wakes every millisecond keeps waking while compute.justext runs on a
    large array: were the GIL held for the whole call, its longest pause would be the call."""
    values = pa.array([PAGE.replace("harbour", f"harbour {i}") for i in range(30000)])
    done = threading.Event()
    wakes: list[float] = []

    def wake():
        while not done.is_set():
            wakes.append(time.perf_counter())
            time.sleep(0.001)

    waker = threading.Thread(target=wake)
    waker.start()
    time.sleep(0.05)
    start = time.perf_counter()
    compute.justext(values)
    end = time.perf_counter()
    done.set()
    waker.join()
    assert end - start > 0.2, "the call is too short to tell"
    during = [start] + [t for t in wakes if start < t < end] + [end]
    longest_pause = max(b - a for a, b in zip(during, during[1:]))
    assert longest_pause < (end - start) / 2, (longest_pause, end - start)
