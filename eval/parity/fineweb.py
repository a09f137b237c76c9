"""`webtext fineweb` against datatrove 0.10.1's FineWeb (the oracle fineweb_datatrove.py writes):
the same documents read, each removed by the same step for the same reason, and the kept ones with
the same text byte for byte and the same language score.

    python fineweb.py ORACLE.parquet OUT_FOLDER [--floor FLOORS] [--show N] [--set NAME]

OUT_FOLDER is what `webtext fineweb ... OUT_FOLDER --removed OUT_FOLDER/removed` wrote (its kept
documents' Parquet files, and the removed ones under removed/). Prints the figures per step and
the first N differences; with --floor, exits 1 when the share of the oracle's documents that end
the same way (the same step and reason, or kept with the same text) is below the floor
`fineweb documents`, or the share of its kept documents kept with the same text below
`fineweb kept_text` (`documents_NAME`, `kept_text_NAME` with --set NAME).

A document ends "the same way" when: both keep it with equal text and language scores within 1e-6,
or both remove it at the same step with the same reason. Documents read on one side only (the
readers' record selection and decoding differ where datatrove guesses a charset) are counted apart.
"""

import argparse
import glob
import hashlib
import os
import sys

import pyarrow.parquet as pq

from floors import below_floor, floors_of

SCORE_TOLERANCE = 1e-6


def rows_of(pattern):
    rows = []
    for path in sorted(glob.glob(pattern, recursive=True)):
        rows.extend(pq.read_table(path).to_pylist())
    return rows


def ours(folder):
    """id -> (removed_by, reason, language_score, text) of `webtext fineweb`'s output."""
    fate = {}
    for row in rows_of(os.path.join(folder, "removed", "**", "*.parquet")):
        fate[row["id"]] = (row["removed_by"], row["reason"], row.get("language_score"), None)
    for row in rows_of(os.path.join(folder, "*.parquet")):
        fate[row["id"]] = (None, None, row.get("language_score"), row["text"])
    return fate


def same_text(theirs, text):
    """The kept texts are equal (the compact oracle has their SHA-1 only)."""
    if text is None:
        return False
    if theirs.get("text") is not None:
        return text == theirs["text"]
    return hashlib.sha1(text.encode("utf-8")).hexdigest() == theirs["text_sha1"]


def same_end(theirs, mine):
    step, reason, score, text = mine
    if theirs["removed_by"] != step:
        return False
    if step is None:
        return same_text(theirs, text) and abs((score or 0) - (theirs["language_score"] or 0)) <= SCORE_TOLERANCE
    return reason == theirs["reason"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("oracle")
    parser.add_argument("out")
    parser.add_argument("--floor")
    parser.add_argument("--show", type=int, default=5)
    parser.add_argument("--set", default="", help="the archive's name in the floors' keys (documents_SET)")
    args = parser.parse_args()
    oracle = pq.read_table(args.oracle).to_pylist()
    mine = ours(args.out)
    read_both = [row for row in oracle if row["id"] in mine]
    only_theirs = len(oracle) - len(read_both)
    only_mine = len(set(mine) - {row["id"] for row in oracle})
    same = [row for row in read_both if same_end(row, mine[row["id"]])]
    kept = [row for row in read_both if row["removed_by"] is None]
    kept_same = [row for row in kept if same_end(row, mine[row["id"]])]
    print(f"documents: datatrove read {len(oracle)}, webtext {len(mine)}; both {len(read_both)} "
          f"(datatrove only {only_theirs}, webtext only {only_mine})")
    print(f"same end (step and reason, or kept with the same text): {len(same)}/{len(oracle)} "
          f"= {len(same) / max(len(oracle), 1):.4f}")
    print(f"datatrove's kept documents kept with the same text and score: {len(kept_same)}/{len(kept)}")
    differing = [row for row in read_both if not same_end(row, mine[row["id"]])]
    not_utf8 = sum(1 for row in differing if not row.get("utf8", True))
    print(f"differing: {len(differing)}, of which {not_utf8} records are not UTF-8 (datatrove decodes them "
          f"with cchardet's guess); the others can follow from those (the PII formatter's cycle and "
          f"trafilatura's de-duplication run through the documents in order)")
    steps = sorted({row["removed_by"] or "kept" for row in oracle})
    print(f"{'step':<20} {'datatrove':>9} {'webtext':>8}")
    for step in steps:
        theirs_n = sum(1 for row in oracle if (row["removed_by"] or "kept") == step)
        mine_n = sum(1 for fate in mine.values() if (fate[0] or "kept") == step)
        print(f"{step:<20} {theirs_n:>9} {mine_n:>8}")
    for row in differing[:args.show]:
        step, reason, score, text = mine[row["id"]]
        print(f"- {row['id']} {row['url']}: datatrove {row['removed_by']}/{row['reason']} "
              f"score {row['language_score']}; webtext {step}/{reason} score {score}"
              + (" (texts differ)" if step is None and row["removed_by"] is None else ""))
    floors = floors_of(sys.argv, "fineweb")
    suffix = f"_{args.set}" if args.set else ""
    failed = below_floor("fineweb", "documents" + suffix, len(same) / max(len(oracle), 1), floors, sys.argv)
    failed |= below_floor("fineweb", "kept_text" + suffix, len(kept_same) / max(len(kept), 1), floors, sys.argv)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
