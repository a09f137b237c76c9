"""`webtext sentence-dedup` against datatrove 0.10.1's sentence de-duplication
(eval/parity/sentence_dedup_datatrove.py's oracle).

    python sentence_dedup.py ORACLE.parquet OUT.parquet [--floor eval/parity/floors.txt] [--show N]

OUT.parquet is `webtext sentence-dedup`'s output over the same documents (`doc_id`, `text`,
`kept`). Prints the share of documents kept or dropped as datatrove decides
(`sentence_dedup decisions`) and the share with its decision and, kept, its text byte for byte
(`sentence_dedup texts`).
"""

import sys

import pyarrow.parquet as pq

from floors import below_floor, floors_of


def main(args):
    oracle, out = args[0], args[1]
    show = int(args[args.index("--show") + 1]) if "--show" in args else 0
    expected = pq.read_table(oracle).to_pydict()
    ours = pq.read_table(out, columns=["doc_id", "kept", "text"]).to_pydict()
    ours = {d: (k, t) for d, k, t in zip(ours["doc_id"], ours["kept"], ours["text"])}
    decisions = texts = shown = 0
    for doc_id, kept, text in zip(expected["doc_id"], expected["kept"], expected["text"]):
        our_kept, our_text = ours.get(doc_id, (None, None))
        if our_kept == kept:
            decisions += 1
            if not kept or our_text == text:
                texts += 1
                continue
        if shown < show:
            shown += 1
            print(f"  {doc_id}: datatrove kept={kept} {str(text)[:200]!r}")
            print(f"  {' ' * len(str(doc_id))}  webtext   kept={our_kept} {str(our_text)[:200]!r}")
    n = len(expected["doc_id"])
    dropped = expected["kept"].count(False)
    print(f"sentence_dedup: {n} documents ({dropped} dropped by datatrove); {decisions} decided as it does, "
          f"{texts} with its text too")
    shares = {"decisions": decisions / n, "texts": texts / n}
    floors = floors_of(args, "sentence_dedup")
    failed = [k for k, share in shares.items() if below_floor("sentence_dedup", k, share, floors, args)]
    for key, share in shares.items():
        print(f"sentence_dedup {key} {share:.6f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
