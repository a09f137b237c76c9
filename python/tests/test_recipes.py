"""The recipes of python/examples (PySpark, Ray Data, Polars, DuckDB, Hugging Face datasets), each
run as a user runs it on the sample crawl: the text it writes for each URL is the text `webtext
clean` writes. An engine that is not installed skips its recipe, unless WEBTEXT_REQUIRE_ENGINES=1
(CI) makes that a failure."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from conftest import REPO, SAMPLE_CRAWL, run_webtext

EXAMPLES = REPO / "python" / "examples"
# Each recipe and the module it needs.
RECIPES = {
    "spark_clean.py": "pyspark",
    "ray_clean.py": "ray",
    "polars_clean.py": "polars",
    "duckdb_clean.py": "duckdb",
    "datasets_clean.py": "datasets",
}


@pytest.fixture(scope="module")
def webtext_clean(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("webtext") / "cleaned.parquet"
    done = run_webtext("clean", str(SAMPLE_CRAWL), str(out))
    assert done.returncode == 0, done.stderr
    return {r["url"]: r["text"] for r in pq.read_table(out, columns=["url", "text"]).to_pylist()}


@pytest.mark.parametrize("recipe", RECIPES)
def test_the_recipe_keeps_what_webtext_clean_keeps(recipe, tmp_path, webtext_clean):
    if importlib.util.find_spec(RECIPES[recipe]) is None:
        if os.environ.get("WEBTEXT_REQUIRE_ENGINES") == "1":
            pytest.fail(f"{RECIPES[recipe]} is not installed, and WEBTEXT_REQUIRE_ENGINES=1")
        pytest.skip(f"{RECIPES[recipe]} is not installed")
    out = tmp_path / "out"
    extra = [str(tmp_path / "cache")] if recipe == "datasets_clean.py" else []
    # Ray's servers listen on the loopback interface only when it believes it runs on one machine
    # (measured with ss: without this, raylet and gcs_server listen on every interface).
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "PYTHONPATH": str(EXAMPLES),
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    }
    # In a session of its own, so that a recipe past its time limit is stopped with every process
    # its engine started (Spark's JVM, Ray's daemons).
    recipe_process = subprocess.Popen(
        [sys.executable, str(EXAMPLES / recipe), str(SAMPLE_CRAWL), str(out), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        start_new_session=True,
    )
    try:
        _, stderr = recipe_process.communicate(timeout=600)
    finally:
        try:
            os.killpg(recipe_process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert recipe_process.returncode == 0, stderr[-3000:]
    rows = pq.read_table(out, columns=["url", "text"]).to_pylist()
    assert len(rows) == len(webtext_clean) == 156
    assert {r["url"]: r["text"] for r in rows} == webtext_clean
