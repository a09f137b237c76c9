"""datatrove 0.10.1's n-gram decontamination of a table of documents: the oracle `webtext
decont-index` and `ngram_decontamination` are compared with.

    python decont_datatrove.py DOCUMENTS.parquet EVAL.parquet INDEX.parquet DECISIONS.parquet

EVAL.parquet, the evaluation set, is made from the documents themselves so that some of them are
contaminated: from every 97th document, a query (20 words of it) and a label (the 15 words after
them), task `suite:copied` or `suite:copied_long` in turn; from every 89th, its words in reverse
order as a label without a query (task `reversed`, which matches nothing but itself); and two
examples of text found nowhere (task `unseen`). Words are the text's `split()`, joined by one space.

The index is datatrove's `NGramsDecontIndexer.compute_hashes` of each example with the default
`NGramsDecontConfig` (12-grams, overlaps, no query n-grams), gathered per task as its `run` does
(its `run` also loads lighteval's tasks, which these examples do not need, so the hashes are
computed by the same method and gathered here): INDEX.parquet, `task` and `hash` (uint64), one
row per distinct hash of a task. The index files written from it are read by datatrove's
`NGramsDecontFilter`, whose decision on each document gives DECISIONS.parquet: `doc_id`,
`passed`, `task` and `ngram` (the `contaminated_task` and `contaminated_ngram` metadata it sets).

The repository's oracle (eval/parity/decont_*.parquet) is this over the 20,000 documents of the
de-duplication corpus (../shared/eval/dedup/documents.parquet).
"""

import json
import os
import sys
import tempfile

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq


def evaluation_set(documents):
    rows = []
    for i, (doc_id, text) in enumerate(zip(documents["doc_id"], documents["text"])):
        words = text.split()
        if i % 97 == 0 and len(words) >= 60:
            start = len(words) // 3
            task = "suite:copied" if (i // 97) % 2 == 0 else "suite:copied_long"
            rows.append({"text": " ".join(words[start + 20:start + 35]),
                         "query": " ".join(words[start:start + 20]), "task": task})
        if i % 89 == 0 and len(words) >= 30:
            rows.append({"text": " ".join(reversed(words[:40])), "query": None, "task": "reversed"})
    for text in ["the quick brown fox jumps over the lazy dog while the cat sleeps under the warm sun",
                 "an entirely invented sentence that no crawled page should hold word for word today"]:
        rows.append({"text": text, "query": "What does the example say, in full and in order?",
                     "task": "unseen"})
    return rows


def main(documents_path, eval_path, index_path, decisions_path):
    from datatrove.data import Document
    from datatrove.pipeline.decont.n_grams import NGramsDecontFilter, NGramsDecontIndexer

    documents = pq.read_table(documents_path, columns=["doc_id", "text"]).to_pydict()
    examples = evaluation_set(documents)
    pq.write_table(pa.Table.from_pylist(examples, schema=pa.schema(
        [("text", pa.string()), ("query", pa.string()), ("task", pa.string())])), eval_path)

    work = tempfile.mkdtemp(prefix="webtext-decont-oracle-")
    # The indexer's dependency check asks for lighteval, which its hashing does not use.
    NGramsDecontIndexer._requires_dependencies = []
    indexer = NGramsDecontIndexer(output_folder=work)
    hashes = {}
    for example in examples:
        hashes.setdefault(example["task"], set()).update(
            indexer.compute_hashes(example["text"], example["query"]))
    for task, task_hashes in hashes.items():
        array = np.array(list(task_hashes), dtype=indexer.config.hash_config.np_descr)
        with open(os.path.join(work, f"{task.replace(' ', '_')}.index.hashes"), "wb") as f:
            array.tofile(f)
    index_rows = sorted((task, h) for task, task_hashes in hashes.items() for h in task_hashes)
    pq.write_table(pa.table({"task": [t for t, _ in index_rows],
                             "hash": pa.array([h for _, h in index_rows], pa.uint64())}), index_path)

    decont = NGramsDecontFilter(index_folder=work)
    decisions = {"doc_id": [], "passed": [], "task": [], "ngram": []}
    for doc_id, text in zip(documents["doc_id"], documents["text"]):
        doc = Document(text=text, id=str(doc_id), metadata={})
        result = decont.filter(doc)
        passed = result is True
        decisions["doc_id"].append(doc_id)
        decisions["passed"].append(passed)
        decisions["task"].append(None if passed else doc.metadata["contaminated_task"])
        decisions["ngram"].append(None if passed else doc.metadata["contaminated_ngram"])
    pq.write_table(pa.table(decisions), decisions_path, compression="zstd")
    print(json.dumps({"examples": len(examples), "tasks": {t: len(h) for t, h in hashes.items()},
                      "contaminated": decisions["passed"].count(False)}))


if __name__ == "__main__":
    main(*sys.argv[1:5])
