"""datatrove 0.10.1's exact de-duplication of a table of documents: the oracle `webtext
exact-dedup` is compared with.

    python exact_dedup_datatrove.py DOCUMENTS.parquet OUT.parquet INDEX_DIR [--work DIR] [--configs A,B]
        [--write-kept FOLDER]

Runs ExactDedupSignature, ExactFindDedups and ExactDedupFilter over DOCUMENTS.parquet (columns
`doc_id`, `text`, in document order) as one task, with the text as content, in five
configurations:

- default: datatrove's HashConfig (xxh64), every priority 1;
- priority: document_priority = doc_id % 3 + 1 (webtext: --priority "doc_id % 3 + 1"), so that
  of equal texts another than the first may be kept;
- sha1_32: HashConfig(precision=32, hash_fc="sha1");
- index: an index of the first 2,000 documents' hashes (ExactDedupBuildIndex, written to
  INDEX_DIR/first_2000.c4_index), only_dedup_in_index=True (datatrove's default);
- index_all: the same index, only_dedup_in_index=False.

(`--configs` runs only those; `--write-kept` also writes the kept documents with datatrove's
JsonlWriter (gzip JSON lines, its default
writer; its ParquetWriter fails on a first document whose id is 0), as a pipeline would: eval/speed/compare_datatrove_toolkit.sh times `default` so.)
Writes OUT.parquet: `config`, `doc_id`, `kept` and `duplicate_count` (the metadata the filter
gives a kept document; NULL for a dropped one), one row per configuration and document.

The repository's oracle, eval/parity/exact_dedup_datatrove.parquet (with the index in
eval/parity/exact_dedup_index/), is this over the 20,000 documents of the de-duplication corpus
(../shared/eval/dedup/documents.parquet).
"""

import argparse
import contextlib
import json
import os
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq

INDEXED = 2000


def text_of(doc) -> str:
    return doc.text


def priority_of(doc) -> int:
    return int(doc.id) % 3 + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("documents")
    parser.add_argument("out")
    parser.add_argument("index_dir")
    parser.add_argument("--work")
    parser.add_argument("--configs", default="default,priority,sha1_32,index,index_all")
    parser.add_argument("--write-kept")
    args = parser.parse_args()
    chosen = args.configs.split(",")
    work = args.work or tempfile.mkdtemp(prefix="webtext-exact-dedup-oracle-")

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.dedup.exact_dedup import (ExactDedupBuildIndex, ExactDedupConfig, ExactDedupFilter,
                                                      ExactDedupSignature, ExactFindDedups)
    from datatrove.pipeline.readers import ParquetReader
    from datatrove.pipeline.writers import JsonlWriter
    from datatrove.utils.hashing import HashConfig

    folder, name = os.path.split(os.path.abspath(args.documents))

    def reader(limit=-1):
        return ParquetReader(folder, glob_pattern=name, text_key="text", id_key="doc_id", limit=limit)

    def stage(pipeline, logs):
        LocalPipelineExecutor(pipeline=pipeline, tasks=1, workers=1, logging_dir=os.path.join(work, logs)).run()

    # The index: the first documents' signatures, merged into one file by ExactDedupBuildIndex.
    default = ExactDedupConfig(content_getter=text_of)
    if any(c.startswith("index") for c in chosen):
        stage([reader(INDEXED), ExactDedupSignature(os.path.join(work, "index-sigs"), config=default)], "logs-build-index-1")
        stage([ExactDedupBuildIndex(os.path.join(work, "index-sigs"), args.index_dir, "first_2000", config=default)],
              "logs-build-index-2")

    configs = {
        "default": (default, None),
        "priority": (ExactDedupConfig(content_getter=text_of, document_priority=priority_of), None),
        "sha1_32": (ExactDedupConfig(content_getter=text_of, hash_config=HashConfig(precision=32, hash_fc="sha1")),
                    None),
        "index": (default, args.index_dir),
        "index_all": (ExactDedupConfig(content_getter=text_of, only_dedup_in_index=False), args.index_dir),
    }
    ids = pq.read_table(args.documents, columns=["doc_id"]).column(0).to_pylist()
    rows = {"config": [], "doc_id": [], "kept": [], "duplicate_count": []}
    summary = {}
    for config_name, (config, index) in configs.items():
        if config_name not in chosen:
            continue
        sigs, dups = os.path.join(work, config_name, "sigs"), os.path.join(work, config_name, "dups")
        stage([reader(), ExactDedupSignature(sigs, config=config)], f"logs-{config_name}-1")
        stage([ExactFindDedups(sigs, dups, config=config, index_folder=index)], f"logs-{config_name}-2")
        kept = {}
        written = os.path.join(args.write_kept, config_name) if args.write_kept else None
        with JsonlWriter(written) if written else contextlib.nullcontext() as writer:
            for doc in ExactDedupFilter(dups, config=config).run(reader().run(None, 0, 1), 0, 1):
                kept[int(doc.id)] = doc.metadata["duplicate_count"]
                if writer:
                    writer.write(doc)
        for doc_id in ids:
            rows["config"].append(config_name)
            rows["doc_id"].append(doc_id)
            rows["kept"].append(doc_id in kept)
            rows["duplicate_count"].append(kept.get(doc_id))
        summary[config_name] = len(ids) - len(kept)
    pq.write_table(pa.table(rows), args.out, compression="zstd", compression_level=19)
    print(json.dumps({"documents": len(ids), "dropped": summary, "work": work}))


if __name__ == "__main__":
    main()
