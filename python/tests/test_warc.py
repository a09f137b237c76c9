"""WARC files from Python: read_warc() and STORED AS WARC (a foreign table function and a foreign
table factory) give the records the `webtext` command gives."""

from __future__ import annotations

import os

import pytest

import datafusion_webtext as webtext

from conftest import REPO, rust_query

SHARED = os.environ.get("WEBTEXT_SHARED", str(REPO.parent / "shared"))
WHIRLWIND = os.path.join(SHARED, "eval", "warc", "files", "whirlwind")
RECORDS = (
    "SELECT file, \"offset\", warc_type, url, http_status, http_charset, "
    "byte_length(payload) AS payload_bytes FROM {table} ORDER BY file, \"offset\""
)


@pytest.fixture
def whirlwind() -> str:
    if not os.path.isdir(WHIRLWIND):
        pytest.fail(f"no {WHIRLWIND}: set WEBTEXT_SHARED to the shared folder")
    return WHIRLWIND + "/"


def test_read_warc_and_stored_as_warc_give_the_commands_records(tmp_path, whirlwind):
    rust = rust_query(tmp_path, {}, RECORDS.format(table=f"read_warc('{whirlwind}')")).to_pylist()
    assert len(rust) == 16  # WARC, WET and WAT of one capture, plain and gzip
    ctx = webtext.session()
    from_function = ctx.sql(RECORDS.format(table=f"read_warc('{whirlwind}')")).to_pylist()
    ctx.sql(f"CREATE EXTERNAL TABLE w STORED AS WARC LOCATION '{whirlwind}'").collect()
    from_table = ctx.sql(RECORDS.format(table="w")).to_pylist()
    assert from_function == from_table == rust


def test_the_warc_type_filter_and_skip_option_work_through_the_boundary(whirlwind):
    ctx = webtext.session()
    ctx.sql(
        f"CREATE EXTERNAL TABLE w STORED AS WARC LOCATION '{whirlwind}' OPTIONS ('on_error' 'skip')"
    ).collect()
    counts = ctx.sql(
        "SELECT warc_type, count(*) AS n FROM w WHERE warc_type IN ('response', 'request') "
        "GROUP BY warc_type ORDER BY warc_type"
    ).to_pylist()
    assert counts and all(r["warc_type"] in ("request", "response") for r in counts)


def test_a_file_that_is_not_warc_fails_or_is_skipped(tmp_path):
    bad = tmp_path / "bad.warc"
    bad.write_bytes(b"this is not a WARC file\n")
    ctx = webtext.session()
    with pytest.raises(Exception) as raised:
        ctx.sql(f"SELECT count(*) FROM read_warc('{bad}')").collect()
    assert "bad.warc" in str(raised.value)
    skipped = ctx.sql(f"SELECT count(*) AS n FROM read_warc('{bad}', 'on_error=skip')").to_pylist()
    assert skipped == [{"n": 0}]
