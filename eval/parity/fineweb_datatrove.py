"""FineWeb as datatrove 0.10.1 makes it, over WARC files: the oracle `webtext fineweb` is compared with.

    python fineweb_datatrove.py [--work DIR] [--compact] [--no-slow-pages] REPOSITORY OUT.parquet WARC...

(--work keeps datatrove's folders in DIR, and a second run with the same DIR starts after the
first stage.)

Runs the pipeline of datatrove's `examples/fineweb.py` (0.10.1) with its LocalPipelineExecutor,
one task per stage as the example's stages are split:

    1. WarcReader -> URLFilter -> Trafilatura(favour_precision=True) -> LanguageFilter ->
       GopherRepetitionFilter -> GopherQualityFilter -> C4QualityFilter(filter_no_terminal_punct=False)
       -> FineWebQualityFilter -> JsonlWriter, every filter with its exclusion writer;
    2-3. MinhashDedupSignature -> MinhashDedupBuckets -> MinhashDedupCluster (FineWeb's MinhashConfig:
       SHA-1 at 64 bits, 14 buckets of 8 hashes, 5-grams);
    4. JsonlReader -> MinhashDedupFilter (with an exclusion writer) -> PIIFormatter -> JsonlWriter.

LanguageFilter is given languages=["en"]: FineWeb is English, and the example relied on the filter's
default, which was English until datatrove changed it to "any language" in June 2024 (after FineWeb
was made; 0.10.1's example, run as it is, keeps every language scoring over 0.65).

Differences from the example, each because this machine has no network, none changing a kept text:
TokensCounter (stage 4) is left out (it needs GPT-2's tokenizer from the Hub; it only adds the
metadata `token_count`); the language model is the repository's lid.176.ftz put into datatrove's
cache under the name of the lid.176.bin it would download (webtext's default model is the same
file); the URL filter's block list is the one the datatrove wheel ships. trafilatura is 2.3.1
(datatrove's `processing` extra pins older releases; webtext reproduces 2.3.1). The extractor's
per-document timeout is raised from 1 s to 600 s: a page that takes more than a second depends on
the machine, and the run reports how many pages took longer than 1 s here.

The oracles the repository keeps were made with --compact: eval/parity/fineweb_eval_warc.parquet
from the evaluation archive (../shared/eval/warc/make_eval_warc.py), and
eval/parity/fineweb_third_party.parquet from the files eval/parity/fineweb_third_party.txt lists
(under ../shared/eval/warc/files/, each given as GROUP_NAME, the path's '/' made '_', as CI names
them).

Writes OUT.parquet: one row per WARC record datatrove's reader made a document of, in the order
read: id (WARC-Record-ID), url, date, file (the WARC's base name), removed_by (NULL for a kept
document, else the step: url_filter, extraction, language, gopher_repetition, gopher_quality,
c4_quality, fineweb_quality, minhash), reason (the filter's reason; the language for the language
step), language and language_score (where the language filter ran), text_sha1 and text (the final
text of a kept document, UTF-8, and its SHA-1; utf8 says whether the record's payload was valid
UTF-8, which is how datatrove decodes it before guessing a charset; --compact leaves the text out, as in the oracle the
repository keeps: eval/parity/fineweb_eval_warc.parquet), and OUT.json with the counts per step,
the time of each stage and the versions.
"""

import glob
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "speed"))
from datatrove_assets import LID_176, fill_offline_cache  # noqa: E402

# datatrove's exclusion folders in examples/fineweb.py, with the step names webtext reports.
STEPS = [
    ("1_url", "url_filter"),
    ("2_non_english", "language"),
    ("3_gopher_rep", "gopher_repetition"),
    ("4_gopher_qual", "gopher_quality"),
    ("5_c4", "c4_quality"),
    ("6_fineweb_qual", "fineweb_quality"),
    ("7_minhash", "minhash"),
]
EXTRACTION_TIMEOUT = 600


def read_jsonl_folder(folder):
    import gzip

    documents = []
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.jsonl*"), recursive=True)):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as lines:
            documents.extend(json.loads(line) for line in lines)
    return documents


