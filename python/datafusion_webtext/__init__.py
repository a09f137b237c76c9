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
from typing import Any, Union

import pyarrow as pa
from datafusion import (
    AggregateUDF,
    DataFrame,
    ScalarUDF,
    SessionConfig,
    SessionContext,
    WindowUDF,
)
from datafusion.user_defined import TableFunction

from . import _native

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
    """Registers every function, ``read_warc()`` and ``STORED AS WARC`` on ``ctx``.

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
    ctx.register_udtf(TableFunction("read_warc", _native.ReadWarcFunction(), ctx))
    ctx.register_table_factory("WARC", _native.WarcTableFactoryExport())
    for key, value in SESSION_OPTIONS:
        ctx.sql(f"SET {key} = {value}").collect()
    return ctx


def session(config: SessionConfig | None = None) -> SessionContext:
    """A new context with everything of :func:`register`, and the information schema on."""
    config = (config or SessionConfig()).with_information_schema(True)
    for key, value in SESSION_OPTIONS:
        config = config.set(key, value)
    return register(SessionContext(config))


Source = Union[str, "os.PathLike[str]", DataFrame, Any]


def clean(
    source: Source,
    language: str = "English",
    options: str | None = None,
    *,
    http_charset: bool = False,
    ctx: SessionContext | None = None,
) -> pa.Table:
    """Cleans a crawl with jusText, as ``webtext clean`` does, and returns the result.

    Args:
        source: a Parquet file, folder or glob with an ``html`` column; a WARC file, folder or
            glob (``.warc``, ``.warc.gz``, ``.wet``, ...: its HTML responses, as
            ``sql/warc_to_parquet.sql`` selects them); a datafusion DataFrame; or any table
            datafusion's ``from_arrow`` takes (pyarrow Table or RecordBatchReader, a pandas or
            Polars DataFrame).
        language: the stoplist, as in ``justext(html, language)``.
        options: jusText's parameters, e.g. ``'length_low=50, max_link_density=0.25'``.
        http_charset: decode each page with its ``http_charset`` column when the page names no
            usable charset of its own (``decode_html(html, http_charset)``).
        ctx: the context to run in (one from :func:`session` by default).

    Returns:
        Every input column but ``html``, then ``text`` (the kept paragraphs joined by
        newlines; NULL where the page could not be processed) and ``kept_share``.
    """
    ctx = ctx or session()
    table = _INPUT_TABLE
    if isinstance(source, DataFrame):
        pages = source
    elif isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if _native.is_warc_path(path):
            ctx.register_udtf(TableFunction("read_warc", _native.ReadWarcFunction(), ctx))
            pages = ctx.sql(
                f"WITH warc AS (SELECT * FROM read_warc({_sql_string(path)})) "
                + _native.warc_pages_sql()
            )
        else:
            pages = ctx.read_parquet(path)
    else:
        pages = ctx.from_arrow(source)
    ctx.register_view(table, pages)
    html = "decode_html(html, http_charset)" if http_charset else "html"
    arguments = [html, _sql_string(language)]
    if options is not None:
        arguments.append(_sql_string(options))
    query = (
        "SELECT * EXCLUDE (html, webtext_extracted), "
        "webtext_extracted['text'] AS text, webtext_extracted['kept_share'] AS kept_share "
        f"FROM (SELECT *, justext_extract({', '.join(arguments)}) AS webtext_extracted "
        f"FROM {table})"
    )
    try:
        return ctx.sql(query).to_arrow_table()
    finally:
        ctx.deregister_table(table)


# The view clean() reads its input through, on the caller's context.
_INPUT_TABLE = "datafusion_webtext_clean_input"


def _sql_string(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


__all__ = [
    "DATAFUSION_VERSION",
    "FUNCTIONS",
    "REFERENCE_VERSIONS",
    "SESSION_OPTIONS",
    "clean",
    "register",
    "session",
    *FUNCTIONS,
]
