"""The command's jobs called from Python (datafusion_webtext.jobs): the crate's own functions, the
same output as the command, their counts, their errors, and Ctrl-C."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import datafusion_webtext as webtext
from datafusion_webtext import jobs

from conftest import SAMPLE_CRAWL, run_webtext


def test_jobs_clean_writes_what_webtext_clean_writes_and_counts_its_pages(tmp_path):
    by_job = tmp_path / "job.parquet"
    by_command = tmp_path / "command.parquet"
    counts = jobs.clean(SAMPLE_CRAWL, by_job, extractor="extract-content", partitions=2)
    done = run_webtext("clean", str(SAMPLE_CRAWL), str(by_command), "--extractor", "extract-content")
    assert done.returncode == 0, done.stderr
    job, command = pq.read_table(by_job), pq.read_table(by_command)
    assert counts["pages"] == job.num_rows == pq.read_metadata(SAMPLE_CRAWL).num_rows
    assert counts["partitions"] == 2
    assert job.select(["url", "text", "kept_share"]).equals(command.select(["url", "text", "kept_share"]))


def test_jobs_clean_keeps_the_text_the_package_clean_returns(tmp_path):
    out = tmp_path / "cleaned.parquet"
    jobs.clean(SAMPLE_CRAWL, out, language="English")
    by_job = dict(zip(*pq.read_table(out, columns=["url", "text"]).to_pydict().values()))
    by_package = webtext.clean(str(SAMPLE_CRAWL), "English").select(["url", "text"]).to_pydict()
    assert by_job == dict(zip(by_package["url"], by_package["text"]))


def test_jobs_sql_writes_shards_counts_them_and_resumes(tmp_path):
    shards = f"{tmp_path / 'shards'}/"
    options = dict(table={"crawl": SAMPLE_CRAWL}, output=shards)
    counts = jobs.sql("SELECT url, byte_length(html) AS bytes FROM crawl", **options)
    rows = pq.read_metadata(SAMPLE_CRAWL).num_rows
    assert counts["rows_written"] == rows
    assert counts["shards"]["written"] >= 1
    again = jobs.sql("SELECT url, byte_length(html) AS bytes FROM crawl", **options)
    assert again["shards"] == {"written": 0, "skipped": counts["shards"]["written"], "rows": 0}


def test_bad_options_and_unknown_jobs_raise_value_error_naming_them(tmp_path):
    with pytest.raises(ValueError, match="--extractr"):
        jobs.clean(SAMPLE_CRAWL, tmp_path / "out.parquet", extractr="trafilatura")
    with pytest.raises(ValueError, match="boilerpipe"):
        jobs.clean(SAMPLE_CRAWL, tmp_path / "out.parquet", extractor="boilerpipe")
    with pytest.raises(ValueError, match="no job 'clear'"):
        jobs.run("clear")
    with pytest.raises(OSError):
        jobs.sql(file=tmp_path / "missing.sql")
    assert not (tmp_path / "out.parquet").exists()


def test_ctrl_c_stops_a_job_and_leaves_no_output(tmp_path):
    out = tmp_path / "never.parquet"
    # A query that would take hours; Ctrl-C (SIGINT to this process) a moment after it starts.
    timer = threading.Timer(0.5, signal.raise_signal, args=(signal.SIGINT,))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            jobs.sql("SELECT sum(value) AS total FROM generate_series(1, 100000000000)", output=out)
    finally:
        timer.cancel()
    assert list(tmp_path.iterdir()) == []


def test_jobs_stats_writes_datatroves_files_and_counts_the_documents(tmp_path):
    import pyarrow as pa

    documents = tmp_path / "documents.parquet"
    pq.write_table(pa.table({"text": ["one two", "three\nfour five"], "url": ["https://a.org/", "https://b.org/"]}),
                   documents)
    out = tmp_path / "stats"
    counts = jobs.stats(documents, out, blocks=["doc"], group_by="summary")
    assert counts == {"documents": 2, "files": 7}
    # Lengths 7 and 15: datatrove's MetricStats of the two, as json.dump writes it.
    assert (out / "summary" / "length" / "metric.json").read_text() == (
        '{"summary": {"total": 22, "n": 2, "mean": 11.0, "variance": 32.0, "std_dev": 5.656854249492381, '
        '"min": 7, "max": 15, "unit": "task"}}'
    )


def test_jobs_sentence_dedup_removes_a_repeated_span_and_counts_it(tmp_path):
    import pyarrow as pa

    documents = tmp_path / "documents.parquet"
    pq.write_table(pa.table({"doc_id": [1, 2], "text": ["One two. Three four. Five six.",
                                                         "Seven. One two. Three four. Five six. Eight nine."]}),
                   documents)
    out = tmp_path / "out.parquet"
    counts = jobs.sentence_dedup(documents, out, min_doc_words=0, min_num_sentences=0)
    assert counts == {"changed": 1, "removed_sentences": 3, "dropped": 0, "rows": 2}
    rows = sorted(pq.read_table(out).to_pylist(), key=lambda r: r["doc_id"])
    assert [r["text"] for r in rows] == ["One two. Three four. Five six.", "Seven. Eight nine."]


def test_jobs_exact_dedup_keeps_the_highest_priority_copy(tmp_path):
    import pyarrow as pa

    documents = tmp_path / "documents.parquet"
    pq.write_table(pa.table({"doc_id": [1, 2, 3], "text": ["same", "other", "same"], "p": [1, 1, 2]}), documents)
    out = tmp_path / "out.parquet"
    counts = jobs.exact_dedup(documents, out, priority="p", kept_only=True)
    assert counts == {"dropped": 1, "kept_with_copies": 1, "index_hashes": 0, "rows": 2}
    rows = sorted(pq.read_table(out).to_pylist(), key=lambda r: r["doc_id"])
    assert [(r["doc_id"], r["duplicate_count"]) for r in rows] == [(2, 0), (3, 1)]


def test_jobs_dedup_index_is_read_by_exact_dedup(tmp_path):
    import pyarrow as pa

    documents = tmp_path / "documents.parquet"
    pq.write_table(pa.table({"doc_id": [1, 2], "text": ["same", "other"]}), documents)
    (tmp_path / "index").mkdir()
    assert jobs.dedup_index(documents, tmp_path / "index" / "old.c4_index", of="exact") == {"hashes": 2}
    assert (tmp_path / "index" / "old.c4_index").stat().st_size == 16
    counts = jobs.exact_dedup(documents, tmp_path / "out.parquet", index=tmp_path / "index")
    assert counts == {"dropped": 2, "kept_with_copies": 0, "index_hashes": 2, "rows": 2}


def test_jobs_substring_dedup_removes_a_passage_from_both_copies(tmp_path):
    import pyarrow as pa

    tokenizer = Path(__file__).resolve().parents[2] / "eval" / "parity" / "exact_substrings_tokenizer.json"
    passage = ("the members of the committee agreed to postpone the renovation of the old library "
               "building until the spring, when the new funding from the regional council is expected "
               "to arrive and the contractors will have more time to prepare their estimates")
    documents = tmp_path / "documents.parquet"
    pq.write_table(pa.table({"doc_id": [1, 2], "text": [f"First page. {passage}. One end.",
                                                         f"Second page. {passage}. Other end."]}), documents)
    out = tmp_path / "out.parquet"
    counts = jobs.substring_dedup(documents, out, tokenizer=tokenizer, min_doc_words=0)
    assert counts["changed"] == 2 and counts["ranges"] == 2 and counts["rows"] == 2
    texts = [r["text"] for r in sorted(pq.read_table(out).to_pylist(), key=lambda r: r["doc_id"])]
    # The run both copies share starts at " page." and ends at the passage's full stop.
    assert texts == ["First One end.", "Second Other end."]
