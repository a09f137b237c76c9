#!/usr/bin/env python3
"""Generate the tables of CPython's strict CJK decoders that cchardet's guesses name.

datatrove's WARC reader decodes a payload that is not UTF-8 with `bytes.decode(guess)`, strict:
a byte sequence the codec rejects drops the record. cchardet guesses SHIFT_JIS, EUC-JP, GB18030,
UHC (cp949), Johab and BIG5 among the multi-byte charsets, and CPython's decoders for them accept
other byte pairs than the WHATWG encodings encoding_rs implements. This script records, from the
running CPython, what each decoder makes of every sequence it could meet:
  * the high bytes that decode alone (Shift_JIS's half-width katakana);
  * every (lead, trail) pair that decodes to one character, as a rectangle of UTF-16 code units
    (0 where the pair is rejected) over the leads and trails that have any;
  * EUC-JP's three-byte JIS X 0212 characters (0x8F, then two bytes from 0xA1 to 0xFE);
  * GB18030's four-byte sequences of the Basic Multilingual Plane, as runs of consecutive code
    points over the sequences' linear index, and a check that the supplementary planes follow
    the linear rule the Rust decoder applies.
The rectangles go to algorithms/src/charset/python_cjk/CODEC.bin (little-endian u16), the rest to
algorithms/src/charset/python_cjk.rs. Every assumption the decoder makes (ASCII is itself, a byte
is a single character or a lead but not both, each pair is one BMP character) is asserted here.

Run with the interpreter of the FineWeb oracle (CPython 3.11.7):
    python3 tools/gen_python_cjk_tables.py
"""
import struct
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "algorithms" / "src" / "charset"
CODECS = ["shift_jis", "euc_jp", "cp949", "johab", "gb18030", "big5"]


def decode(data, codec):
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


def singles_of(codec):
    singles = {}
    for b in range(0x80, 0x100):
        text = decode(bytes([b, 0x41]), codec)
        if text is not None and len(text) == 2 and text[1] == "A":
            singles[b] = text[0]
    return singles


def pairs_of(codec):
    pairs = {}
    for lead in range(0x80, 0x100):
        for trail in range(0x100):
            text = decode(bytes([lead, trail]), codec)
            if text is not None and len(text) == 1:
                assert ord(text) < 0x10000, (codec, lead, trail)
                pairs[(lead, trail)] = ord(text)
    return pairs


def rectangle(pairs):
    leads = (min(l for l, _ in pairs), max(l for l, _ in pairs))
    trails = (min(t for _, t in pairs), max(t for _, t in pairs))
    width = trails[1] - trails[0] + 1
    cells = [0] * ((leads[1] - leads[0] + 1) * width)
    for (lead, trail), cp in pairs.items():
        cells[(lead - leads[0]) * width + trail - trails[0]] = cp
    return leads, trails, cells


def gb18030_linear(b1, b2, b3, b4):
    return (((b1 - 0x81) * 10 + (b2 - 0x30)) * 126 + (b3 - 0x81)) * 10 + (b4 - 0x30)


def gb18030_four_byte_runs():
    """(first linear index, first code point, length) of the BMP four-byte sequences."""
    runs = []
    for b1 in range(0x81, 0x85):
        for b2 in range(0x30, 0x3A):
            for b3 in range(0x81, 0xFF):
                for b4 in range(0x30, 0x3A):
                    text = decode(bytes([b1, b2, b3, b4]), "gb18030")
                    if text is None:
                        continue
                    assert len(text) == 1 and ord(text) < 0x10000
                    linear, cp = gb18030_linear(b1, b2, b3, b4), ord(text)
                    if runs and runs[-1][0] + runs[-1][2] == linear and runs[-1][1] + runs[-1][2] == cp:
                        runs[-1][2] += 1
                    else:
                        runs.append([linear, cp, 1])
    # The supplementary planes: 0x90308130 is U+10000, linearly up to U+10FFFF; nothing between
    # the BMP part and them, nothing after.
    base = gb18030_linear(0x90, 0x30, 0x81, 0x30)
    for b1 in (0x85, 0x8F, 0x90, 0xA0, 0xE3, 0xE4, 0xFE):
        for b2, b3, b4 in ((0x30, 0x81, 0x30), (0x32, 0x9A, 0x35), (0x32, 0x9A, 0x36), (0x39, 0xFE, 0x39)):
            text = decode(bytes([b1, b2, b3, b4]), "gb18030")
            expected = 0x10000 + gb18030_linear(b1, b2, b3, b4) - base
            if 0x10000 <= expected <= 0x10FFFF:
                assert text == chr(expected), (b1, b2, b3, b4, text)
            else:
                assert text is None, (b1, b2, b3, b4, text)
    return runs


