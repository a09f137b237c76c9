"""Web-corpus cleaning as SQL in datafusion-python.

jusText and boilerpipe boilerplate removal, stopword density, n-gram hashing, onion's paragraph
de-duplication and WARC tables, as DataFusion functions: the Rust crate datafusion-webtext,
handed to datafusion-python through datafusion-ffi.

    >>> import datafusion_webtext as webtext
    >>> ctx = webtext.session()
    >>> ctx.register_parquet("crawl", "crawl.parquet")
    >>> ctx.sql("SELECT url, justext(html, 'English') AS text FROM crawl").to_pandas()

``register(ctx)`` adds everything to a context of your own; each function is also a module
attribute (``webtext.justext``) for ``ctx.register_udf`` or the DataFrame API, with its
reference documentation as its docstring.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from typing import Any, Union

import pyarrow as pa
from datafusion import (
    AggregateUDF,
    DataFrame,
    RuntimeEnvBuilder,
    ScalarUDF,
    SessionConfig,
    SessionContext,
    WindowUDF,
)
import datafusion
from datafusion.user_defined import TableFunction

from . import _native

# The capsules are datafusion-ffi structs of one major release: another host would misread them.
_MAJOR = int(_native.DATAFUSION_VERSION.split(".")[0])
if datafusion.__version__.split(".")[0] != str(_MAJOR):
    raise ImportError(
        f"datafusion_webtext is built for datafusion {_MAJOR}.x, but datafusion "
        f"{datafusion.__version__} is installed: pip install 'datafusion>={_MAJOR},<{_MAJOR + 1}'"
    )

__version__: str = _native.__version__
#: The reference tools whose output the functions reproduce, with their versions.
REFERENCE_VERSIONS: str = _native.REFERENCE_VERSIONS
#: The DataFusion the functions were built with (the host must be datafusion-python of the same
#: major version).
DATAFUSION_VERSION: str = _native.DATAFUSION_VERSION

Function = Union[ScalarUDF, AggregateUDF, WindowUDF]


def _import(native: Any) -> Function:
    if isinstance(native, _native.ScalarFunction):
        function: Function = ScalarUDF.from_pycapsule(native)
    elif isinstance(native, _native.AggregateFunction):
        function = AggregateUDF.from_pycapsule(native)
    else:
        function = WindowUDF.from_pycapsule(native)
    # Documentation does not travel through datafusion-ffi: it comes from the native object.
    function.__doc__ = native.doc
    return function


#: Every scalar, aggregate and window function, by SQL name, in reference order.
FUNCTIONS: dict[str, Function] = {f.name: _import(f) for f in _native.functions()}
globals().update(FUNCTIONS)

#: The session options the crate's ``configure()`` sets, as (key, value) pairs.
SESSION_OPTIONS: list[tuple[str, str]] = _native.session_options()


def register(ctx: SessionContext) -> SessionContext:
    """Registers every function, the table functions ``read_warc()`` and ``fineweb2_languages()``,
    and ``STORED AS WARC`` on ``ctx``.

    Also sets the session options the Rust crate's ``configure()`` sets (``SESSION_OPTIONS``),
    with ``SET`` statements. Returns ``ctx``.
    """
    for function in FUNCTIONS.values():
        if isinstance(function, ScalarUDF):
            ctx.register_udf(function)
        elif isinstance(function, AggregateUDF):
            ctx.register_udaf(function)
        else:
            ctx.register_udwf(function)
    _register_table_functions(ctx)
    ctx.register_table_factory("WARC", _native.WarcTableFactoryExport())
    for key, value in SESSION_OPTIONS:
        ctx.sql(f"SET {key} = {value}").collect()
    return ctx


def _register_table_functions(ctx: SessionContext) -> None:
    # A table function is made for the context it serves: it takes that context's codec.
    for name in ("read_warc", "fineweb2_languages"):
        ctx.register_udtf(TableFunction(name, _native.TableFunctionExport(name), ctx))


def session(
    config: SessionConfig | None = None,
    *,
    memory_limit: int | str | None = None,
    spill_dir: str | os.PathLike[str] | None = None,
) -> SessionContext:
    """A new context with everything of :func:`register`, and the information schema on.

    Its queries run under a memory limit, as ``webtext --memory-limit`` does: beyond it, sorts,
    ``GROUP BY`` and joins spill to a private folder of ``spill_dir`` (the temporary directory by
    default) and finish; an aggregate that cannot spill (``duplicate_ngrams``,
    ``minhash_clusters`` over a whole table) stops the query with a "Resources exhausted" error.
    The window functions (``onion_keep``, ``minhash_union``) count their state against a limit of
    the same size of their own (datafusion-python gives a foreign function no handle to the
    session's pool), and stop with "Resources exhausted" beyond it.

    Args:
        config: the session's configuration (the crate's options are added to it).
        memory_limit: bytes, or a size such as ``"512M"``, ``"2G"``, ``"1.5G"`` (binary units);
            by default half of the machine's memory, or of its cgroup's limit.
        spill_dir: where spill files go.

    Raises:
        ValueError: ``memory_limit`` is not a size.
    """
    config = (config or SessionConfig()).with_information_schema(True)
    for key, value in SESSION_OPTIONS:
        config = config.set(key, value)
    if memory_limit is None:
        limit = _native.default_memory_limit()
    elif isinstance(memory_limit, str):
        limit = _native.parse_size(memory_limit)
    else:
        limit = int(memory_limit)
    if limit <= 0:
        raise ValueError("memory_limit must be more than 0 bytes")
    runtime = RuntimeEnvBuilder().with_fair_spill_pool(limit)
    if spill_dir is not None:
        runtime = runtime.with_temp_file_path(os.fspath(spill_dir))
    ctx = register(SessionContext(config, runtime))
    for native in _native.window_functions_within(limit):
        ctx.register_udwf(_import(native))
    return ctx


def register_input(ctx: SessionContext, name: str, path: str | os.PathLike[str]) -> SessionContext:
    """Registers the files at ``path`` as table ``name``, read by their extension, as
    ``webtext --table NAME=PATH`` reads them.

    ``path`` is a file, a folder or a glob, local or in an object store: ``s3://`` (AWS and
    S3-compatible servers; credentials, region, ``AWS_ENDPOINT_URL`` and ``AWS_PROFILE`` from the
    environment and ``~/.aws`` as the AWS tools read them; public buckets anonymously when no
    credentials are found), ``gs://``, ``az://``/``abfss://``, ``https://``. The table brings its
    store along: nothing else needs registering. Extensions: ``.parquet``; ``.warc``, ``.wet``,
    ``.wat`` (also ``.gz``, ``.zst``); ``.jsonl``, ``.ndjson``, ``.json``, ``.csv``, ``.tsv`` (also
    ``.gz``, ``.zst``, ``.bz2``, ``.xz``). Transient object-store errors are retried
    (``WEBTEXT_STORE_MAX_RETRIES``, ``WEBTEXT_STORE_RETRY_TIMEOUT``,
    ``WEBTEXT_STORE_REQUEST_TIMEOUT``). Returns ``ctx``.

    Raises:
        RuntimeError: the path names nothing, its extension is unknown, or its store cannot be
            reached (one line; credentials never appear in it).
    """
    ctx.register_table(name, _native.InputTable(os.fspath(path)))
    return ctx


Source = Union[str, "os.PathLike[str]", DataFrame, Any]


def clean(
    source: Source,
    language: str = "English",
    options: str | None = None,
    *,
    html_column: str = "html",
    http_charset: bool = False,
    extractor: str = "justext",
    ctx: SessionContext | None = None,
    output: str | os.PathLike[str] | None = None,
) -> pa.Table | int:
    """Cleans a crawl with jusText (or the crate's own extractor), as ``webtext clean`` does, and
    returns the result, or streams it into a Parquet file.

    Args:
        source: a Parquet, JSON lines or CSV file, folder or glob, local or in an object store
            (see :func:`register_input`); a WARC file, folder or glob (``.warc``,
            ``.warc.gz``, ``.wet``, ...: its HTML responses, as ``sql/warc_to_parquet.sql``
            selects them); a datafusion DataFrame; or any table datafusion's ``from_arrow`` takes
            (a pyarrow Table or RecordBatchReader, a pandas or Polars DataFrame).
        language: the stoplist, as in ``justext(html, language)`` (not used by
            ``extract_content``).
        options: the extractor's parameters, e.g. ``'length_low=50, max_link_density=0.25'``
            for jusText, ``'format=markdown'`` for ``extract_content``.
        html_column: the column holding the page (string or binary).
        http_charset: decode a page that names no usable charset of its own with its
            ``http_charset`` column (``decode_html(html, http_charset)``).
        extractor: ``"justext"`` (jusText 3.0.2, ``justext_extract``) or ``"extract_content"``
            (the crate's own, ``extract_content_result``), as ``webtext clean --extractor``.
        ctx: the context to run in (a new one from :func:`session` by default). Calls from
            several threads may share it: each reads its input under a name of its own.
        output: a Parquet file (zstd) to stream the result into, batch by batch, instead of
            collecting it in memory: for crawls larger than memory. It is written under a
            temporary name beside it and renamed once complete, so a failed run leaves nothing.

    Returns:
        Every input column (from WARC: every column of the selection but the page itself),
        then ``text`` (the kept paragraphs or segments joined by newlines; NULL where the page
        could not be processed) and ``kept_share`` (the share of the page's text kept); with
        ``output``, the number of rows written.

    Raises:
        ValueError: the input lacks the html column (or ``http_charset``), already has a
            ``text`` or ``kept_share`` column, or the extractor is not one of those.
    """
    function = _EXTRACTORS.get(extractor.replace("-", "_"))
    if function is None:
        raise ValueError(
            f"clean: unknown extractor '{extractor}'; known: {', '.join(_EXTRACTORS)}"
        )
    ctx = ctx or session()
    pages, from_warc = _pages(ctx, source)
    columns = pages.schema().names
    required = [html_column] + (["http_charset"] if http_charset else [])
    for name in required:
        if name not in columns:
            raise ValueError(f"clean: the input has no column '{name}' (it has {', '.join(columns)})")
    for name in ("text", "kept_share"):
        if name in columns:
            raise ValueError(
                f"clean: the input already has a column '{name}', which clean would write; "
                f"select the others first (SELECT * EXCLUDE ({name}) ...)"
            )
    html = html_column_sql = _sql_name(html_column)
    if http_charset:
        html = f"decode_html({html}, http_charset)"
    arguments = [html, _sql_string(language)] if function == "justext_extract" else [html]
    if options is not None:
        arguments.append(_sql_string(options))
    # A name of this call's own: two threads cleaning on one context must not read each
    # other's pages.
    view = f"{_INPUT_TABLE}_{uuid.uuid4().hex}"
    ctx.register_view(view, pages)
    # From WARC the page itself is not kept: the record's columns and the text.
    excluded = f"{_EXTRACTED}, {html_column_sql}" if from_warc else _EXTRACTED
    query = (
        f"SELECT * EXCLUDE ({excluded}), {_EXTRACTED}['text'] AS text, "
        f"{_EXTRACTED}['kept_share'] AS kept_share "
        f"FROM (SELECT *, {function}({', '.join(arguments)}) AS {_EXTRACTED} "
        f"FROM {view})"
    )
    try:
        result = ctx.sql(query)
        if output is None:
            return result.to_arrow_table()
        return _write_parquet(result, os.fspath(output))
    finally:
        ctx.deregister_table(view)


def _write_parquet(frame: DataFrame, path: str) -> int:
    """Streams ``frame`` into a Parquet file written beside ``path`` under a new temporary name,
    synced and renamed once complete; returns the rows written."""
    import pyarrow.parquet as pq

    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(
        prefix=f".{os.path.basename(path)}.webtext-", suffix=".tmp", dir=folder
    )
    rows = 0
    try:
        with os.fdopen(handle, "wb") as file:
            # Through the Arrow C stream: iterating execute_stream() instead holds memory in
            # proportion to the input (measured: +1.2 GB for a 768 MB crawl, against +0.5 GB).
            reader = pa.RecordBatchReader.from_stream(frame)
            with pq.ParquetWriter(file, reader.schema, compression="zstd") as writer:
                for batch in reader:
                    writer.write_batch(batch)
                    rows += batch.num_rows
            file.flush()
            os.fsync(file.fileno())
        # mkstemp's file is private (0600); the result gets a new file's usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return rows


# clean()'s extractors and the function giving each one's text and kept_share.
_EXTRACTORS = {"justext": "justext_extract", "extract_content": "extract_content_result"}

# The prefix of the view clean() reads its input through on the caller's context (each call adds
# a unique suffix), and its struct column.
_INPUT_TABLE = "datafusion_webtext_clean_input"
_EXTRACTED = "datafusion_webtext_extracted"


def _pages(ctx: SessionContext, source: Source) -> tuple[DataFrame, bool]:
    """The pages to clean, and whether they come from WARC files."""
    if isinstance(source, DataFrame):
        return source, False
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if _native.is_warc_path(path):
            # As `webtext clean`: a fault of an archive is skipped and counted, not fatal.
            _register_table_functions(ctx)
            warc = f"read_warc({_sql_string(path)}, 'on_error=skip')"
            return ctx.sql(f"WITH warc AS (SELECT * FROM {warc}) " + _native.warc_pages_sql()), True
        if "://" in path or not path.endswith(".parquet"):
            # Object stores and the other formats, through the crate's own reader.
            return ctx.read_table(_native.InputTable(path)), False
        return ctx.read_parquet(path), False
    return ctx.from_arrow(source), False


def _sql_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sql_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


from . import compute  # noqa: E402  (the functions on Arrow arrays, outside SQL)

__all__ = [
    "DATAFUSION_VERSION",
    "FUNCTIONS",
    "REFERENCE_VERSIONS",
    "SESSION_OPTIONS",
    "clean",
    "compute",
    "register",
    "register_input",
    "session",
    *FUNCTIONS,
]
