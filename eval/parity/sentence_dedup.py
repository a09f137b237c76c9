"""`webtext sentence-dedup` against datatrove 0.10.1's sentence de-duplication
(eval/parity/sentence_dedup_datatrove.py's oracle).

    python sentence_dedup.py ORACLE.parquet WEBTEXT DOCUMENTS.parquet INDEX_DIR [--floor eval/parity/floors.txt] [--show N]

Runs `WEBTEXT sentence-dedup` over DOCUMENTS.parquet in each configuration of the oracle (the
options below; INDEX_DIR is the oracle's index folder, eval/parity/sentence_dedup_index) and
prints, per configuration, the share of documents kept or dropped as datatrove decides
(`sentence_dedup CONFIG_decisions`) and the share with its decision and, kept, its text byte for
byte (`sentence_dedup CONFIG_texts`; the default configuration's keys are `sentence_dedup
decisions` and `sentence_dedup texts`); and whether `webtext dedup-index --of sentence` of the
first 2,000 documents writes the oracle's index file, datatrove's SentenceDedupBuildIndex's
(`sentence_dedup index_file`).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow.parquet as pq

from dedup_check import by_config, hash_and_index_options, index_file_failed
from floors import below_floor, floors_of


def compare(config, expected, out, show):
    ours = pq.read_table(out, columns=["doc_id", "kept", "text"]).to_pydict()
    ours = {d: (k, t) for d, k, t in zip(ours["doc_id"], ours["kept"], ours["text"])}
    decisions = texts = shown = 0
    for doc_id, (kept, text) in expected.items():
        our_kept, our_text = ours.get(doc_id, (None, None))
        if our_kept == kept:
            decisions += 1
            if not kept or our_text == text:
                texts += 1
                continue
        if shown < show:
            shown += 1
            print(f"  {config} {doc_id}: datatrove kept={kept} {str(text)[:200]!r}")
            print(f"  {' ' * len(config + str(doc_id))}  webtext   kept={our_kept} {str(our_text)[:200]!r}")
    n = len(expected)
    dropped = sum(1 for kept, _ in expected.values() if not kept)
    print(f"sentence_dedup {config}: {n} documents ({dropped} dropped by datatrove); {decisions} decided as it does, "
          f"{texts} with its text too")
    return {"decisions": decisions / n, "texts": texts / n}


def main(args):
    oracle, webtext, documents, index_dir = args[:4]
    show = int(args[args.index("--show") + 1]) if "--show" in args else 0
    configs = by_config(oracle, ["kept", "text"])
    floors = floors_of(args, "sentence_dedup")
    failed = []
    with tempfile.TemporaryDirectory(prefix="webtext-sentence-dedup-check-") as work:
        for config, expected in configs.items():
            out = Path(work) / f"{config}.parquet"
            subprocess.run([webtext, "sentence-dedup", documents, str(out),
                            *hash_and_index_options(config, index_dir)], check=True)
            for measure, share in compare(config, expected, out, show).items():
                key = measure if config == "default" else f"{config}_{measure}"
                print(f"sentence_dedup {key} {share:.6f}")
                if below_floor("sentence_dedup", key, share, floors, args):
                    failed.append(key)
        if index_file_failed("sentence_dedup", "sentence", webtext, documents, index_dir, work, floors, args):
            failed.append("index_file")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
