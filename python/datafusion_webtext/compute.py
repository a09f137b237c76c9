"""The scalar functions called on Arrow data, outside any SQL: in a Spark ``mapInArrow``, a Ray
``map_batches``, a Polars or DuckDB job, a Hugging Face ``datasets.map``.

    >>> import pyarrow as pa
    >>> from datafusion_webtext import compute
    >>> html = pa.array(["<html><body><p>...</p></body></html>", None])
    >>> compute.justext(html, language="German")
    >>> compute.gopher_quality(compute.justext(html), min_doc_words=20)

Each function takes the SQL function's arguments in the same order, by position or by name: the
first is a ``pyarrow.Array``, a ``pyarrow.ChunkedArray`` or any object of the Arrow PyCapsule
protocol (``__arrow_c_array__``, ``__arrow_c_stream__``: Polars, nanoarrow, arro3...); the others
are Python values (constants, as SQL takes them) or arrays of the same length where SQL takes a
column. Keyword arguments that are not the function's arguments are its options (``key=value``
pairs of its ``options`` argument, ``True``/``False`` as ``true``/``false``), added after an
explicit ``options`` string.

The result is a ``pyarrow.Array`` (a ``pyarrow.ChunkedArray`` for chunked input, chunk by chunk;
a ``pyarrow.Scalar`` when every argument is a Python value) with the SQL function's rows, NULLs
and errors: a bad argument raises ``ValueError`` with the message a query's planning error gives.
The arrays cross the Arrow C data interface without a copy, and the function runs with the GIL
released, so threads calling functions at once run in parallel.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

import pyarrow as pa

from . import _native

__all__: list[str] = []

# Where SQL takes an optional argument before the options, a call that gives the options must give
# that argument too; these are the values SQL uses when the call stops before it. The others
# take NULL for their default (c4_badwords' language, decode_html's charset).
_OMITTED = {
    ("justext", "language"): "English",
    ("justext_extract", "language"): "English",
    ("justext_paragraphs", "language"): "English",
    ("stopword_density", "language"): "English",
    ("boilerpipe", "extractor"): "article",
    ("boilerpipe_blocks", "extractor"): "article",
}


def _option_text(function: str, keys: dict[str, Any]) -> str:
    items = []
    for key, value in keys.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        text = str(value)
        if "," in text or "=" in text:
            raise ValueError(f"{function}: option {key}={text!r}: a value cannot hold ',' or '='")
        items.append(f"{key}={text}")
    return ", ".join(items)


def _arguments(
    function: str, names: list[str], required: int, given: dict[str, Any], keys: dict[str, Any]
) -> list[Any]:
    """The SQL call's arguments: the options' keywords joined into its options argument, an
    omitted argument before a given one filled with SQL's default, trailing omitted ones dropped."""
    if keys:
        if "options" not in names:
            raise TypeError(f"{function}() takes no options, got {', '.join(sorted(keys))}")
        extra = _option_text(function, keys)
        given["options"] = extra if given.get("options") is None else f"{given['options']}, {extra}"
    values = [given.get(name) for name in names]
    while len(values) > required and values[-1] is None:
        values.pop()
    return [
        _OMITTED.get((function, name)) if value is None and i >= required else value
        for i, (name, value) in enumerate(zip(names, values))
    ]


def _is_arrow(value: Any) -> bool:
    return hasattr(value, "__arrow_c_array__") or hasattr(value, "__arrow_c_stream__")


def _column(value: Any) -> pa.Array | pa.ChunkedArray:
    if isinstance(value, (pa.Array, pa.ChunkedArray)):
        return value
    if hasattr(value, "__arrow_c_array__"):
        return pa.array(value)
    return pa.chunked_array(value)


def _call(function: str, args: list[Any]) -> Any:
    arrays = [i for i, a in enumerate(args) if _is_arrow(a)]
    if not arrays:
        return pa.array(_native.call_scalar(function, args))[0]
    if all(hasattr(args[i], "__arrow_c_array__") and not isinstance(args[i], pa.ChunkedArray) for i in arrays):
        return pa.array(_native.call_scalar(function, args))
    # Chunked input: the arrays as one table's columns, whose batches align their chunks
    # without a copy; one call per batch.
    table = pa.table({str(i): _column(args[i]) for i in arrays})
    batches = table.to_batches() or [pa.RecordBatch.from_pylist([], schema=table.schema)]
    chunks = []
    for batch in batches:
        call = list(args)
        for i in arrays:
            call[i] = batch.column(str(i))
        chunks.append(pa.array(_native.call_scalar(function, call)))
    if not table.num_rows:
        return pa.chunked_array([], type=chunks[0].type)
    return pa.chunked_array(chunks, type=chunks[0].type)


def _function(native: Any) -> Callable[..., Any]:
    name, names = native.name, native.arguments
    required = native.syntax.split("[")[0].count(",") + 1
    takes_options = "options" in names

    def call(*args: Any, **kwargs: Any) -> Any:
        if len(args) > len(names):
            raise TypeError(f"{name}() takes at most {len(names)} arguments ({len(args)} given)")
        given = dict(zip(names, args))
        keys = {}
        for key, value in kwargs.items():
            if key in names:
                if key in given:
                    raise TypeError(f"{name}() got multiple values for argument '{key}'")
                given[key] = value
            else:
                keys[key] = value
        missing = [n for n in names[:required] if n not in given]
        if missing:
            raise TypeError(f"{name}() missing required argument: {', '.join(missing)}")
        return _call(name, _arguments(name, names, required, given, keys))

    parameters = [
        inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=inspect.Parameter.empty if i < required else None)
        for i, n in enumerate(names)
    ]
    if takes_options:
        parameters.append(inspect.Parameter("keys", inspect.Parameter.VAR_KEYWORD))
    call.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    call.__name__ = call.__qualname__ = name
    call.__module__ = __name__
    call.__doc__ = native.doc
    return call


for _native_function in _native.functions():
    if isinstance(_native_function, _native.ScalarFunction):
        globals()[_native_function.name] = _function(_native_function)
        __all__.append(_native_function.name)
