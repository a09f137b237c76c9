#!/usr/bin/env python3
"""Writes the bundled tables of the Burmese and Lao word tokenizers into tokenizers/:

- pyidaungsu_0.1.4_tokenizer.crfsuite.gz: pyidaungsu's CRFsuite model file, as it ships;
- laonlp_1.3.0_words_lo.txt.gz: LaoNLP's `lao_words()` (the union of its four word lists, each
  line read as LaoNLP reads it), sorted, one word per line.

Run with pyidaungsu-numpy2 0.1.4 and laonlp 1.3.0 installed (the packages datatrove 0.10.1's
BurmeseTokenizer and LaoTokenizer import):

    python tools/dump_southeast_asian_tables.py tokenizers/
"""

import gzip
import hashlib
import sys
from pathlib import Path

import pyidaungsu
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


if __name__ == "__main__":
    main()
