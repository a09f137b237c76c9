"""Object stores from Python, against a real S3-protocol server process (PyPI's moto, started on
127.0.0.1 by the fixture with a time limit and stopped after the test): register_input(), read_warc(),
STORED AS WARC and clean() read s3:// as they read the same local files. Without the server (set
WEBTEXT_S3_SERVER to its moto_server, or put it on PATH) the tests skip; with WEBTEXT_REQUIRE_S3=1
(CI) they fail instead."""

from __future__ import annotations

import gzip
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

import datafusion_webtext as webtext

SECRET = "webtext-python-test-secret"


def _server_program() -> str | None:
    program = os.environ.get("WEBTEXT_S3_SERVER") or shutil.which("moto_server")
    if program is None:
        message = "no S3 server: install PyPI's moto[server] and set WEBTEXT_S3_SERVER"
        if os.environ.get("WEBTEXT_REQUIRE_S3"):
            pytest.fail(message)
        pytest.skip(message)
    return program


@pytest.fixture
def s3(monkeypatch):
    """A moto server's endpoint, with the AWS settings of this process pointing at it."""
    program = _server_program()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        ["timeout", "600", program, "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the S3 server did not listen in 60 s"
                time.sleep(0.1)
        endpoint = f"http://127.0.0.1:{port}"
        for key in [k for k in os.environ if k.startswith("AWS_")]:
            monkeypatch.delenv(key)
        monkeypatch.setenv("AWS_ENDPOINT", endpoint)
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", "webtext-test-key")
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
        monkeypatch.setenv("AWS_REGION", "us-east-1")
        yield endpoint
    finally:
        # The whole group: the server and the `timeout` that limits it.
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def _put(endpoint: str, key: str, body: bytes) -> None:
    request = urllib.request.Request(
        f"{endpoint}/{key}",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/octet-stream"},
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 200, key


def _response(url: str, html: str) -> bytes:
    http = (
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(html.encode())}\r\n\r\n{html}"
    ).encode()
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{abs(hash(url)):032x}>\r\n"
        "WARC-Date: 2026-01-01T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"


def _crawl(pages: int) -> bytes:
    paragraph = (
        "This is the body of page {i}, a paragraph with enough words in it that jusText keeps it "
        "as good text: the weather was fine and the people in the town were happy, and they went "
        "out into the streets to talk with each other about all of the things that had happened."
    )
    return b"".join(
        _response(
            f"https://example.com/{i}",
            f"<html><body><h1>Page {i}</h1><p>{paragraph.format(i=i)}</p></body></html>",
        )
        for i in range(pages)
    )


def test_inputs_read_from_s3_give_the_rows_of_the_local_files(s3, tmp_path: Path):
    _put(s3, "lake", b"")
    lines = "".join(f'{{"url": "https://example.com/{i}", "text": "page {i}"}}\n' for i in range(30))
    local = tmp_path / "docs.jsonl.gz"
    local.write_bytes(gzip.compress(lines.encode()))
    _put(s3, "lake/docs/part-0.jsonl.gz", local.read_bytes())
    ctx = webtext.session()
    webtext.register_input(ctx, "local_docs", local)
    webtext.register_input(ctx, "s3_docs", "s3://lake/docs/")
    query = "SELECT count(*) AS n, min(url) AS first, sum(length(text)) AS chars FROM {}"
    expected = ctx.sql(query.format("local_docs")).to_pylist()
    assert expected[0]["n"] == 30
    assert ctx.sql(query.format("s3_docs")).to_pylist() == expected


def test_warc_from_s3_gives_the_local_records_and_clean_the_local_text(s3, tmp_path: Path):
    _put(s3, "lake", b"")
    archive = gzip.compress(_crawl(12))
    local = tmp_path / "crawl.warc.gz"
    local.write_bytes(archive)
    _put(s3, "lake/crawl/part-0.warc.gz", archive)
    url = "s3://lake/crawl/part-0.warc.gz"
    ctx = webtext.session()
    records = "SELECT url, byte_length(payload) AS bytes FROM {} ORDER BY url"
    expected = ctx.sql(records.format(f"read_warc('{local}')")).to_pylist()
    assert len(expected) == 12
    assert ctx.sql(records.format(f"read_warc('{url}')")).to_pylist() == expected
    ctx.sql("CREATE EXTERNAL TABLE w STORED AS WARC LOCATION 's3://lake/crawl/'").collect()
    assert ctx.sql(records.format("w")).to_pylist() == expected

    cleaned = webtext.clean(url).sort_by("url").select(["url", "text"]).to_pylist()
    assert cleaned == webtext.clean(str(local)).sort_by("url").select(["url", "text"]).to_pylist()
    by_url = {row["url"]: row["text"] for row in cleaned}
    assert "body of page 3," in by_url["https://example.com/3"]


def test_a_missing_object_is_one_line_without_the_secret(s3):
    _put(s3, "lake", b"")
    with pytest.raises(Exception) as raised:
        webtext.register_input(webtext.session(), "t", "s3://lake/missing.parquet")
    message = str(raised.value)
    assert "missing.parquet" in message
    assert SECRET not in message
