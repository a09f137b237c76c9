"""datatrove 0.10.1's sentence de-duplication of a table of documents: the oracle `webtext
sentence-dedup` is compared with.

    python sentence_dedup_datatrove.py DOCUMENTS.parquet OUT.parquet [--work DIR]

Runs SentenceDedupSignature, SentenceFindDedups and SentenceDedupFilter with the default
SentDedupConfig (spans of 3 English sentences, xxh64, min_doc_words 50, min_num_sentences 3) over
DOCUMENTS.parquet (columns `doc_id`, `text`, in document order) as one task, and writes
OUT.parquet: `doc_id`, `kept` and `text` (the filtered text of a kept document; NULL for one the
filter drops), one row per document in order.

The repository's oracle, eval/parity/sentence_dedup_datatrove.parquet, is this over the 20,000
documents of the de-duplication corpus (../shared/eval/dedup/documents.parquet).
"""

import argparse
import json
import os
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("documents")
    parser.add_argument("out")
    parser.add_argument("--work")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="webtext-sentence-dedup-oracle-")

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.dedup.sentence_dedup import (SentDedupConfig, SentenceDedupFilter,
                                                         SentenceDedupSignature, SentenceFindDedups)
    from datatrove.pipeline.readers import ParquetReader

    folder, name = os.path.split(os.path.abspath(args.documents))
    config = SentDedupConfig()
    signatures, duplicates = os.path.join(work, "signatures"), os.path.join(work, "duplicates")

    def reader():
        return ParquetReader(folder, glob_pattern=name, text_key="text", id_key="doc_id")

    LocalPipelineExecutor(pipeline=[reader(), SentenceDedupSignature(signatures, config=config)],
                          tasks=1, workers=1, logging_dir=os.path.join(work, "logs-1")).run()
    LocalPipelineExecutor(pipeline=[SentenceFindDedups(signatures, duplicates, config=config)],
                          tasks=1, workers=1, logging_dir=os.path.join(work, "logs-2")).run()
    kept = {}
    for doc in SentenceDedupFilter(duplicates, config=config).run(reader().run(None, 0, 1), 0, 1):
        kept[int(doc.id)] = doc.text

    ids = pq.read_table(args.documents, columns=["doc_id"]).column(0).to_pylist()
    pq.write_table(pa.table({"doc_id": ids, "kept": [i in kept for i in ids],
                             "text": [kept.get(i) for i in ids]}),
                   args.out, compression="zstd", compression_level=19)
    changed = sum(1 for i in ids if i in kept)
    print(json.dumps({"documents": len(ids), "kept": changed, "work": work}))


if __name__ == "__main__":
    main()
