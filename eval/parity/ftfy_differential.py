#!/usr/bin/env python3
"""Texts that exercise every path of ftfy 6.3.1, with what ftfy itself makes of them.

FineWeb-2's oracle documents are mostly clean text, so they reach few of ftfy's paths. This script
builds harder texts from the labelled sentences of the language set (67 languages) and records
ftfy's output for each, under datatrove's FTFYFormatter configuration and under fix_text's own
defaults (NULL where that is the same text); eval/parity/fineweb2.rs compares this crate's `ftfy`
with both.

The texts, by kind (seeded, so a rerun writes the same file):
  mojibake    a sentence encoded as UTF-8 and decoded with one of ftfy's encodings (or CPython's
              windows-1252 and cp850, which ftfy does not try), once or twice;
  mixed       correct text with mojibake inside it, as a page assembled from two sources has;
  lossy       mojibake whose no-break spaces became spaces or whose bytes became '?' or U+FFFD;
  variants    CESU-8 pairs and Java's C0 80, read as Latin-1 or windows-1252;
  markup      HTML entities (named, upper-case, numeric, invalid), lines with '<', terminal escapes,
              control and C1 characters, a byte-order mark, CRLF, ligatures, full-width forms;
  noise       random runs of the characters mojibake is made of (Latin-1, Latin Extended, Greek,
              Cyrillic, box drawing, punctuation), which probe the badness heuristic;
  sentence    a sentence as it is.

Usage (the interpreter of the FineWeb-2 oracle: CPython 3.11.7, ftfy 6.3.1, pyarrow):
    python3 eval/parity/ftfy_differential.py ../shared/eval/langid/sentences.parquet \\
        eval/parity/ftfy_differential.parquet
"""
import random
import sys

import ftfy
import pyarrow as pa
import pyarrow.parquet as pq

assert ftfy.__version__ == "6.3.1", ftfy.__version__

DATATROVE = ftfy.TextFixerConfig(
    fix_latin_ligatures=False,
    fix_character_width=False,
    uncurl_quotes=False,
    fix_line_breaks=False,
    normalization=None,
)
ENCODINGS = [
    "latin-1",
    "sloppy-windows-1252",
    "sloppy-windows-1251",
    "sloppy-windows-1250",
    "sloppy-windows-1253",
    "sloppy-windows-1254",
    "sloppy-windows-1257",
    "iso-8859-2",
    "macroman",
    "cp437",
    "windows-1252",
    "cp850",
]
NOISE = (
    [chr(c) for c in range(0xA0, 0x180)]
    + [chr(c) for c in range(0x386, 0x3CF)]
    + [chr(c) for c in range(0x401, 0x45F)]
    + list("│┌┐└┘├┤┬┴┼═║╔╗╚╝▀▄█▌▐░▒▓■€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ\ufffd")
    + [chr(c) for c in range(0x80, 0xA0)]
    + list("abcdefghijklmnopqrstuvwxyz ABCXYZ .,;:!?'\"()[]0123456789")
)
MARKUP = [
    "&amp;", "&lt;", "&gt;", "&quot;", "&eacute;", "&EACUTE;", "&Eacute;", "&nbsp;", "&hellip;",
    "&#233;", "&#xE9;", "&#X41;", "&#128;", "&#150;", "&#0;", "&#13;", "&#59;", "&#12ab;",
    "&#xD800;", "&#1114112;", "&#x1F600;", "&#xFFFE;", "&#1;", "&bogus;", "&amp;amp;",
    "&AMP;", "&copy", "<b>", "<", "\x1b[31m", "\x1b[0;1m", "\x1b[", "\x00", "\x07", "\x0b",
    "\x1c", "\x1e", "\x7f", "\ufeff", "\u206a", "\ufff9", "\x85", "\x92", "\x80", "\x9d",
    "\r\n", "\r", "\u2028", "\u2029", "ﬁ", "ﬂ", "Ĳ", "ǆ", "ＡＢＣ", "ｶﾀｶﾅ", "\u3000", "“", "”",
    "‘", "’", "ʼ", "e\u0301", "\n",
]


