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

from dedup_check import by_config, hash_and_index_options, index_file_failed
from floors import below_floor, floors_of


def options(config, index_dir):
    if config == "priority":
        return ["--priority", "doc_id % 3 + 1"]
    return hash_and_index_options(config, index_dir)


def main(args):
    oracle, webtext, documents, index_dir = args[:4]
    show = int(args[args.index("--show") + 1]) if "--show" in args else 0
    configs = by_config(oracle, ["kept", "duplicate_count"])
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
        if index_file_failed("exact_dedup", "exact", webtext, documents, index_dir, work, floors, args):
            failed.append("index_file")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
