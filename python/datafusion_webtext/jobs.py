"""The jobs of the ``webtext`` command as Python functions: the crate's own (``datafusion_webtext::jobs``),
with the command's options, output and guarantees.

Each job reads its input where the command reads it (Parquet, WARC, JSON lines or CSV; a file, a
folder, a glob or an object-store URL), writes its output whole or not at all (a folder of shards
resumes where an earlier run of the same job stopped), runs on every core (or on a cluster with
``cluster="df://HOST:PORT"``) under ``memory_limit``, and returns its counts::

    >>> from datafusion_webtext import jobs
    >>> jobs.clean("crawl/", "cleaned/", extractor="trafilatura", memory_limit="4G")
    {'pages': 3013, 'html_bytes': 187000000, 'failed_pages': 0, 'seconds': 21.4, 'partitions': 2}

Options are the command's, as keyword arguments (``webtext clean --help`` lists clean's):
``extractor="trafilatura"`` is ``--extractor trafilatura``, ``http_charset=True`` the flag
``--http-charset`` (False or None leaves an option out), a list repeats the option
(``language=["deu_Latn", "fra_Latn"]``) and a dict gives ``NAME=VALUE`` pairs
(``table={"crawl": "crawl.parquet"}``). A bad option raises ValueError naming it; a file that
cannot be read or written, OSError. Ctrl-C stops the job and removes what it had begun to write.
A job prints its progress and a summary on stderr, as the command does.
"""

from __future__ import annotations

import json
import os
from typing import Any

from . import _native

#: The jobs :func:`run` knows, by their command's name.
JOBS: tuple[str, ...] = tuple(_native.JOBS)


def run(command: str, *arguments: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """Runs the job of ``webtext COMMAND`` with its arguments (``IN``, ``OUT``, a query) and
    options; returns its counts."""
    return json.loads(_native.run_job(command, _words(arguments, options)))


def clean(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext clean IN OUT``: the crawl written back with the text the extractor keeps
    (``text``, ``kept_share``); OUT is a Parquet file or a folder of shards (ending in ``/``).

    Returns ``pages``, ``html_bytes``, ``failed_pages`` (pages that gave NULL text), ``seconds``
    and ``partitions`` (cleaning threads)."""
    return run("clean", input, output, **options)


def dedup(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext dedup IN OUT``: onion's paragraph de-duplication, one row per paragraph with
    whether it is kept. Returns ``documents`` (with paragraphs), ``paragraphs`` and ``kept``."""
    return run("dedup", input, output, **options)


def near_dedup(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext near-dedup IN OUT``: datatrove's MinHash near-duplicate removal, every document
    with its cluster and whether it is kept. Returns ``documents``, ``clustered``, ``removed``
    and ``rows`` (written)."""
    return run("near-dedup", input, output, **options)


def sentence_dedup(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext sentence-dedup IN OUT``: datatrove's sentence de-duplication, every document
    with its text without the spans of three sentences seen before, ``removed_sentences`` and
    ``kept``. Returns ``changed``, ``removed_sentences``, ``dropped`` and ``rows``."""
    return run("sentence-dedup", input, output, **options)


def exact_dedup(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext exact-dedup IN OUT``: datatrove's exact de-duplication, every document with
    ``kept`` (false for a copy of a text kept elsewhere) and ``duplicate_count``. Returns
    ``dropped``, ``kept_with_copies``, ``index_hashes`` and ``rows``."""
    return run("exact-dedup", input, output, **options)


def substring_dedup(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext substring-dedup IN OUT``: datatrove's exact-substring de-duplication (Lee et
    al.'s suffix-array method): every document with its text without the token runs of
    ``length_threshold`` bytes (100: 50 tokens) that occur twice in the corpus, and ``kept``.
    ``tokenizer`` names a tokenizer.json (datatrove's default, gpt2, from the Hub's local cache).
    Returns ``sequence_bytes``, ``ranges``, ``changed``, ``dropped`` and ``rows``."""
    return run("substring-dedup", input, output, **options)


def dedup_index(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext dedup-index IN OUT --of exact|sentence``: the index of a corpus's text or span
    hashes that ``exact_dedup`` and ``sentence_dedup`` of another corpus read (``index=``), the
    file datatrove's ExactDedupBuildIndex or SentenceDedupBuildIndex writes. Returns
    ``hashes``."""
    return run("dedup-index", input, output, **options)


def sql(query: str | None = None, **options: Any) -> dict[str, Any]:
    """``webtext sql QUERY``: the statements run in order, each result printed on stdout, or the
    last one written to ``output`` (a Parquet file, or a folder of shards, one per shard of the
    input: resumable). Returns ``rows_written`` and, for a folder, ``shards`` (``written``,
    ``skipped``, ``rows``)."""
    return run("sql", *([] if query is None else [query]), **options)


def fineweb(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext fineweb IN OUT``: FineWeb's recipe (datatrove 0.10.1's examples/fineweb.py) over
    WARC files. Returns ``filtered`` (the filtering stage's shards), ``kept`` and ``steps`` (the
    documents each step removed, and why)."""
    return run("fineweb", input, output, **options)


def fineweb2(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext fineweb2 IN OUT --language L``: FineWeb-2's recipe per language. Returns each
    language's table of the documents each step removed."""
    return run("fineweb2", input, output, **options)


def report(input: str | os.PathLike[str], output: str | os.PathLike[str] = "report.html",
           **options: Any) -> dict[str, Any]:
    """``webtext report IN OUT``: one HTML page of charts about a crawl and its cleaning, written
    whole. Returns no counts (an empty dict): they are on the page."""
    return run("report", input, output, **options)


def stats(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext stats IN OUT``: datatrove's statistics of a table of documents, its merged
    ``{group}/{stat}/metric.json`` files and ``summary.parquet``. Returns ``documents`` and
    ``files``."""
    return run("stats", input, output, **options)


def decont_index(input: str | os.PathLike[str], output: str | os.PathLike[str], **options: Any) -> dict[str, Any]:
    """``webtext decont-index IN OUT``: datatrove's n-gram decontamination index of evaluation
    examples (label, query and task columns), a folder of ``{task}.index.hashes`` files for
    ``ngram_decontamination``. Returns ``examples`` and ``tasks`` (each task's n-gram count)."""
    return run("decont-index", input, output, **options)


def _words(arguments: tuple[Any, ...], options: dict[str, Any]) -> list[str]:
    """The words a user would type after ``webtext COMMAND``: the options as ``--name=value``
    (a value may start with '-'), then ``--`` and the arguments (so may they)."""
    words: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(flag)
            continue
        if isinstance(value, dict):
            values = [f"{name}={_text(item)}" for name, item in value.items()]
        elif isinstance(value, (list, tuple)):
            values = [_text(item) for item in value]
        else:
            values = [_text(value)]
        words.extend(f"{flag}={item}" for item in values)
    if arguments:
        words.append("--")
        words.extend(_text(argument) for argument in arguments)
    return words


def _text(value: Any) -> str:
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)
