"""session(memory_limit=..., spill_dir=...): a GROUP BY over the limit spills and finishes, an
aggregate that cannot spill and a window over the limit stop with DataFusion's "Resources
exhausted", and a limit that is not a size is refused."""

from __future__ import annotations

import gc
import threading
from pathlib import Path

import pytest

import datafusion_webtext as webtext

GROUP_BY = """
SELECT count(*) AS groups, sum(n) AS rows_in FROM (
  SELECT k, count(*) AS n, max(s) AS s FROM (
    SELECT v % 1500000 AS k, repeat(md5(CAST(v AS VARCHAR)), 2) AS s
    FROM generate_series(1, 3000000) AS t(v))
  GROUP BY k)
"""


def files_under(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.is_file())


def test_a_group_by_over_the_memory_limit_spills_to_the_spill_dir_and_finishes(tmp_path: Path) -> None:
    most = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal most
        while not done.is_set():
            most = max(most, files_under(tmp_path))
            done.wait(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        ctx = webtext.session(memory_limit="64M", spill_dir=tmp_path)
        result = ctx.sql(GROUP_BY).to_pydict()
    finally:
        done.set()
        watcher.join()
    assert result == {"groups": [1500000], "rows_in": [3000000]}
    assert most > 0, "no spill file was written"
    del ctx
    gc.collect()
    assert files_under(tmp_path) == 0


def test_an_aggregate_that_cannot_spill_stops_at_the_limit() -> None:
    ctx = webtext.session(memory_limit=8 << 20)
    tokens = ", ".join(f"md5(CAST(v + {i} AS VARCHAR))" for i in range(6))
    query = (
        "SELECT cardinality(duplicate_ngrams(ngram_hashes(s, 2))) FROM "
        f"(SELECT concat_ws(' ', {tokens}) AS s FROM generate_series(1, 400000) AS t(v))"
    )
    with pytest.raises(Exception, match="Resources exhausted"):
        ctx.sql(query).collect()


def test_a_window_stops_at_the_limit() -> None:
    # minhash_union over one chain of 1,000,000 pairs holds about 48 MB of union-find state.
    ctx = webtext.session(memory_limit=8 << 20)
    query = (
        "SELECT count(u) AS n FROM (SELECT minhash_union(v, v + 1) OVER (ORDER BY v) AS u "
        "FROM generate_series(1, {}) AS t(v))"
    )
    assert ctx.sql(query.format(1000)).to_pydict() == {"n": [1000]}
    with pytest.raises(Exception, match="Resources exhausted.*minhash_union"):
        ctx.sql(query.format(1000000)).collect()


def test_a_memory_limit_that_is_not_a_size_is_refused() -> None:
    with pytest.raises(ValueError, match="'lots' is not a size"):
        webtext.session(memory_limit="lots")
    with pytest.raises(ValueError, match="more than 0"):
        webtext.session(memory_limit=0)
