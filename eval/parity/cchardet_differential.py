#!/usr/bin/env python3
"""Bytes that exercise uchardet's probers, with what cchardet (faust-cchardet 3.2.0) guesses for
each and what CPython's strict decoding with that guess gives, as datatrove's WARC reader decodes.

    python3 eval/parity/cchardet_differential.py SENTENCES.parquet OUT.parquet [WARC...]

SENTENCES.parquet is the labelled language set (../shared/eval/langid/sentences.parquet). The
inputs, by kind (seeded, so a rerun writes the same file):
  text      a language's sentences (1, 8 or 60 of them) encoded with a charset that can encode
            them: every single-byte charset uchardet models and the CJK ones;
  page      the same text inside an English HTML page, as a crawl's pages mostly are;
  sprinkle  ASCII text with a few bytes above 0x7F, the pages whose charset is hardest to guess;
  random    random bytes, and random bytes above 0x7F between ASCII words;
  codec     for every label cchardet can answer, text of the languages encoded with it, the
            same with random bytes spliced in, and random byte pairs and runs: these rows hold the
            label in `encoding` (no guess, confidence NULL) and what CPython's strict decoding
            with it gives, which checks the decoders on more than the guesses reach;
  warc      with WARC files given: the payload of every response record that is not UTF-8 (these
            rows keep the payload's SHA-1 and the record's id instead of the bytes).

Columns: kind, label (language/charset or record id), data (NULL for warc rows), sha1,
encoding (cchardet's guess, NULL for none), confidence, decoded (the SHA-1 of
`data.decode(encoding)` as UTF-8, NULL where it raises UnicodeDecodeError or LookupError, or
there is no guess).
"""
import codecs
import hashlib
import random
import sys

import cchardet
import pyarrow as pa
import pyarrow.parquet as pq

assert cchardet.__version__ == "3.2.0", cchardet.__version__

SINGLE_BYTE = ["cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
               "iso8859_1", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5", "iso8859_6", "iso8859_7",
               "iso8859_8", "iso8859_9", "iso8859_10", "iso8859_11", "iso8859_13", "iso8859_15", "iso8859_16",
               "koi8_r", "koi8_u", "mac_cyrillic", "mac_latin2", "mac_roman", "cp437", "cp737", "cp850", "cp852",
               "cp855", "cp862", "cp865", "cp866", "tis_620"]
MULTI_BYTE = ["shift_jis", "cp932", "euc_jp", "gb2312", "gbk", "gb18030", "euc_kr", "cp949", "johab", "big5",
              "cp950", "hz", "iso2022_jp", "iso2022_kr", "utf_16", "utf_32"]
PAGE = ("<!DOCTYPE html>\n<html><head><title>{title}</title>\n<meta name=\"viewport\" content=\"width=device-width\">"
        "</head>\n<body><div class=\"nav\"><a href=\"/\">Home</a> | <a href=\"/about\">About us</a></div>\n"
        "<article><h1>{title}</h1>\n{paragraphs}</article>\n<footer>Copyright 2024. All rights reserved."
        "</footer></body></html>\n")


def guess(data):
    result = cchardet.detect(data)
    encoding = result["encoding"]
    return encoding, result["confidence"], None if encoding is None else strict(data, encoding)


def strict(data, label):
    try:
        return data.decode(label)
    except (UnicodeDecodeError, LookupError):
        return None


def encodable(sentences, codec):
    out = []
    for sentence in sentences:
        try:
            out.append(sentence.encode(codec))
        except UnicodeEncodeError:
            continue
    return out


def rows_of_language(rng, language, sentences):
    for codec in SINGLE_BYTE + MULTI_BYTE:
        for count in (1, 8, 60):
            chosen = encodable(rng.sample(sentences, min(count * 2, len(sentences))), codec)[:count]
            if not chosen or all(max(s) < 0x80 for s in chosen if s):
                continue
            text = b" ".join(chosen)
            yield "text", f"{language}/{codec}/{count}", text
            if codec in ("utf_16", "utf_32", "hz", "iso2022_jp", "iso2022_kr"):
                continue
            paragraphs = "".join(f"<p>{s}</p>\n" for s in (c.decode(codec) for c in chosen))
            try:
                page = PAGE.format(title=chosen[0].decode(codec)[:60], paragraphs=paragraphs).encode(codec)
            except UnicodeEncodeError:
                continue
            yield "page", f"{language}/{codec}/{count}", page


def sprinkles(rng, english):
    for i in range(300):
        words = " ".join(rng.sample(english, 20)).encode("ascii", "ignore")
        data = bytearray(words * rng.choice([1, 5, 40]))
        for _ in range(rng.choice([1, 2, 5, 20])):
            data[rng.randrange(len(data))] = rng.randrange(0x80, 0x100)
        yield "sprinkle", f"sprinkle/{i}", bytes(data)