def mojibake(text, rng):
    encoding = rng.choice(ENCODINGS)
    try:
        return text.encode("utf-8").decode(encoding)
    except UnicodeDecodeError:
        return text.encode("utf-8").decode(encoding, errors="replace")


def cesu8(text):
    out = bytearray()
    for c in text:
        code = ord(c)
        if code == 0:
            out += b"\xc0\x80"
        elif code >= 0x10000:
            units = c.encode("utf-16-be")
            for i in range(0, len(units), 2):
                unit = int.from_bytes(units[i : i + 2], "big")
                out += chr(unit).encode("utf-8", "surrogatepass")
        else:
            out += c.encode("utf-8")
    return bytes(out)


def make_case(kind, sentences, rng):
    sentence = rng.choice(sentences)
    if kind == "sentence":
        return sentence
    if kind == "mojibake":
        text = mojibake(sentence, rng)
        return mojibake(text, rng) if rng.random() < 0.2 else text
    if kind == "mixed":
        other = rng.choice(sentences)
        cut = rng.randrange(len(sentence) + 1)
        return sentence[:cut] + " " + mojibake(other, rng) + " " + sentence[cut:]
    if kind == "lossy":
        text = mojibake(sentence, rng)
        if rng.random() < 0.5:
            return text.replace("\xa0", " ")
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            chars[rng.randrange(len(chars))] = rng.choice(["?", "\ufffd", "\x1a"])
        return "".join(chars)
    if kind == "variants":
        pieces = [sentence, rng.choice(["😀", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\x00", "🎉 ok"]), sentence]
        encoded = cesu8(" ".join(pieces))
        return encoded.decode(rng.choice(["latin-1", "windows-1252", "sloppy-windows-1252"]), "replace")
    if kind == "markup":
        pieces = [sentence]
        for _ in range(rng.randint(1, 6)):
            pieces.insert(rng.randrange(len(pieces) + 1), rng.choice(MARKUP))
        if rng.random() < 0.3:
            pieces.insert(rng.randrange(len(pieces) + 1), mojibake(rng.choice(sentences), rng))
        return "".join(pieces)
    if kind == "noise":
        return "".join(rng.choice(NOISE) for _ in range(rng.randint(1, 40)))
    raise ValueError(kind)


def main():
    source, target = sys.argv[1], sys.argv[2]
    table = pq.read_table(source, columns=["text"])
    # At most 160 characters of each: the paths are reached as well, and the file stays small.
    sentences = [t[:160] for t in table.column("text").to_pylist() if t]
    rng = random.Random("webtext-ftfy-differential-v1")
    kinds = {"sentence": 300, "mojibake": 2000, "mixed": 1200, "lossy": 1200, "variants": 400,
             "markup": 1500, "noise": 3000}
    rows = {"kind": [], "text": [], "datatrove": [], "fix_text": []}
    for kind, count in kinds.items():
        for _ in range(count):
            # Several lines now and then: ftfy fixes line by line, and a line with '<' turns
            # entity decoding off for the lines after it.
            lines = [make_case(kind, sentences, rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
            text = "\n".join(lines)
            rows["kind"].append(kind)
            rows["text"].append(text)
            datatrove = ftfy.fix_text(text, config=DATATROVE)
            fix_text = ftfy.fix_text(text)
            rows["datatrove"].append(datatrove)
            # NULL where it is datatrove's: the file stays small.
            rows["fix_text"].append(None if fix_text == datatrove else fix_text)
    pq.write_table(pa.table(rows), target, compression="zstd", compression_level=19)
    changed = sum(a != b for a, b in zip(rows["text"], rows["datatrove"]))
    print(f"{len(rows['text'])} texts, {changed} changed by datatrove's FTFYFormatter -> {target}")


main()
