"""datatrove 0.10.1's exact-substring de-duplication of a table of documents, around the
suffix-array tool of Lee et al. (2022), google-research/deduplicate-text-datasets: the oracle
`webtext substring-dedup` is compared with.

    python exact_substrings_datatrove.py DOCUMENTS.parquet OUT.parquet TOKENIZER.json DEDUP_DATASET
        [--work DIR] [--length-threshold 100] [--train-tokenizer]

DEDUP_DATASET is the reference tool's binary, built from its public source (`cargo build
--release` in a clone of github.com/google-research/deduplicate-text-datasets) for this check
only. The steps are the ones datatrove's exact_substrings module documents, as one task:

1. ESDatasetToSequence over DOCUMENTS.parquet (columns `doc_id`, `text`, in document order) with
   the tokenizer TOKENIZER.json;
2. ESMergeSequences (one sequence file, so the big sequence is that file);
3. the reference tool: `make` (the suffix array), `self-similar --length-threshold L` and
   `collect --length-threshold L`, whose output is the `.bytearange` file;
4. ESRangeRemover (min_doc_words 50, English) over the documents again.

With --train-tokenizer, TOKENIZER.json is first written: a byte-level BPE of GPT-2's shape (its
pre-tokenizer, decoder and post-processor; datatrove's default tokenizer is GPT-2's, which this
machine cannot download) with 8,000 tokens, trained on the even-numbered documents, so that the
token ids fit datatrove's 16 bits.

Writes OUT.parquet: `doc_id`, `kept` and `text_sha256` (of the text ESRangeRemover yields; NULL
for a document it drops), one row per document, and in its metadata `byte_ranges`: the
reference tool's `collect` output (the removed byte ranges of the big sequence).

The repository's oracle, eval/parity/exact_substrings_datatrove.parquet (with the tokenizer
eval/parity/exact_substrings_tokenizer.json), is this over the 20,000 documents of the
de-duplication corpus (../shared/eval/dedup/documents.parquet), with L = 100.
"""

import argparse
import hashlib
import os
import subprocess
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq


def train_tokenizer(texts, path):
    from token_count import byte_level_bpe

    tokenizer, trainer = byte_level_bpe()
    training = texts[::2]
    tokenizer.train_from_iterator(training, trainer=trainer, length=len(training))
    tokenizer.save(path)


def reference(tool, args, stdout=None):
    subprocess.run([tool, *args], check=True, stdout=stdout or subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("documents")
    parser.add_argument("out")
    parser.add_argument("tokenizer")
    parser.add_argument("dedup_dataset")
    parser.add_argument("--work")
    parser.add_argument("--length-threshold", type=int, default=100)
    parser.add_argument("--train-tokenizer", action="store_true")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="webtext-exact-substrings-oracle-")
    tokenizer = os.path.abspath(args.tokenizer)
    documents = pq.read_table(args.documents, columns=["doc_id", "text"]).to_pylist()
    assert [d["doc_id"] for d in documents] == sorted(d["doc_id"] for d in documents)
    if args.train_tokenizer:
        train_tokenizer([d["text"] for d in documents], tokenizer)

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.dedup.exact_substrings import ESDatasetToSequence, ESMergeSequences, ESRangeRemover
    from datatrove.pipeline.readers import ParquetReader
    from datatrove.pipeline.writers import JsonlWriter

    folder, name = os.path.split(os.path.abspath(args.documents))
    sequences = os.path.join(work, "sequences")

    def reader():
        return ParquetReader(folder, glob_pattern=name, text_key="text", id_key="doc_id")

    def stage(pipeline, logs):
        LocalPipelineExecutor(pipeline=pipeline, tasks=1, workers=1, logging_dir=os.path.join(work, logs)).run()

    stage([reader(), ESDatasetToSequence(sequences, tokenizer_name_or_path=tokenizer)], "logs-1")
    stage([ESMergeSequences(sequences, tasks_stage_1=1)], "logs-2")

    big = os.path.join(sequences, "dataset.big_sequence")
    cache = os.path.join(work, "cache")
    length = str(args.length_threshold)
    reference(args.dedup_dataset, ["make", "--data-file", big])
    reference(args.dedup_dataset, ["self-similar", "--data-file", big, "--length-threshold", length,
                                   "--cache-dir", cache, "--num-threads", "2"])
    ranges_path = os.path.join(sequences, "dataset.bytearange")
    with open(ranges_path, "w") as out:
        reference(args.dedup_dataset, ["collect", "--data-file", big, "--cache-dir", cache,
                                       "--length-threshold", length], stdout=out)
    # The suffix array and the tool's cache are not datatrove's files: out of the folder
    # ESRangeRemover lists.
    os.remove(big + ".table.bin")

    kept_folder = os.path.join(work, "kept")
    stage([reader(), ESRangeRemover(sequences, tokenizer_name_or_path=tokenizer),
           JsonlWriter(kept_folder, output_filename="kept.jsonl", compression=None,
                       adapter=lambda _, doc: {"id": doc.id, "text": doc.text})], "logs-3")

    import json

    kept = {}
    kept_file = os.path.join(kept_folder, "kept.jsonl")
    if os.path.exists(kept_file):
        with open(kept_file) as f:
            for line in f:
                doc = json.loads(line)
                kept[int(doc["id"])] = doc["text"]
    with open(ranges_path) as f:
        byte_ranges = f.read()
    table = pa.table({
        "doc_id": [d["doc_id"] for d in documents],
        "kept": [d["doc_id"] in kept for d in documents],
        "text_sha256": [hashlib.sha256(kept[d["doc_id"]].encode()).hexdigest() if d["doc_id"] in kept else None
                        for d in documents],
    })
    table = table.replace_schema_metadata({"byte_ranges": byte_ranges,
                                           "length_threshold": length})
    pq.write_table(table, args.out, compression="zstd")
    lines = byte_ranges.split("\n")
    ranges = [line for line in lines[lines.index("out") + 1:] if line] if "out" in lines else []
    print(f"{len(kept)} of {len(documents)} documents kept; {len(ranges)} byte ranges removed")


if __name__ == "__main__":
    main()