def randoms(rng):
    for i in range(300):
        size = rng.choice([3, 17, 300, 1500, 5000])
        yield "random", f"random/{i}", bytes(rng.randrange(256) for _ in range(size))
    for i in range(200):
        parts = []
        for _ in range(rng.choice([5, 50, 400])):
            parts.append(b"word" if rng.random() < 0.6 else bytes(rng.randrange(0x80, 0x100) for _ in range(rng.randrange(1, 4))))
        yield "random", f"highwords/{i}", b" ".join(parts)


LABELS = ["ASCII", "BIG5", "CP737", "EUC-JP", "EUC-TW", "GB18030", "GEORGIAN-ACADEMY", "HZ-GB-2312", "IBM852",
          "IBM855", "IBM862", "IBM865", "IBM866", "ISO-2022-JP", "ISO-2022-KR", "ISO-8859-1", "ISO-8859-10",
          "ISO-8859-11", "ISO-8859-13", "ISO-8859-15", "ISO-8859-16", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4",
          "ISO-8859-5", "ISO-8859-6", "ISO-8859-7", "ISO-8859-8", "ISO-8859-9", "Johab", "KOI8-R", "SHIFT_JIS",
          "TIS-620", "UHC", "UTF-16", "UTF-32", "UTF-8", "UTF-8-SIG", "VISCII", "WINDOWS-1250", "WINDOWS-1251",
          "WINDOWS-1252", "WINDOWS-1253", "WINDOWS-1255", "WINDOWS-1256", "WINDOWS-1257", "WINDOWS-1258",
          "maccentraleurope", "maccyrillic"]


def codec_rows(rng, by_language):
    for label in LABELS:
        for language in sorted(by_language):
            try:
                chosen = encodable(rng.sample(by_language[language], 20), label)[:8]
            except LookupError:
                chosen = [s.encode("utf-8") for s in rng.sample(by_language[language], 3)]
            if not chosen or all(max(s) < 0x80 for s in chosen if s):
                continue
            text = bytearray(b" ".join(chosen))
            yield "codec", label, bytes(text)
            for _ in range(3):
                text[rng.randrange(len(text))] = rng.randrange(0x80, 0x100)
            yield "codec", label, bytes(text)
        for i in range(40):
            data = bytes(rng.randrange(0x80, 0x100) if rng.random() < 0.7 else rng.randrange(0x20, 0x80)
                         for _ in range(rng.choice([1, 2, 3, 4, 9, 40])))
            yield "codec", label, data


def warc_rows(paths):
    from warcio.archiveiterator import ArchiveIterator
    for path in paths:
        with open(path, "rb") as f:
            for record in ArchiveIterator(f):
                if record.rec_type not in ("response", "conversion"):
                    continue
                data = record.content_stream().read()
                try:
                    data.decode("utf-8")
                    continue
                except UnicodeDecodeError:
                    pass
                yield "warc", record.rec_headers.get_header("WARC-Record-ID"), data


def main():
    sentences_path, out_path, warcs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rng = random.Random(20261208)
    by_language = {}
    for row in pq.read_table(sentences_path, columns=["language", "text"]).to_pylist():
        by_language.setdefault(row["language"], []).append(row["text"])
    inputs = []
    for language in sorted(by_language):
        inputs.extend(rows_of_language(rng, language, by_language[language]))
    inputs.extend(sprinkles(rng, " ".join(by_language["en"]).split()))
    inputs.extend(randoms(rng))
    inputs.extend(warc_rows(warcs))
    inputs.extend(codec_rows(rng, by_language))
    columns = {k: [] for k in ("kind", "label", "data", "sha1", "encoding", "confidence", "decoded")}
    for kind, label, data in inputs:
        if kind == "codec":
            encoding, confidence, decoded = label, None, strict(data, label)
        else:
            encoding, confidence, decoded = guess(data)
        columns["kind"].append(kind)
        columns["label"].append(label)
        columns["sha1"].append(hashlib.sha1(data).hexdigest())
        columns["encoding"].append(encoding)
        columns["confidence"].append(confidence)
        columns["data"].append(None if kind == "warc" else data)
        columns["decoded"].append(None if decoded is None else hashlib.sha1(decoded.encode("utf-8")).hexdigest())
    table = pa.table({
        "kind": pa.array(columns["kind"], pa.string()),
        "label": pa.array(columns["label"], pa.string()),
        "data": pa.array(columns["data"], pa.binary()),
        "sha1": pa.array(columns["sha1"], pa.string()),
        "encoding": pa.array(columns["encoding"], pa.string()),
        "confidence": pa.array(columns["confidence"], pa.float32()),
        "decoded": pa.array(columns["decoded"], pa.string()),
    })
    pq.write_table(table, out_path, compression="zstd", compression_level=19)
    kinds = {}
    for kind in columns["kind"]:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"{table.num_rows} rows {kinds} -> {out_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
