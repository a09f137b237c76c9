"""Shared fixtures: the repository's sample crawl, the `webtext` command (the Rust side the
Python results are compared with), and a configured context."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import datafusion_webtext as webtext

REPO = Path(__file__).resolve().parents[2]
SAMPLE_CRAWL = REPO / "examples" / "data" / "sample_crawl.parquet"


def webtext_command() -> Path:
    """The `webtext` binary of the same checkout (WEBTEXT_BIN, or cargo's debug build)."""
    path = Path(os.environ.get("WEBTEXT_BIN", REPO / "target" / "debug" / "webtext"))
    if not path.is_file():
        pytest.fail(f"no webtext binary at {path}: run `cargo build` or set WEBTEXT_BIN")
    return path


def run_webtext(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(webtext_command()), *args], capture_output=True, text=True, timeout=600
    )


def rust_query(tmp_path: Path, tables: dict[str, Path], sql: str) -> pa.Table:
    """The result of `sql` run by the `webtext` command, read back from the Parquet it writes."""
    out = tmp_path / f"rust-{abs(hash(sql))}.parquet"
    args = ["sql", "--output", str(out)]
    for name, path in tables.items():
        args += ["--table", f"{name}={path}"]
    done = run_webtext(*args, sql)
    assert done.returncode == 0, done.stderr
    return pq.read_table(out)


def rust_error(sql: str) -> str:
    """The one-line error the `webtext` command prints for `sql`, without its prefix."""
    done = run_webtext("sql", sql)
    assert done.returncode != 0, f"webtext accepted: {sql}"
    message = done.stderr.strip()
    assert "\n" not in message, message
    return message.removeprefix("webtext: error: ")


@pytest.fixture
def ctx():
    return webtext.session()


@pytest.fixture(scope="session")
def sample_crawl() -> pa.Table:
    return pq.read_table(SAMPLE_CRAWL)
