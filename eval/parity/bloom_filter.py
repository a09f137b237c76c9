"""`bloom_filter_keep` against datatrove 0.10.1's SingleBloomFilter
(eval/parity/bloom_filter_datatrove.py's oracle).

    python bloom_filter.py ORACLE.parquet WEBTEXT DOCUMENTS.parquet [--floor eval/parity/floors.txt]

Runs `WEBTEXT sql` with bloom_filter_keep over DOCUMENTS.parquet in each configuration of the
oracle (its `options`), in doc_id order, and prints the share of documents kept or dropped as
datatrove decides, per configuration (`bloom_filter CONFIG`).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from floors import below_floor, floors_of


def main(args):
    oracle, webtext, documents = args[:3]
    table = pq.read_table(oracle).to_pydict()
    configs = {}
    for config, options, doc_id, kept in zip(table["config"], table["options"], table["doc_id"], table["kept"]):
        configs.setdefault(config, (options, {}))[1][doc_id] = kept
    floors = floors_of(args, "bloom_filter")
    failed = []
    with tempfile.TemporaryDirectory(prefix="webtext-bloom-check-") as work:
        for config, (options, expected) in configs.items():
            out = Path(work) / f"{config}.parquet"
            subprocess.run([webtext, "sql", "--table", f"documents={documents}", "--output", str(out),
                            f"SELECT doc_id, get_field(bloom_filter_keep(text, '{options}') OVER (ORDER BY doc_id), "
                            "'kept') AS kept FROM documents"], check=True)
            ours = pq.read_table(out).to_pydict()
            ours = dict(zip(ours["doc_id"], ours["kept"]))
            same = sum(1 for d, kept in expected.items() if ours.get(d) == kept)
            dropped = sum(1 for kept in expected.values() if not kept)
            share = same / len(expected)
            print(f"bloom_filter {config}: {len(expected)} documents ({dropped} dropped by datatrove), "
                  f"{same} decided as it does")
            print(f"bloom_filter {config} {share:.6f}")
            if below_floor("bloom_filter", config, share, floors, args):
                failed.append(config)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
