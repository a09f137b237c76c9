"""token_count against datatrove 0.10.1's TokensCounter over PyPI's tokenizers 0.23.1 (the Python
binding of the Rust crate webtext builds with), with three tokenizers this script trains itself on
the de-duplication corpus: the token count of every one of its 20,000 documents, compared exactly.

    python token_count.py SHARED WEBTEXT [--floor eval/parity/floors.txt]

The three tokenizers have the shapes of the published ones: GPT-2's byte-level BPE (its
pre-tokenizer's regular expression over Unicode classes), BERT's WordPiece (its normalizer, which
strips accents after NFD, its pre-tokenizer, its [CLS] ... [SEP] template and a truncation to 512
tokens) and a SentencePiece-style Unigram (NFKC, Metaspace, a <s> template). Each is trained on
the even-numbered documents and written as a tokenizer.json. The counts of the Python side are
TokensCounter's: `len(encoding.ids)` of `encode_batch` over batches of 10,000 documents, plus one
with count_eos_token. Prints the share of documents whose counts are equal, per tokenizer and
option; with --floor, exits 1 when one tokenizer's share is below its floor
(`token_count TOKENIZER SHARE`).
"""

import json
import os
import subprocess
import sys
import tempfile

import pyarrow.parquet as pq
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

from floors import below_floor, floors_of

VOCABULARY = 8000
# datatrove's TokensCounter's default batch.
BATCH = 10_000


def byte_level_bpe():
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(vocab_size=VOCABULARY, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    return tokenizer, trainer


def wordpiece():
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=VOCABULARY,
                                        special_tokens=["[UNK]", "[CLS]", "[SEP]"],
                                        show_progress=False)
    return tokenizer, trainer


def unigram():
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.NFKC()
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=VOCABULARY, special_tokens=["<unk>", "<s>"],
                                      unk_token="<unk>", show_progress=False)
    return tokenizer, trainer


def finish(name, tokenizer):
    """The post-processing and truncation of the published tokenizer of that shape."""
    if name == "wordpiece":
        cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
        tokenizer.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
        tokenizer.enable_truncation(512)
    if name == "unigram":
        tokenizer.post_processor = processors.TemplateProcessing(
            single="<s> $A", special_tokens=[("<s>", tokenizer.token_to_id("<s>"))])


def train(folder, texts):
    paths = {}
    training = texts[::2]
    for name, shape in (("byte_level_bpe", byte_level_bpe), ("wordpiece", wordpiece),
                        ("unigram", unigram)):
        tokenizer, trainer = shape()
        # Unigram's trainer is the slow one: a quarter of the documents suffices.
        sample = training[::4] if name == "unigram" else training
        tokenizer.train_from_iterator(sample, trainer=trainer, length=len(sample))
        finish(name, tokenizer)
        paths[name] = os.path.join(folder, f"{name}.json")
        tokenizer.save(paths[name])
    return paths


def theirs(path, texts, add_special_tokens):
    """TokensCounter.run's counts without its end-of-sequence token (add_special_tokens=False is
    not datatrove's: the binding's)."""
    tokenizer = Tokenizer.from_file(path)
    counts = []
    for start in range(0, len(texts), BATCH):
        encoded = tokenizer.encode_batch(texts[start:start + BATCH],
                                         add_special_tokens=add_special_tokens)
        counts.extend(len(e.ids) for e in encoded)
    return counts


# The options of each comparison, and how TokensCounter's count follows from the binding's.
CONFIGURATIONS = (
    ("", "defaults", True, 0),
    (", count_eos_token=true", "eos", True, 1),
    (", add_special_tokens=false", "no_special", False, 0),
)


def ours(webtext, table, path):
    """The counts of every configuration, from one query."""
    columns = ", ".join(f"token_count(text, 'tokenizer={path}{options}') AS {column}"
                        for options, column, _, _ in CONFIGURATIONS)
    sql = f"SELECT doc_id, {columns} FROM t ORDER BY doc_id"
    out = subprocess.run([webtext, "sql", "--table", f"t={table}", "--format", "jsonl", sql],
                         check=True, capture_output=True, text=True).stdout
    return list(map(json.loads, out.splitlines()))


def main():
    args = sys.argv[1:]
    shared, webtext = args[0], args[1]
    floors = floors_of(args, "token_count")
    table = f"{shared}/eval/dedup/documents.parquet"
    documents = pq.read_table(table, columns=["doc_id", "text"]).to_pylist()
    ids = [d["doc_id"] for d in documents]
    texts = [d["text"] for d in documents]
    failed = False
    with tempfile.TemporaryDirectory(prefix="webtext-tokenizers-") as folder:
        for name, path in train(folder, texts).items():
            mine = ours(webtext, table, path)
            binding = {special: dict(zip(ids, theirs(path, texts, special)))
                       for special in (True, False)}
            same = 0
            for options, column, special, eos in CONFIGURATIONS:
                expected = {i: n + eos for i, n in binding[special].items()}
                got = {row["doc_id"]: row[column] for row in mine}
                agree = sum(got.get(i) == n for i, n in expected.items())
                for i in [i for i, n in expected.items() if got.get(i) != n][:3]:
                    print(f"    {name}{options} document {i}: ours {got.get(i)}, theirs {expected[i]}")
                shown = options.lstrip(", ") or "datatrove's defaults"
                print(f"{name:<15} {shown:<26} {agree} of {len(expected)} documents equal")
                same += agree
            share = same / (len(CONFIGURATIONS) * len(documents))
            failed |= below_floor("token_count", name, share, floors, args)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
