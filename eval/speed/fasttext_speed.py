"""detect_language against fastText's own Python binding (fasttext-wheel 0.9.2, the binding the
language set's reference predictions were made with), on the same texts, one core (the caller pins
the process), ratios from one run.

    python fasttext_speed.py SENTENCES.parquet LID176.ftz WEBTEXT [REPEAT]

The binding is called as datatrove's LanguageFilter calls it (one predict per text, newlines
replaced, k=-1) and with k=1; webtext runs detect_language over the same Parquet texts, repeated
REPEAT times (default 5) so that the process start is a small part, with the default (the best
language) and with top=all (every language, as k=-1). MB = 10^6 bytes of UTF-8 text.
"""

import sys
import time

import fasttext
import pyarrow.parquet as pq

from webtext_sql import timed_csv_query


def time_binding(model, texts, k):
    start = time.perf_counter()
    for text in texts:
        model.predict(text.replace("\n", " "), k=k)
    return time.perf_counter() - start


def time_webtext(webtext, sentences, repeat, options):
    sql = (
        f"SELECT count(detect_language(text{options})['language']) AS n "
        f"FROM s CROSS JOIN (SELECT unnest(range({repeat})) AS r)"
    )
    seconds, _, row = timed_csv_query(webtext, {"s": sentences}, sql)
    return seconds, int(row[0])

def main():
    sentences, model_path, webtext = sys.argv[1:4]
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    texts = pq.read_table(sentences, columns=["text"]).column("text").to_pylist()
    megabytes = sum(len(t.encode()) for t in texts) / 1e6
    model = fasttext.load_model(model_path)
    model.predict("warm up", k=1)
    rows = []
    for k in (-1, 1):
        rows.append((f"fastText binding, predict per text, k={k}", time_binding(model, texts, k), 1))
    for label, options in (("default", ""), ("top=all", ", 'top=all'")):
        seconds, n = time_webtext(webtext, sentences, repeat, options)
        assert n == len(texts) * repeat, n
        rows.append((f"webtext detect_language ({label}), x{repeat}", seconds, repeat))
    print(f"{len(texts)} texts, {megabytes:.2f} MB, one core")
    binding = rows[0][1]
    for label, seconds, times in rows:
        rate = megabytes * times / seconds
        print(f"{label:<52} {seconds:>7.2f} s {rate:>7.2f} MB/s {binding / (seconds / times):>6.1f}x")


if __name__ == "__main__":
    main()
