"""fasttext_predict against fastText's Python binding (fasttext-wheel 0.9.2, the same C++ code),
with models this script trains itself on the labelled language set: the k = 3 most probable
labels and their probabilities of every one of its 67,369 texts, compared exactly, then with a
threshold.

    python fasttext_predict.py SHARED WEBTEXT [--floor eval/parity/floors.txt]

Two models, trained on the even-numbered sentences with one thread (so training is
deterministic): a softmax model (.bin) and a hierarchical-softmax model quantized to .ftz, as
lid.176.ftz is. The texts reach the binding as datatrove hands them over (line feeds replaced by
spaces). Prints the share of texts whose labels and probabilities are identical, per model; with
--floor, exits 1 when one is below its floor (`fasttext_predict MODEL SHARE`).
"""

import json
import os
import subprocess
import sys
import tempfile

import fasttext
import pyarrow as pa
import pyarrow.parquet as pq

from floors import below_floor, floors_of


def train(folder, rows):
    data = os.path.join(folder, "train.txt")
    with open(data, "w") as out:
        for row in rows:
            if row["kind"] == "sentence" and row["id"] % 2 == 0:
                out.write(f"__label__{row['language']} {row['text'].replace(chr(10), ' ')}\n")
    softmax = fasttext.train_supervised(input=data, epoch=3, lr=0.5, dim=16, wordNgrams=2,
                                        minCount=1, thread=1, seed=0, verbose=0)
    softmax_path = os.path.join(folder, "softmax.bin")
    softmax.save_model(softmax_path)
    hs = fasttext.train_supervised(input=data, epoch=3, lr=0.5, dim=16, loss="hs", minCount=1,
                                   thread=1, seed=0, verbose=0)
    hs.quantize(input=data, retrain=False, qnorm=True, cutoff=20000)
    hs_path = os.path.join(folder, "hs_quantized.ftz")
    hs.save_model(hs_path)
    return {"softmax": softmax_path, "hs_quantized": hs_path}


def ours(webtext, table, model, options):
    sql = (f"SELECT id, fasttext_predict(text, 'model={model}, {options}')['labels'] AS labels "
           "FROM t ORDER BY id")
    out = subprocess.run([webtext, "sql", "--table", f"t={table}", "--format", "jsonl", sql],
                         check=True, capture_output=True, text=True).stdout
    return {row["id"]: [(p["label"], p["probability"]) for p in row["labels"]]
            for row in map(json.loads, out.splitlines())}


def theirs(path, rows, k, threshold):
    model = fasttext.load_model(path)
    predictions = {}
    for row in rows:
        labels, probabilities = model.predict(row["text"].replace("\n", " "), k=k, threshold=threshold)
        predictions[row["id"]] = [(l, float(p)) for l, p in zip(labels, probabilities)]
    return predictions


def main():
    args = sys.argv[1:]
    shared, webtext = args[0], args[1]
    floors = floors_of(args, "fasttext_predict")
    rows = pq.read_table(f"{shared}/eval/langid/sentences.parquet",
                         columns=["id", "language", "kind", "text"]).to_pylist()
    failed = False
    with tempfile.TemporaryDirectory(prefix="webtext-fasttext-") as folder:
        models = train(folder, rows)
        table = os.path.join(folder, "texts.parquet")
        pq.write_table(pa.table({"id": [r["id"] for r in rows], "text": [r["text"] for r in rows]}),
                       table)
        for name, path in models.items():
            same = 0
            for k, threshold, options in ((3, 0.0, "k=3"), (5, 0.1, "k=5, threshold=0.1")):
                mine = ours(webtext, table, path, options)
                binding = theirs(path, rows, k, threshold)
                agree = sum(mine.get(i) == p for i, p in binding.items())
                examples = [i for i, p in binding.items() if mine.get(i) != p][:3]
                for i in examples:
                    print(f"    {name} {options} text {i}: ours {mine.get(i)}, the binding's {binding[i]}")
                print(f"{name:<13} {options:<18} {agree} of {len(binding)} texts identical")
                same += agree
            share = same / (2 * len(rows))
            failed |= below_floor("fasttext_predict", name, share, floors, args)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
