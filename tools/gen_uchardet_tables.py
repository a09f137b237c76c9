#!/usr/bin/env python3
"""Generate algorithms/src/charset/tables.rs from the uchardet sources faust-cchardet 3.2.0 builds.

datatrove's WARC reader decodes a payload that is not UTF-8 with the charset `cchardet.detect`
guesses (faust-cchardet 3.2.0, which compiles freedesktop uchardet 0.0.8 with its own multi-byte
group prober). uchardet's answer lives as much in its data as in its code: a sequence model per
language and charset (a byte-to-order map and a matrix of how likely each pair of frequent
letters is), the coding state machines of the multi-byte charsets, the frequency ranks of CJK
characters and a context table of Japanese kana pairs. This script reads those tables from the
C++ sources of the published source package and writes them as Rust data, so the Rust port
reads the very tables cchardet runs with:
  * every single-byte sequence model, in the order the single-byte group prober creates its
    probers (the order breaks ties), with the two Hebrew models the Hebrew prober names;
  * the state machines (byte classes, state transitions, character lengths) of UTF-8, Shift_JIS,
    EUC-JP, GB18030, EUC-KR, Johab, EUC-TW and of the escape-based HZ and ISO-2022 charsets;
  * of each CJK frequency table, the set of character orders ranked under 512 (the only thing the
    distribution analysis reads of them), Johab's mapping to EUC-KR orders, and the Japanese
    context table.

uchardet is Copyright the Mozilla contributors and the uchardet authors, under the Mozilla Public
License 1.1 (or the GPL 2.0 or the LGPL 2.1); the generated file says so.

    pip download --no-deps --no-binary :all: faust-cchardet==3.2.0   # the sdist, or fetch it
    tar xzf faust_cchardet-3.2.0.tar.gz
    python3 tools/gen_uchardet_tables.py faust_cchardet-3.2.0 > algorithms/src/charset/tables.rs
"""
import re
import struct
import sys
from pathlib import Path

SYMBOLS = {"ILL": 255, "CTR": 254, "SYM": 253, "RET": 252, "NUM": 251,
           "eStart": 0, "eError": 1, "eItsMe": 2}


def without_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def values(body):
    """The integers of an initialiser, PCK4BITS(...) unpacked into its eight nibbles."""
    body = re.sub(r"PCK4BITS\(([^)]*)\)", lambda m: m.group(1), body)
    out = []
    for token in body.replace("\n", " ").split(","):
        token = token.strip()
        if not token:
            continue
        out.append(SYMBOLS[token] if token in SYMBOLS else int(token, 0))
    return out


def arrays(text):
    """name -> values of every `static const T name[...] = {...};` of a source file."""
    found = {}
    for m in re.finditer(r"(?:static\s+)?const\s+(?:\w+\s+)+?(\w+)\s*\[[^\]]*\](?:\s*\[[^\]]*\])?\s*=\s*\{(.*?)\};",
                         text, flags=re.S):
        found[m.group(1)] = values(m.group(2).replace("{", "").replace("}", ""))
    return found


def f32_bits(literal):
    """C's `(float)literal`: the double rounded to the nearest float."""
    return struct.unpack("<I", struct.pack("<f", float(literal)))[0]


def sequence_models(src):
    """model name -> (language file stem, map name, matrix name, count, ratio bits, charset, language)."""
    models, files = {}, {}
    for path in sorted((src / "LangModels").glob("Lang*Model.cpp")):
        text = without_comments(path.read_text(encoding="latin-1"))
        stem = path.stem[len("Lang"):-len("Model")]
        files[stem] = arrays(text)
        for m in re.finditer(r"const\s+SequenceModel\s+(\w+)\s*=\s*\{(.*?)\};", text, flags=re.S):
            fields = [f.strip() for f in m.group(2).split(",")]
            ratio = re.fullmatch(r"\(float\)\s*([0-9.eE+-]+)", fields[3]).group(1)
            models[m.group(1)] = (stem, fields[0], fields[1], int(fields[2]), f32_bits(ratio),
                                  fields[5].strip('"'), fields[6].strip('"'))
    return models, files


