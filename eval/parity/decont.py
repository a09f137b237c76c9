"""`webtext decont-index` and `ngram_decontamination` against datatrove 0.10.1's n-gram
decontamination (eval/parity/decont_datatrove.py's oracle).

    python decont.py ORACLE_INDEX.parquet ORACLE_DECISIONS.parquet INDEX_FOLDER DECISIONS.parquet
                     [--floor eval/parity/floors.txt] [--show N]

INDEX_FOLDER is what `webtext decont-index` wrote from the oracle's evaluation set; DECISIONS.parquet
has `doc_id`, `passed`, `task`, `ngram` from `ngram_decontamination` over the same documents.
Prints the share of tasks whose hashes are datatrove's, as a set (`decont index_tasks`), and the
share of documents with datatrove's decision, task and n-gram (`decont decisions`).
"""

import os
import sys

import numpy as np
import pyarrow.parquet as pq

from floors import below_floor, floors_of


def index_of_folder(folder):
    tasks = {}
    for root, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".index.hashes"):
                task = os.path.relpath(os.path.join(root, name), folder)[:-len(".index.hashes")]
                tasks[task] = set(np.fromfile(os.path.join(root, name), dtype="<u8").tolist())
    return tasks


def main(args):
    oracle_index, oracle_decisions, folder, decisions = args[:4]
    show = int(args[args.index("--show") + 1]) if "--show" in args else 0
    expected_index = {}
    table = pq.read_table(oracle_index).to_pydict()
    for task, h in zip(table["task"], table["hash"]):
        expected_index.setdefault(task, set()).add(h)
    ours_index = index_of_folder(folder)
    tasks = sorted(set(expected_index) | set(ours_index))
    same_tasks = [t for t in tasks if expected_index.get(t) == ours_index.get(t)]

    def rows(path):
        t = pq.read_table(path).to_pydict()
        return {d: (p, k, n) for d, p, k, n in zip(t["doc_id"], t["passed"], t["task"], t["ngram"])}

    expected, ours = rows(oracle_decisions), rows(decisions)
    same = [d for d in expected if ours.get(d) == expected[d]]
    removed = sum(1 for p, _, _ in expected.values() if not p)
    print(f"decont: {len(tasks)} tasks, {len(same_tasks)} with datatrove's hashes; "
          f"{len(expected)} documents ({removed} contaminated for datatrove), {len(same)} decided as it does")
    shown = 0
    for d in expected:
        if ours.get(d) != expected[d] and shown < show:
            shown += 1
            print(f"  {d}: datatrove {expected[d]}\n  {' ' * len(str(d))}  webtext   {ours.get(d)}")
    shares = {"index_tasks": len(same_tasks) / max(len(tasks), 1),
              "decisions": len(same) / max(len(expected), 1)}
    floors = floors_of(args, "decont")
    failed = [k for k, share in shares.items() if below_floor("decont", k, share, floors, args)]
    for key, share in shares.items():
        print(f"decont {key} {share:.6f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
