"""The four quality filters: datatrove 0.10.1 in Python against webtext's SQL functions, on the same
documents, one core (the caller pins the process), ratios from one run.

    python datatrove_filters_speed.py DOCUMENTS.parquet WEBTEXT

datatrove's filters run as the parity oracle ran them: each filter's filter() on a fresh Document of
each original text (C4 rewrites the text it keeps), with default arguments, spaCy's tokenizer
loaded and warmed up before timing. webtext runs one query over the same Parquet file computing
all four structs, on one partition. Both sides' pass counts are printed and must agree.
"""

import sys
import time

import pyarrow.parquet as pq
from datatrove.data import Document
from datatrove.pipeline.filters import (
    C4QualityFilter,
    FineWebQualityFilter,
    GopherQualityFilter,
    GopherRepetitionFilter,
)

from webtext_sql import timed_csv_query

FILTERS = [
    ("gopher_repetition", GopherRepetitionFilter),
    ("gopher_quality", GopherQualityFilter),
    ("c4_quality", C4QualityFilter),
    ("fineweb_quality", FineWebQualityFilter),
]


def passed(result):
    return result is True or (isinstance(result, tuple) and result[0])


def time_datatrove(texts):
    filters = [(name, cls()) for name, cls in FILTERS]
    for _, flt in filters:  # loads spaCy and fills its caches as a long run would have
        for i, text in enumerate(texts[:200]):
            flt.filter(Document(text=text, id=str(i)))
    seconds, passes = {}, {}
    for name, flt in filters:
        start = time.perf_counter()
        n = 0
        for i, text in enumerate(texts):
            n += passed(flt.filter(Document(text=text, id=str(i))))
        seconds[name] = time.perf_counter() - start
        passes[name] = n
    return seconds, passes


def time_webtext(webtext, documents):
    calls = ", ".join(f"{name}(text) AS {name}" for name, _ in FILTERS)
    sums = ", ".join(f"sum(CAST({name}['passed'] AS INT)) AS {name}" for name, _ in FILTERS)
    sql = f"SELECT {sums} FROM (SELECT {calls} FROM d)"
    seconds, header, values = timed_csv_query(webtext, {"d": documents}, sql)
    return seconds, dict(zip(header, map(int, values)))

def main():
    documents, webtext = sys.argv[1], sys.argv[2]
    texts = [t for t in pq.read_table(documents, columns=["text"]).column("text").to_pylist()]
    megabytes = sum(len(t.encode()) for t in texts) / 1e6
    ours, our_passes = time_webtext(webtext, documents)
    theirs, their_passes = time_datatrove(texts)
    print(f"{len(texts)} documents, {megabytes:.1f} MB, one core")
    print(f"{'filter':<20} {'datatrove s':>12} {'passed':>7} {'webtext passed':>15}")
    for name, _ in FILTERS:
        print(f"{name:<20} {theirs[name]:>12.1f} {their_passes[name]:>7} {our_passes[name]:>15}")
    total = sum(theirs.values())
    print(f"all four: datatrove {total:.1f} s ({len(texts) / total:.0f} docs/s); "
          f"webtext {ours:.2f} s ({len(texts) / ours:.0f} docs/s, one query, process start included)")
    print(f"ratio: {total / ours:.1f}x")
    if our_passes != their_passes:
        print("the pass counts differ", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
