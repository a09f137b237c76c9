"""ftfy 6.3.1's fix_text, configured as datatrove's FTFYFormatter (FineWeb-2's first final touch),
against webtext's ftfy, on the same texts, one core (the caller pins the process), ratios from
one run.

    python ftfy_speed.py SHARED WEBTEXT

Inputs: the 7,500 documents of the FineWeb-2 oracle (mostly clean text: most lines are ASCII or
not bad by ftfy's heuristic) and the 9,600 texts of eval/parity/ftfy_differential.parquet (nearly
all need repair). webtext's times are whole `webtext sql` runs, process start included. Both
sides' total output lengths are printed and must agree.
"""

import sys
import time
from pathlib import Path

import ftfy
import pyarrow.parquet as pq

from webtext_sql import timed_csv_query

DATATROVE = ftfy.TextFixerConfig(
    fix_latin_ligatures=False,
    fix_character_width=False,
    uncurl_quotes=False,
    fix_line_breaks=False,
    normalization=None,
)


def main():
    shared, webtext = Path(sys.argv[1]), sys.argv[2]
    sets = [
        ("FineWeb-2 oracle", shared / "oracle/fineweb2/documents.parquet"),
        ("built to be repaired", Path(__file__).resolve().parents[1] / "parity/ftfy_differential.parquet"),
    ]
    print(f"{'texts':<22} {'count':>6} {'MB':>6} {'ftfy s':>8} {'webtext s':>10} {'ratio':>7}")
    agree = True
    for name, path in sets:
        texts = pq.read_table(path, columns=["text"]).column("text").to_pylist()
        start = time.perf_counter()
        theirs = sum(len(ftfy.fix_text(t, config=DATATROVE)) for t in texts)
        their_seconds = time.perf_counter() - start
        sql = "SELECT sum(character_length(ftfy(text))) AS characters FROM d"
        our_seconds, _, values = timed_csv_query(webtext, {"d": str(path)}, sql)
        megabytes = sum(len(t.encode()) for t in texts) / 1e6
        print(f"{name:<22} {len(texts):>6} {megabytes:>6.1f} {their_seconds:>8.2f} "
              f"{our_seconds:>10.2f} {their_seconds / our_seconds:>6.1f}x")
        ours = int(values[0])
        if ours != theirs:
            print(f"  output characters differ: ftfy {theirs}, webtext {ours}", file=sys.stderr)
            agree = False
    sys.exit(0 if agree else 1)


main()
