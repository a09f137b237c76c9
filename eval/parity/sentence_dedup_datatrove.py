"""datatrove 0.10.1's sentence de-duplication of a table of documents: the oracle `webtext
sentence-dedup` is compared with.

    python sentence_dedup_datatrove.py DOCUMENTS.parquet OUT.parquet INDEX_DIR [--work DIR] [--configs A,B]

Runs SentenceDedupSignature, SentenceFindDedups and SentenceDedupFilter over DOCUMENTS.parquet
(columns `doc_id`, `text`, in document order) as one task, in four configurations:

- default: the default SentDedupConfig (spans of 3 English sentences, xxh64, min_doc_words 50,
  min_num_sentences 3);
- sha1_32: HashConfig(precision=32, hash_fc="sha1");
- index: an index of the first 2,000 documents' spans (SentenceDedupBuildIndex, written to
  INDEX_DIR), only_dedup_in_index=True (datatrove's default);
- index_all: the same index, only_dedup_in_index=False.

Writes OUT.parquet: `config`, `doc_id`, `kept` and `text` (the filtered text of a kept document;
NULL for one the filter drops), one row per configuration and document, in order.
(`--configs` runs only those: eval/speed/compare_datatrove_toolkit.sh times `default`.)

The repository's oracle, eval/parity/sentence_dedup_datatrove.parquet (with the index in
eval/parity/sentence_dedup_index/), is this over the 20,000 documents of the de-duplication
corpus (../shared/eval/dedup/documents.parquet).
"""

import argparse
import json
import os
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq


INDEXED = 2000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("documents")
    parser.add_argument("out")
    parser.add_argument("index_dir")
    parser.add_argument("--work")
    parser.add_argument("--configs", default="default,sha1_32,index,index_all")
    args = parser.parse_args()
    chosen = args.configs.split(",")
    work = args.work or tempfile.mkdtemp(prefix="webtext-sentence-dedup-oracle-")

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.dedup.sentence_dedup import (SentDedupConfig, SentenceDedupBuildIndex,
                                                         SentenceDedupFilter, SentenceDedupSignature,
                                                         SentenceFindDedups)
    from datatrove.pipeline.readers import ParquetReader
    from datatrove.utils.hashing import HashConfig

    folder, name = os.path.split(os.path.abspath(args.documents))

    def reader(limit=-1):
        return ParquetReader(folder, glob_pattern=name, text_key="text", id_key="doc_id", limit=limit)

    def stage(pipeline, logs):
        LocalPipelineExecutor(pipeline=pipeline, tasks=1, workers=1, logging_dir=os.path.join(work, logs)).run()

    if any(c.startswith("index") for c in chosen):
        index_sigs = os.path.join(work, "index-sigs")
        stage([reader(INDEXED), SentenceDedupSignature(index_sigs, config=SentDedupConfig())], "logs-build-index-1")
        stage([SentenceDedupBuildIndex(index_sigs, args.index_dir, "first_2000", config=SentDedupConfig())],
              "logs-build-index-2")

    configs = {
        "default": (SentDedupConfig(), None),
        "sha1_32": (SentDedupConfig(hash_config=HashConfig(precision=32, hash_fc="sha1")), None),
        "index": (SentDedupConfig(), args.index_dir),
        "index_all": (SentDedupConfig(only_dedup_in_index=False), args.index_dir),
    }
    ids = pq.read_table(args.documents, columns=["doc_id"]).column(0).to_pylist()
    rows = {"config": [], "doc_id": [], "kept": [], "text": []}
    summary = {}
    for config_name, (config, index) in configs.items():
        if config_name not in chosen:
            continue
        signatures = os.path.join(work, config_name, "signatures")
        duplicates = os.path.join(work, config_name, "duplicates")
        stage([reader(), SentenceDedupSignature(signatures, config=config)], f"logs-{config_name}-1")
        stage([SentenceFindDedups(signatures, duplicates, index_folder=index, config=config)],
              f"logs-{config_name}-2")
        kept = {}
        for doc in SentenceDedupFilter(duplicates, config=config).run(reader().run(None, 0, 1), 0, 1):
            kept[int(doc.id)] = doc.text
        for doc_id in ids:
            rows["config"].append(config_name)
            rows["doc_id"].append(doc_id)
            rows["kept"].append(doc_id in kept)
            rows["text"].append(kept.get(doc_id))
        summary[config_name] = len(ids) - len(kept)
    pq.write_table(pa.table(rows), args.out, compression="zstd", compression_level=19)
    print(json.dumps({"documents": len(ids), "dropped": summary, "work": work}))


if __name__ == "__main__":
    main()
