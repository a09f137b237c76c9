"""`webtext substring-dedup` against datatrove 0.10.1's exact-substring de-duplication around
the reference suffix-array tool (eval/parity/exact_substrings_datatrove.py's oracle).

    python exact_substrings.py ORACLE.parquet WEBTEXT DOCUMENTS.parquet TOKENIZER.json
        [--floor eval/parity/floors.txt] [--show N]

Runs `WEBTEXT substring-dedup` over DOCUMENTS.parquet with the oracle's tokenizer twice: with
the memory to find the ranges in memory (`default`), and with --memory-limit 64M, under which the
20 MB sequence's windows are spilled to bucket files (`spilled`). Prints, for each, the share of
documents with datatrove's decision and, kept, its text (`exact_substrings CONFIG`), and whether
the byte ranges equal the reference tool's `collect` output (`exact_substrings CONFIG_ranges`:
1 or 0).
"""

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from floors import below_floor, floors_of

CONFIGS = {"default": [], "spilled": ["--memory-limit", "64M"]}


def ranges_of(collect_output):
    """The lines after `out`, as datatrove reads them."""
    lines = collect_output.split("\n")
    return lines[lines.index("out") + 1:] if "out" in lines else []


def main(args):
    oracle_path, webtext, documents, tokenizer = args[:4]
    show = int(args[args.index("--show") + 1]) if "--show" in args else 0
    floors = floors_of(args, "exact_substrings")
    oracle = pq.read_table(oracle_path)
    expected_ranges = ranges_of(oracle.schema.metadata[b"byte_ranges"].decode())
    length = oracle.schema.metadata[b"length_threshold"].decode()
    expected = {d: (k, h) for d, k, h in zip(*(oracle.column(c).to_pylist()
                                               for c in ("doc_id", "kept", "text_sha256")))}
    failed = []
    with tempfile.TemporaryDirectory(prefix="webtext-substring-dedup-check-") as work:
        for config, options in CONFIGS.items():
            out, ranges = Path(work) / f"{config}.parquet", Path(work) / f"{config}.bytearange"
            subprocess.run([webtext, "substring-dedup", documents, str(out), "--tokenizer", tokenizer,
                            "--length-threshold", length, "--ranges", str(ranges), *options], check=True)
            table = pq.read_table(out, columns=["doc_id", "kept", "text"]).to_pydict()
            ours = {d: (k, hashlib.sha256(t.encode()).hexdigest() if k else None)
                    for d, k, t in zip(table["doc_id"], table["kept"], table["text"])}
            same = shown = 0
            for doc_id, decision in expected.items():
                if ours.get(doc_id) == decision:
                    same += 1
                elif shown < show:
                    shown += 1
                    print(f"  {config} {doc_id}: datatrove kept={decision[0]}, webtext kept={ours.get(doc_id, (None,))[0]}"
                          f"{' (other text)' if decision[0] and ours.get(doc_id, (None,))[0] else ''}")
            share = same / len(expected)
            dropped = sum(1 for kept, _ in expected.values() if not kept)
            print(f"exact_substrings {config}: {len(expected)} documents ({dropped} dropped by datatrove), "
                  f"{same} with its decision and text")
            print(f"exact_substrings {config} {share:.6f}")
            if below_floor("exact_substrings", config, share, floors, args):
                failed.append(config)
            same_ranges = ranges_of(ranges.read_text()) == expected_ranges
            print(f"exact_substrings {config}_ranges: {len(expected_ranges) - 1} ranges of the reference tool, "
                  f"{'the same' if same_ranges else 'others'}")
            print(f"exact_substrings {config}_ranges {float(same_ranges):.6f}")
            if below_floor("exact_substrings", f"{config}_ranges", float(same_ranges), floors, args):
                failed.append(f"{config}_ranges")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
