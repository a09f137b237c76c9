"""`webtext stats` against datatrove 0.10.1's statistics (eval/parity/stats_datatrove.py's oracle).

    python stats.py ORACLE.parquet OUT_FOLDER [--config NAME] [--floor eval/parity/floors.txt] [--show N]

For every metric.json of the oracle ({group}/{stat}), the file `webtext stats` wrote under
OUT_FOLDER: the share of files identical byte for byte (`stats files_identical`), and the share
whose keys come in the same order with every number equal to datatrove's within 1e-9, relative
(`stats values_1e-9`). A file missing on either side counts as different. With `--config NAME`
(the oracle of stats_datatrove.py's `--config NAME`), the keys are `NAME_files_identical` and
`NAME_values_1e-9`.
"""

import json
import math
import os
import sys

import pyarrow.parquet as pq

from floors import below_floor, floors_of


def same_numbers(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_numbers(a[k], b[k]) for k in a)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def main(args):
    oracle, out = args[0], args[1]
    show = int(args[args.index("--show") + 1]) if "--show" in args else 0
    table = pq.read_table(oracle).to_pydict()
    expected = dict(zip(table["path"], table["json"]))
    ours = {}
    for root, _, files in os.walk(out):
        if "metric.json" in files:
            with open(os.path.join(root, "metric.json")) as f:
                ours[os.path.relpath(root, out)] = f.read()
    paths = sorted(set(expected) | set(ours))
    identical = sum(1 for p in paths if expected.get(p) == ours.get(p))
    close = sum(1 for p in paths if p in expected and p in ours
                and same_numbers(json.loads(expected[p]), json.loads(ours[p])))
    prefix = args[args.index("--config") + 1] + "_" if "--config" in args else ""
    shares = {f"{prefix}files_identical": identical / len(paths), f"{prefix}values_1e-9": close / len(paths)}
    print(f"stats: {len(paths)} metric files; identical {identical}, equal within 1e-9 {close}")
    shown = 0
    for p in paths:
        if expected.get(p) != ours.get(p) and shown < show:
            shown += 1
            print(f"  {p}: datatrove {str(expected.get(p))[:300]}")
            print(f"  {' ' * len(p)}  webtext   {str(ours.get(p))[:300]}")
    floors = floors_of(args, "stats")
    failed = [key for key, share in shares.items() if below_floor("stats", key, share, floors, args)]
    for key, share in shares.items():
        print(f"stats {key} {share:.6f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