def stage_one(warcs, work):
    from datatrove.pipeline.extractors import Trafilatura
    from datatrove.pipeline.filters import (
        C4QualityFilter,
        FineWebQualityFilter,
        GopherQualityFilter,
        GopherRepetitionFilter,
        LanguageFilter,
        URLFilter,
    )
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers.jsonl import JsonlWriter

    removed = os.path.join(work, "removed")
    return [
        WarcReader(os.path.join(work, "warc")),
        URLFilter(exclusion_writer=JsonlWriter(f"{removed}/1_url")),
        Trafilatura(favour_precision=True, timeout=EXTRACTION_TIMEOUT),
        LanguageFilter(languages=["en"],
                       exclusion_writer=JsonlWriter(f"{removed}/2_non_english",
                                                    output_filename="${language}/${rank}.jsonl.gz")),
        GopherRepetitionFilter(exclusion_writer=JsonlWriter(f"{removed}/3_gopher_rep")),
        GopherQualityFilter(exclusion_writer=JsonlWriter(f"{removed}/4_gopher_qual")),
        C4QualityFilter(filter_no_terminal_punct=False, exclusion_writer=JsonlWriter(f"{removed}/5_c4")),
        FineWebQualityFilter(exclusion_writer=JsonlWriter(f"{removed}/6_fineweb_qual")),
        JsonlWriter(f"{work}/output"),
    ]


def minhash_stages(work):
    from datatrove.pipeline.dedup import MinhashDedupCluster, MinhashDedupFilter, MinhashDedupSignature
    from datatrove.pipeline.dedup.minhash import MinhashConfig, MinhashDedupBuckets
    from datatrove.pipeline.formatters import PIIFormatter
    from datatrove.pipeline.readers import JsonlReader
    from datatrove.pipeline.writers.jsonl import JsonlWriter
    from datatrove.utils.hashing import HashConfig

    config = MinhashConfig(hash_config=HashConfig(hash_fc="sha1", precision=64), num_buckets=14,
                           hashes_per_bucket=8, n_grams=5)
    minhash = os.path.join(work, "minhash")
    return [
        ("signatures", [JsonlReader(f"{work}/output"),
                        MinhashDedupSignature(output_folder=f"{minhash}/signatures", config=config)], 1),
        ("buckets", [MinhashDedupBuckets(input_folder=f"{minhash}/signatures", output_folder=f"{minhash}/buckets",
                                         config=MinhashConfig(hash_config=config.hash_config))],
         config.num_buckets),
        ("clusters", [MinhashDedupCluster(input_folder=f"{minhash}/buckets", output_folder=f"{minhash}/remove_ids",
                                          config=config)], 1),
        ("filter", [JsonlReader(f"{work}/output"),
                    MinhashDedupFilter(input_folder=f"{minhash}/remove_ids",
                                       exclusion_writer=JsonlWriter(f"{work}/removed/7_minhash")),
                    PIIFormatter(),
                    JsonlWriter(f"{work}/deduped_output")], 1),
    ]


def read_all(warcs, work):
    """Every document datatrove's reader makes of the WARC files, in its order."""
    from datatrove.pipeline.readers import WarcReader

    return list(WarcReader(os.path.join(work, "warc")).run(None, rank=0, world_size=1))


def run(executor_cls, name, pipeline, tasks, work, timings):
    start = time.perf_counter()
    executor_cls(pipeline=pipeline, tasks=tasks, workers=1, logging_dir=f"{work}/logs/{name}").run()
    timings[name] = round(time.perf_counter() - start, 2)


def collect(read, work):
    """One row per document read: where it went, and its final text if kept."""
    fate = {}
    for folder, step in STEPS:
        for doc in read_jsonl_folder(os.path.join(work, "removed", folder)):
            metadata = doc.get("metadata", {})
            reason = metadata.get("filter_reason")
            if step == "language":
                reason = metadata.get("language")
            fate[doc["id"]] = (step, reason, metadata)
    passed_language = {d["id"]: d.get("metadata", {}) for d in read_jsonl_folder(os.path.join(work, "output"))}
    kept = {d["id"]: d for d in read_jsonl_folder(os.path.join(work, "deduped_output"))}
    rows = []
    for doc in read:
        metadata = doc.metadata
        file = os.path.basename(metadata.get("file_path", ""))
        if doc.id in kept:
            step, reason, meta = None, None, kept[doc.id]["metadata"]
            text = kept[doc.id]["text"]
        elif doc.id in fate:
            step, reason, meta = fate[doc.id]
            text = None
        else:
            step, reason, meta, text = "extraction", "empty", {}, None
        meta = meta or passed_language.get(doc.id, {})
        rows.append({"id": doc.id, "url": metadata.get("url"), "date": metadata.get("date"), "file": file,
                     "removed_by": step, "reason": reason, "language": meta.get("language"),
                     "language_score": meta.get("language_score"), "text": text})
    return rows


