"""`webtext exact-dedup` against datatrove 0.10.1's exact de-duplication
(eval/parity/exact_dedup_datatrove.py's oracle).

    python exact_dedup.py ORACLE.parquet WEBTEXT DOCUMENTS.parquet INDEX_DIR [--floor eval/parity/floors.txt] [--show N]

Runs `WEBTEXT exact-dedup` over DOCUMENTS.parquet in each configuration of the oracle (the
options below; INDEX_DIR is the oracle's index folder, eval/parity/exact_dedup_index) and prints,
per configuration, the share of documents with datatrove's decision and, kept, its
duplicate_count (`exact_dedup CONFIG`), and whether `webtext dedup-index` of the first 2,000
documents writes the oracle's index file, datatrove's ExactDedupBuildIndex's (`exact_dedup
index_file`).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from dedup_index_check import index_file_share
from floors import below_floor, floors_of


def options(config, index_dir):
    return {
        "default": [],
        "priority": ["--priority", "doc_id % 3 + 1"],
        "sha1_32": ["--hash-fc", "sha1", "--precision", "32"],
        "index": ["--index", index_dir],
        "index_all": ["--index", index_dir, "--dedup-beyond-index"],
    }[config]


def main(args):
    oracle, webtext, documents, index_dir = args[:4]
    show = int(args[args.index("--show") + 1]) if "--show" in args else 0
    table = pq.read_table(oracle).to_pydict()
    configs = {}
    for config, doc_id, kept, count in zip(table["config"], table["doc_id"], table["kept"], table["duplicate_count"]):
        configs.setdefault(config, {})[doc_id] = (kept, count)
    floors = floors_of(args, "exact_dedup")
    failed = []
    with tempfile.TemporaryDirectory(prefix="webtext-exact-dedup-check-") as work:
        for config, expected in configs.items():
            out = Path(work) / f"{config}.parquet"
            subprocess.run([webtext, "exact-dedup", documents, str(out), *options(config, index_dir)], check=True)
            ours = pq.read_table(out, columns=["doc_id", "kept", "duplicate_count"]).to_pydict()
            ours = {d: (k, c) for d, k, c in zip(ours["doc_id"], ours["kept"], ours["duplicate_count"])}
            same = shown = 0
            for doc_id, decision in expected.items():
                if ours.get(doc_id) == decision:
                    same += 1
                elif shown < show:
                    shown += 1
                    print(f"  {config} {doc_id}: datatrove {decision}, webtext {ours.get(doc_id)}")
            dropped = sum(1 for kept, _ in expected.values() if not kept)
            share = same / len(expected)
            print(f"exact_dedup {config}: {len(expected)} documents ({dropped} dropped by datatrove), "
                  f"{same} with its decision and duplicate_count")
            print(f"exact_dedup {config} {share:.6f}")
            if below_floor("exact_dedup", config, share, floors, args):
                failed.append(config)
        share = index_file_share(webtext, documents, index_dir, work, "exact")
        print(f"exact_dedup index_file {share:.6f}")
        if below_floor("exact_dedup", "index_file", share, floors, args):
            failed.append("index_file")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