def euc_jp_triples():
    cells = [0] * (94 * 94)
    for a in range(0xA1, 0xFF):
        for b in range(0xA1, 0xFF):
            text = decode(bytes([0x8F, a, b]), "euc_jp")
            if text is not None:
                assert len(text) == 1 and ord(text) < 0x10000
                cells[(a - 0xA1) * 94 + b - 0xA1] = ord(text)
    for a, b in ((0xA0, 0xA1), (0xA1, 0x41), (0x41, 0xA1)):
        assert decode(bytes([0x8F, a, b]), "euc_jp") is None
    return cells


def main():
    (OUT / "python_cjk").mkdir(exist_ok=True)
    rust = ["// @generated by tools/gen_python_cjk_tables.py from CPython " + sys.version.split()[0] + ". Do not edit.",
            "//! CPython's strict CJK decoders as tables (data, not code): see `python_decode`.",
            "",
            "use super::model::DoubleByteCodec;",
            ""]
    for codec in CODECS:
        assert all(decode(bytes([b]), codec) == chr(b) for b in range(0x80)), codec
        singles, pairs = singles_of(codec), pairs_of(codec)
        assert not any(lead in singles for lead, _ in pairs), codec
        leads, trails, cells = rectangle(pairs)
        (OUT / "python_cjk" / f"{codec}.bin").write_bytes(struct.pack(f"<{len(cells)}H", *cells))
        single_cells = [ord(singles.get(b, "\0")) for b in range(0x80, 0x100)]
        rust.append(f"pub(super) static {codec.upper()}: DoubleByteCodec = DoubleByteCodec {{\n"
                    f"    codec: \"{codec}\",\n"
                    f"    singles: [{', '.join(str(c) for c in single_cells)}],\n"
                    f"    leads: (0x{leads[0]:02X}, 0x{leads[1]:02X}),\n"
                    f"    trails: (0x{trails[0]:02X}, 0x{trails[1]:02X}),\n"
                    f"    pairs: include_bytes!(\"python_cjk/{codec}.bin\"),\n}};\n")
    triples = euc_jp_triples()
    (OUT / "python_cjk" / "euc_jp_0212.bin").write_bytes(struct.pack(f"<{len(triples)}H", *triples))
    rust.append("/// EUC-JP's 0x8F rows (JIS X 0212): 94 x 94 code units, 0 where rejected.")
    rust.append("pub(super) static EUC_JP_0212: &[u8] = include_bytes!(\"python_cjk/euc_jp_0212.bin\");\n")
    runs = gb18030_four_byte_runs()
    rust.append("/// GB18030's four-byte sequences in the BMP: (first linear index, first code point, length).")
    rust.append("pub(super) static GB18030_FOUR_BYTE_RUNS: &[(u32, u32, u32)] = &[")
    rust.extend(f"    ({a}, 0x{b:04X}, {c})," for a, b, c in runs)
    rust.append("];")
    rust.append(f"/// The linear index of 0x90308130, U+10000.\npub(super) const GB18030_SUPPLEMENTARY_BASE: u32 = "
                f"{gb18030_linear(0x90, 0x30, 0x81, 0x30)};")
    (OUT / "python_cjk.rs").write_text("\n".join(rust) + "\n")


if __name__ == "__main__":
    main()