def utf8_records(warcs):
    """The ids of the records whose payload is valid UTF-8 (datatrove decodes the others with the
    charset cchardet guesses)."""
    from warcio.archiveiterator import ArchiveIterator

    ids = set()
    for warc in warcs:
        with open(warc, "rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type not in ("response", "conversion"):
                    continue
                try:
                    record.content_stream().read().decode("utf-8")
                except UnicodeDecodeError:
                    continue
                ids.add(record.rec_headers["WARC-Record-ID"])
    return ids


def slow_pages(read):
    """How many pages trafilatura took more than 1 s to extract on this machine (datatrove's default
    timeout would have dropped them)."""
    from trafilatura import extract

    slow = 0
    for doc in read:
        start = time.perf_counter()
        extract(doc.text, favor_precision=True, include_comments=False, deduplicate=False)
        slow += time.perf_counter() - start > 1.0
    return slow


def main():
    arguments = sys.argv[1:]
    work_folder = None
    if arguments[:1] == ["--work"]:
        work_folder, arguments = arguments[1], arguments[2:]
    compact = arguments[:1] == ["--compact"]
    arguments = arguments[compact:]
    measure_slow_pages = arguments[:1] != ["--no-slow-pages"]
    arguments = arguments[not measure_slow_pages:]
    repository, out, warcs = arguments[0], arguments[1], arguments[2:]
    with tempfile.TemporaryDirectory(prefix="webtext-fineweb-oracle-") as scratch:
        work = work_folder or scratch
        # Before datatrove (and the Hub's client) is imported: it reads HF_HOME once.
        fill_offline_cache(os.path.abspath(repository), os.path.join(work, "hf_home"), [LID_176])
        from datatrove.executor.local import LocalPipelineExecutor

        timings = {}
        if not os.path.isdir(os.path.join(work, "output")):
            os.makedirs(os.path.join(work, "warc"))
            for warc in warcs:
                os.symlink(os.path.abspath(warc), os.path.join(work, "warc", os.path.basename(warc)))
            run(LocalPipelineExecutor, "base_processing", stage_one(warcs, work), 1, work, timings)
        for name, pipeline, tasks in minhash_stages(work):
            run(LocalPipelineExecutor, name, pipeline, tasks, work, timings)
        read = read_all(warcs, work)
        rows = collect(read, work)
        slow = slow_pages(read) if measure_slow_pages else None
    utf8 = utf8_records(warcs)
    for row in rows:
        row["utf8"] = row["id"] in utf8
        row["text_sha1"] = hashlib.sha1(row["text"].encode("utf-8")).hexdigest() if row["text"] is not None else None
    fields = [("id", pa.string()), ("url", pa.string()), ("date", pa.string()), ("file", pa.string()),
              ("removed_by", pa.string()), ("reason", pa.string()), ("language", pa.string()),
              ("language_score", pa.float64()), ("utf8", pa.bool_()), ("text_sha1", pa.string())]
    if not compact:
        fields.append(("text", pa.string()))
    table = pa.Table.from_pylist(rows, schema=pa.schema(fields))
    pq.write_table(table, out, compression="zstd")
    counts = {}
    for row in rows:
        counts[row["removed_by"] or "kept"] = counts.get(row["removed_by"] or "kept", 0) + 1
    summary = {"warcs": [os.path.basename(w) for w in warcs], "documents_read": len(rows), "per_step": counts,
               "stage_seconds": timings, "pages_over_1s_extraction": slow,
               "versions": versions()}
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary, indent=1))


def versions():
    from importlib.metadata import version

    return {name: version(name) for name in ["datatrove", "trafilatura", "lxml", "warcio", "faust-cchardet",
                                             "fasttext-numpy2-wheel", "tldextract", "spacy"]}


if __name__ == "__main__":
    main()
