#!/usr/bin/env python3
"""Writes the bundled tables of the Burmese, Lao and Khmer word tokenizers into tokenizers/:

- pyidaungsu_0.1.4_tokenizer.crfsuite.gz: pyidaungsu's CRFsuite model file, as it ships;
- laonlp_1.3.0_words_lo.txt.gz: LaoNLP's `lao_words()` (the union of its four word lists, each
  line read as LaoNLP reads it), sorted, one word per line;
- khmer_nltk_1.6_word.crfsuite.zst: the CRFsuite model inside khmer-nltk's
  `word_tokenize/sklearn_crf_ner_10000.sav` (an sklearn-crfsuite estimator; zstd -19, by the
  `zstd` command), and khmer_nltk_1.6_corrections.json: its `mistokenized_dict`, as a list of
  [from, to] pairs in the dictionary's order (the order its replacements are made in).

Run with pyidaungsu-numpy2 0.1.4, laonlp 1.3.0 and khmer-nltk 1.6 (with sklearn-crfsuite 0.5.0)
installed (the packages datatrove 0.10.1's BurmeseTokenizer, LaoTokenizer and KhmerTokenizer
import):

    python tools/dump_southeast_asian_tables.py tokenizers/
"""

import gzip
import hashlib
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pyidaungsu
import khmernltk
from khmernltk.utils.constants import mistokenized_dict
from laonlp.corpus import lao_words


def write(path: Path, data: bytes) -> None:
    with gzip.GzipFile(path, "wb", mtime=0, compresslevel=9) as f:
        f.write(data)
    print(path, len(data), "bytes, sha256", hashlib.sha256(data).hexdigest(), file=sys.stderr)


def main() -> None:
    out = Path(sys.argv[1])
    model = Path(pyidaungsu.__file__).parent / "model" / "tokenizer.crfsuite"
    write(out / "pyidaungsu_0.1.4_tokenizer.crfsuite.gz", model.read_bytes())
    words = sorted(set(lao_words()))
    write(out / "laonlp_1.3.0_words_lo.txt.gz", "\n".join(words).encode("utf-8"))
    estimator = Path(khmernltk.__file__).parent / "word_tokenize" / "sklearn_crf_ner_10000.sav"
    with open(estimator, "rb") as f:
        crf = pickle.load(f)  # holds the model in a temporary file while it lives
    model = Path(crf.modelfile.name).read_bytes()
    print("khmer-nltk model", len(model), "bytes, sha256", hashlib.sha256(model).hexdigest(),
          file=sys.stderr)
    zstd = subprocess.run(["zstd", "-19", "-q", "-c"], input=model, capture_output=True, check=True)
    (out / "khmer_nltk_1.6_word.crfsuite.zst").write_bytes(zstd.stdout)
    pairs = (json.dumps(pair, ensure_ascii=False) for pair in mistokenized_dict.items())
    corrections = "[\n" + ",\n".join(pairs) + "\n]\n"
    (out / "khmer_nltk_1.6_corrections.json").write_text(corrections, encoding="utf-8")


if __name__ == "__main__":
    main()