def single_byte_probers(src):
    """The single-byte group's probers in creation order: ('hebrew',) or (model, reversed, named_by_hebrew)."""
    text = without_comments((src / "nsSBCSGroupProber.cpp").read_text(encoding="latin-1"))
    order = []
    for m in re.finditer(r"mProbers\[n\+\+\]\s*=\s*(hebprober|new\s+nsSingleByteCharSetProber\(&(\w+)"
                         r"(?:\s*,\s*(PR_TRUE|PR_FALSE)\s*,\s*(\w+))?\))", text):
        if m.group(1) == "hebprober":
            order.append(("hebrew",))
        else:
            order.append((m.group(2), m.group(3) == "PR_TRUE", m.group(4) == "hebprober"))
    return order


def rust_name(*parts):
    return "_".join(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", p).upper() for p in parts)


def byte_rows(vals, width=16):
    return "\n".join("    " + " ".join(f"{v}," for v in vals[i:i + width]) for i in range(0, len(vals), width))


def digit_string(vals, width):
    assert all(0 <= v <= 9 for v in vals)
    rows = ["".join(str(v) for v in vals[i:i + width]) for i in range(0, len(vals), width)]
    return 'b"\\\n' + "\\\n".join("    " + r for r in rows) + '"'


def state_machines(src):
    text = without_comments((src / "nsMBCSSM.cpp").read_text(encoding="latin-1"))
    text += without_comments((src / "nsEscSM.cpp").read_text(encoding="latin-1"))
    tables = arrays(text)
    machines = {}
    for m in re.finditer(r"SMModel\s+(\w+)SMModel\s*=\s*\{\s*\{[^}]*?(\w+)\s*\}\s*,\s*(\d+)\s*,\s*\{[^}]*?(\w+)\s*\}"
                         r"\s*,\s*(\w+)\s*,\s*\"([^\"]+)\"", text, flags=re.S):
        name, classes, factor, states, lengths, label = m.groups()
        machines[name] = (tables[classes], int(factor), tables[states], tables[lengths], label)
    return machines


def frequent_orders(table, size):
    """Bitset over orders 0..size: set where the frequency rank is under 512."""
    assert len(table) >= size
    words = [0] * ((size + 63) // 64)
    for order in range(size):
        if table[order] < 512:
            words[order // 64] |= 1 << (order % 64)
    return words


def main():
    root = Path(sys.argv[1])
    src = root / "src" / "ext" / "uchardet" / "src"
    out = ["// @generated by tools/gen_uchardet_tables.py from faust-cchardet 3.2.0's uchardet sources. Do not edit.",
           "// The data of uchardet (https://www.freedesktop.org/wiki/Software/uchardet/), Copyright the",
           "// Mozilla contributors and the uchardet authors, under the Mozilla Public License 1.1 (or, at",
           "// your option, the GPL 2.0 or the LGPL 2.1): https://www.mozilla.org/MPL/1.1/",
           "//! uchardet's models and state machines (data, not code).",
           "",
           "use super::model::{SequenceModel, SingleByteProberSpec, StateMachineModel};",
           ""]

    models, files = sequence_models(src)
    probers = single_byte_probers(src)
    used = [p[0] for p in probers if p[0] != "hebrew"]
    emitted = set()
    for model in dict.fromkeys(used):
        stem, map_name, matrix, count, _, _, _ = models[model]
        for name, vals, kind in ((map_name, files[stem][map_name], "map"), (matrix, files[stem][matrix], "matrix")):
            key = rust_name(stem, name)
            if key in emitted:
                continue
            emitted.add(key)
            if kind == "map":
                assert len(vals) == 256, (stem, name)
                out.append(f"static {key}: [u8; 256] = [\n{byte_rows(vals)}\n];\n")
            else:
                # Pair categories 0 (negative) to 3 (positive): the prober counts four.
                assert len(vals) == count * count and max(vals) <= 3, (stem, name)
                out.append(f"/// {count} x {count} pair categories (0 negative .. 3 positive), as ASCII digits.")
                out.append(f"static {key}: &[u8] = {digit_string(vals, count)};\n")
    for model in dict.fromkeys(used):
        stem, map_name, matrix, count, ratio, charset, language = models[model]
        out.append(f"static {rust_name(model)}: SequenceModel = SequenceModel {{\n"
                   f"    char_to_order: &{rust_name(stem, map_name)},\n"
                   f"    precedence: {rust_name(stem, matrix)},\n"
                   f"    freq_char_count: {count},\n"
                   f"    typical_positive_ratio: f32::from_bits(0x{ratio:08x}),\n"
                   f"    charset: \"{charset}\",\n"
                   f"    language: \"{language}\",\n}};\n")
    out.append("/// The single-byte group's probers in the order uchardet creates them (the order breaks ties).")
    out.append("pub(super) static SINGLE_BYTE_PROBERS: &[SingleByteProberSpec] = &[")
    for p in probers:
        if p[0] == "hebrew":
            out.append("    SingleByteProberSpec::Hebrew,")
        else:
            out.append(f"    SingleByteProberSpec::Model {{ model: &{rust_name(p[0])}, reversed: {str(p[1]).lower()}, "
                       f"named_by_hebrew: {str(p[2]).lower()} }},")
    out.append("];\n")

    for name, (classes, factor, states, lengths, label) in state_machines(src).items():
        # The Rust machine indexes without checks it could fail: every class has a length and a
        # column, every state a full row (the packing may pad the last word).
        assert len(classes) == 256 and max(classes) < factor <= len(lengths), name
        assert max(states) < len(states) // factor, name
        out.append(f"pub(super) static {rust_name(name)}: StateMachineModel = StateMachineModel {{\n"
                   f"    classes: [\n{byte_rows(classes)}\n    ],\n"
                   f"    class_count: {factor},\n"
                   f"    states: &[\n{byte_rows(states)}\n    ],\n"
                   f"    char_len: &{lengths},\n"
                   f"    name: \"{label}\",\n}};\n")

    freq = {}
    for tab in sorted(src.glob("*Freq.tab")):
        text = without_comments(tab.read_text(encoding="latin-1"))
        freq.update(arrays(text))
        for m in re.finditer(r"#define\s+(\w+)\s+(?:\(float\)\s*)?([0-9.]+)", text):
            freq[m.group(1)] = m.group(2)
    for prefix in ("JIS", "EUCKR", "EUCTW", "GB2312"):
        size = int(freq[f"{prefix}_TABLE_SIZE"])
        words = frequent_orders(freq[f"{prefix}CharToFreqOrder"], size)
        ratio = f32_bits(freq[f"{prefix}_TYPICAL_DISTRIBUTION_RATIO"])
        out.append(f"/// {prefix}: the orders (below {size}) whose frequency rank is under 512.")
        out.append(f"pub(super) static {prefix}_FREQUENT: [u64; {len(words)}] = [\n"
                   + "\n".join("    " + " ".join(f"0x{w:016x}," for w in words[i:i + 4]) for i in range(0, len(words), 4))
                   + "\n];")
        out.append(f"pub(super) const {prefix}_TABLE_SIZE: u32 = {size};")
        out.append(f"pub(super) const {prefix}_TYPICAL_DISTRIBUTION_RATIO: f32 = f32::from_bits(0x{ratio:08x});\n")
    for name in ("JohabCho", "JohabJung", "JohabJong"):
        out.append(f"pub(super) static {rust_name(name)}: [u8; 32] = [\n{byte_rows(freq[name])}\n];\n")
    order = freq["JohabToEUCKROrder"]
    out.append(f"pub(super) static JOHAB_TO_EUCKR_ORDER: [i16; {len(order)}] = [\n{byte_rows(order)}\n];\n")

    context = arrays(without_comments((src / "JpCntx.cpp").read_text(encoding="latin-1")))["jp2CharContext"]
    assert len(context) == 83 * 83 and max(context) <= 5  # six categories
    out.append("/// Japanese kana pair categories, 83 x 83, as ASCII digits.")
    out.append(f"pub(super) static JP2_CHAR_CONTEXT: &[u8] = {digit_string(context, 83)};")
    print("\n".join(out))


if __name__ == "__main__":
    main()
