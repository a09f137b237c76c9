"""datatrove 0.10.1's SingleBloomFilter over a table of documents: the oracle `bloom_filter_keep`
is compared with.

    python bloom_filter_datatrove.py DOCUMENTS.parquet OUT.parquet

Runs the filter's `step` over DOCUMENTS.parquet (`doc_id`, `text`, in document order) in two
configurations, CONFIGS below (its defaults otherwise: 13-grams, threshold 0.8, seed 0, xxh32),
and writes OUT.parquet: `config` (the name), `options` (the same settings as bloom_filter_keep's
options), `doc_id` and `kept`.

The repository's oracle, eval/parity/bloom_filter_datatrove.parquet, is this over the 20,000
documents of the de-duplication corpus (../shared/eval/dedup/documents.parquet).
"""

import json
import sys
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq

# name: (BloomFilterConfig's arguments, bloom_filter_keep's options). The first uses 2^24 bits
# (m_bytes of 24 one-bits: datatrove ANDs each position with m_bytes); the second takes k from
# expected_elements, with 5-grams and a lower threshold.
CONFIGS = {
    "k7_16m": ({"m_bytes": 2**24 - 1, "k": 7}, "m_bytes=16777215, k=7"),
    "expected_5m": ({"m_bytes": 1_000_000, "expected_elements": 5_000_000, "n_grams": 5,
                     "duplicate_threshold": 0.5},
                    "m_bytes=1000000, expected_elements=5000000, n_grams=5, duplicate_threshold=0.5"),
}


def main(documents_path, out):
    from datatrove.data import Document
    from datatrove.pipeline.dedup.bloom_filter import BloomFilterConfig, SingleBloomFilter

    documents = pq.read_table(documents_path, columns=["doc_id", "text"]).to_pydict()
    rows = {"config": [], "options": [], "doc_id": [], "kept": []}
    dropped = {}
    for name, (arguments, options) in CONFIGS.items():
        bloom = SingleBloomFilter(tempfile.mkdtemp(prefix="webtext-bloom-oracle-"),
                                  config=BloomFilterConfig(**arguments))
        for doc_id, text in zip(documents["doc_id"], documents["text"]):
            kept = bool(bloom.step(Document(text=text, id=str(doc_id))))
            rows["config"].append(name)
            rows["options"].append(options)
            rows["doc_id"].append(doc_id)
            rows["kept"].append(kept)
            dropped[name] = dropped.get(name, 0) + (not kept)
    pq.write_table(pa.table(rows), out, compression="zstd")
    print(json.dumps({"documents": len(documents["doc_id"]), "dropped": dropped}))


if __name__ == "__main__":
    main(*sys.argv[1:3])
