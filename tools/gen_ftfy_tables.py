#!/usr/bin/env python3
"""Generate algorithms/src/ftfy/tables.rs from an installed ftfy 6.3.1 and its CPython.

ftfy's behaviour lives as much in its data as in its code: the badness heuristic is one regular
expression over hand-made character categories, the encodings it tries are CPython codecs (and
its own "sloppy" variants of them), and its HTML unescaping reads CPython's entity tables. This
script records all of it from the running interpreter, so the Rust port reads the very tables
ftfy ran with:
  * the decoding tables of ftfy's CHARMAP_ENCODINGS, as ftfy's codecs decode (256 entries each;
    U+FFFD where a byte has no character), plus CPython's strict windows-1252;
  * ftfy's regular expressions, parsed with CPython's own regex parser and written in the syntax
    of Rust's regex crate (\\s, \\w and \\d expanded to the characters CPython's `re` gives them),
    so the Rust crate matches what `re` matches;
  * ftfy's HTML entity table, CPython's numeric character reference rules, the control characters
    ftfy removes, its ligature and width tables.

ftfy is Copyright Robyn Speer, under the Apache License 2.0; the generated file says so.

Run with the interpreter of the FineWeb-2 oracle (CPython 3.11.7, ftfy 6.3.1):
    python3 tools/gen_ftfy_tables.py > algorithms/src/ftfy/tables.rs
"""
import html
import re
import re._constants as C
import re._parser as P
import sys
import unicodedata

import ftfy
from ftfy import badness, chardata, fixes

assert ftfy.__version__ == "6.3.1", ftfy.__version__

MAX_CODE = 0x10FFFF


def ranges_of(predicate):
    """The code points for which predicate holds, as sorted (start, end) ranges."""
    out, start = [], None
    for c in range(MAX_CODE + 2):
        inside = c <= MAX_CODE and predicate(c)
        if inside and start is None:
            start = c
        elif not inside and start is not None:
            out.append((start, c - 1))
            start = None
    return out


CATEGORY_PATTERNS = {
    C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_UNI_SPACE: r"\s",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_UNI_WORD: r"\w",
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_UNI_DIGIT: r"\d",
    C.CATEGORY_NOT_SPACE: r"\S",
    C.CATEGORY_UNI_NOT_SPACE: r"\S",
    C.CATEGORY_NOT_WORD: r"\W",
    C.CATEGORY_UNI_NOT_WORD: r"\W",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_UNI_NOT_DIGIT: r"\D",
}
_category_cache = {}


def category_ranges(category):
    if category not in _category_cache:
        compiled = re.compile(CATEGORY_PATTERNS[category])
        _category_cache[category] = ranges_of(
            lambda c: (c < 0xD800 or c > 0xDFFF) and compiled.match(chr(c)) is not None
        )
    return _category_cache[category]


class Emitter:
    def __init__(self, is_bytes):
        self.is_bytes = is_bytes

    def char(self, code):
        if self.is_bytes:
            return f"\\x{code:02X}"
        return f"\\x{{{code:X}}}"

    def class_items(self, items):
        negate, parts = False, []
        for op, av in items:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                parts.append(self.char(av))
            elif op is C.RANGE:
                parts.append(f"{self.char(av[0])}-{self.char(av[1])}")
            elif op is C.CATEGORY:
                assert not self.is_bytes
                parts += [
                    self.char(a) if a == b else f"{self.char(a)}-{self.char(b)}"
                    for a, b in category_ranges(av)
                ]
            else:
                raise ValueError(f"class item {op} not supported")
        return "[" + ("^" if negate else "") + "".join(parts) + "]"

    def sequence(self, pattern):
        return "".join(self.item(op, av) for op, av in pattern)

    def group(self, pattern):
        text = self.sequence(pattern)
        return text if len(pattern) == 1 and pattern[0][0] in (C.IN, C.LITERAL) else f"(?:{text})"

    def item(self, op, av):
        if op is C.LITERAL:
            return self.char(av)
        if op is C.NOT_LITERAL:
            return f"[^{self.char(av)}]"
        if op is C.ANY:
            return "."
        if op is C.IN:
            return self.class_items(av)
        if op is C.BRANCH:
            return "(?:" + "|".join(self.sequence(p) for p in av[1]) + ")"
        if op is C.SUBPATTERN:
            return f"(?:{self.sequence(av[3])})"
        if op in (C.MAX_REPEAT, C.MIN_REPEAT):
            low, high, inner = av
            if (low, high) == (0, C.MAXREPEAT):
                count = "*"
            elif (low, high) == (1, C.MAXREPEAT):
                count = "+"
            elif (low, high) == (0, 1):
                count = "?"
            elif high == C.MAXREPEAT:
                count = f"{{{low},}}"
            else:
                count = f"{{{low},{high}}}"
            lazy = "?" if op is C.MIN_REPEAT else ""
            return self.group(inner) + count + lazy
        if op is C.AT and av is C.AT_BEGINNING:
            return "^"
        raise ValueError(f"{op} {av} not supported")

    def pattern(self, compiled):
        return self.sequence(P.parse(compiled.pattern, compiled.flags))

    def lookbehind_and_pattern(self, compiled):
        """A pattern that opens with a negative lookbehind of one character class, which Rust's
        regex crate lacks: the class and the rest, for the caller to check the character before
        each match."""
        parsed = list(P.parse(compiled.pattern, compiled.flags))
        (op, (direction, behind)), rest = parsed[0], parsed[1:]
        assert op is C.ASSERT_NOT and direction == -1 and len(behind) == 1 and behind[0][0] is C.IN
        return self.class_items(behind[0][1]), self.sequence(rest)


def rust_char(c):
    if c in '"\\':
        return "\\" + c
    return c if 0x20 <= ord(c) < 0x7F else f"\\u{{{ord(c):x}}}"


def rust_string(text):
    return '"' + "".join(rust_char(c) for c in text) + '"'


def table(name, doc, values):
    lines = [f"/// {doc}", f"pub(crate) static {name}: [u16; {len(values)}] = ["]
    for i in range(0, len(values), 12):
        lines.append("    " + " ".join(f"0x{v:04X}," for v in values[i : i + 12]))
    lines.append("];")
    return lines


def decoding_table(encoding):
    chars = bytes(range(256)).decode(encoding, errors="replace")
    assert len(chars) == 256 and all(ord(c) <= 0xFFFF for c in chars)
    return [ord(c) for c in chars]


def main():
    out = [
        "// @generated by tools/gen_ftfy_tables.py from ftfy "
        f"{ftfy.__version__} on CPython {sys.version.split()[0]} "
        f"(Unicode {unicodedata.unidata_version}). Do not edit.",
        "//",
        "// The data below is ftfy's (its character categories, regular expressions and tables),",
        "// Copyright Robyn Speer, under the Apache License 2.0, and CPython's codec and HTML tables.",
        "",
        "/// The encodings ftfy tries, in its order (`chardata.CHARMAP_ENCODINGS`), each with the",
        "/// table ftfy's codec of that name decodes bytes with (U+FFFD: no character).",
        "pub(crate) static CHARMAP_ENCODINGS: [(&str, &[u16; 256]); "
        f"{len(chardata.CHARMAP_ENCODINGS)}] = [",
    ]
    names = []
    for encoding in chardata.CHARMAP_ENCODINGS:
        ident = re.sub(r"[^A-Z0-9]", "_", encoding.upper())
        names.append((encoding, ident))
        out.append(f"    ({rust_string(encoding)}, &{ident}),")
    out.append("];")
    for encoding, ident in names:
        out.append("")
        out += table(ident, f"`{encoding}`.", decoding_table(encoding))
    out.append("")
    out += table("WINDOWS_1252", "CPython's strict `windows-1252`.", decoding_table("windows-1252"))

    text_patterns = [
        ("BADNESS", badness.BADNESS_RE, "`badness.BADNESS_RE`: sequences that are likely mojibake."),
        ("ANSI", fixes.ANSI_RE, "`fixes.ANSI_RE`: terminal escapes."),
        ("HTML_ENTITY", chardata.HTML_ENTITY_RE, "`chardata.HTML_ENTITY_RE`."),
        ("SINGLE_QUOTE", chardata.SINGLE_QUOTE_RE, "`chardata.SINGLE_QUOTE_RE`."),
        ("DOUBLE_QUOTE", chardata.DOUBLE_QUOTE_RE, "`chardata.DOUBLE_QUOTE_RE`."),
    ]
    byte_patterns = [
        ("ALTERED_UTF8", chardata.ALTERED_UTF8_RE, "`chardata.ALTERED_UTF8_RE`, over bytes."),
        ("LOSSY_UTF8", chardata.LOSSY_UTF8_RE, "`chardata.LOSSY_UTF8_RE`, over bytes."),
    ]
    for name, compiled, doc in text_patterns:
        out += ["", f"/// {doc}", f"pub(crate) const {name}: &str = {rust_string(Emitter(False).pattern(compiled))};"]
    behind, detector = Emitter(False).lookbehind_and_pattern(chardata.UTF8_DETECTOR_RE)
    out += [
        "",
        "/// `chardata.UTF8_DETECTOR_RE` without its opening lookbehind: runs that look like UTF-8",
        "/// read as a single-byte encoding.",
        f"pub(crate) const UTF8_DETECTOR: &str = {rust_string(detector)};",
        "",
        "/// `chardata.UTF8_DETECTOR_RE`'s lookbehind: a run does not start right after one of these.",
        f"pub(crate) const UTF8_DETECTOR_NOT_AFTER: &str = {rust_string(behind)};",
    ]
    for name, compiled, doc in byte_patterns:
        out += ["", f"/// {doc}", f"pub(crate) const {name}: &str = {rust_string(Emitter(True).pattern(compiled))};"]

    entities = sorted(chardata.HTML_ENTITIES.items())
    out += [
        "",
        "/// `chardata.HTML_ENTITIES` (`&name;` to its text), sorted by name.",
        f"pub(crate) static HTML_ENTITIES: [(&str, &str); {len(entities)}] = [",
    ]
    out += [f"    ({rust_string(k)}, {rust_string(v)})," for k, v in entities]
    out.append("];")
    invalid_charrefs = sorted(html._invalid_charrefs.items())
    out += [
        "",
        "/// CPython's `html._invalid_charrefs`: numeric references html.unescape maps elsewhere.",
        f"pub(crate) static INVALID_CHARREFS: [(u32, char); {len(invalid_charrefs)}] = [",
    ]
    out += [f"    (0x{k:X}, '\\u{{{ord(v):x}}}')," for k, v in invalid_charrefs]
    out.append("];")
    invalid_codepoints = sorted(html._invalid_codepoints)
    out += [
        "",
        "/// CPython's `html._invalid_codepoints`: numeric references html.unescape drops, sorted.",
        f"pub(crate) static INVALID_CODEPOINTS: [u32; {len(invalid_codepoints)}] = [",
    ]
    for i in range(0, len(invalid_codepoints), 10):
        out.append("    " + " ".join(f"0x{v:X}," for v in invalid_codepoints[i : i + 10]))
    out.append("];")
    controls = sorted(chardata.CONTROL_CHARS)
    assert all(v is None for v in chardata.CONTROL_CHARS.values())
    out += [
        "",
        "/// `chardata.CONTROL_CHARS`: what `remove_control_chars` deletes, sorted.",
        f"pub(crate) static CONTROL_CHARS: [char; {len(controls)}] = [",
    ]
    for i in range(0, len(controls), 10):
        out.append("    " + " ".join(f"'\\u{{{v:x}}}'," for v in controls[i : i + 10]))
    out.append("];")
    for name, mapping, doc in [
        ("LIGATURES", chardata.LIGATURES, "`chardata.LIGATURES`"),
        ("WIDTH_MAP", chardata.WIDTH_MAP, "`chardata.WIDTH_MAP`"),
    ]:
        items = sorted(mapping.items())
        out += [
            "",
            f"/// {doc}: a character and what it becomes, sorted.",
            f"pub(crate) static {name}: [(char, &str); {len(items)}] = [",
        ]
        out += [f"    ('\\u{{{k:x}}}', {rust_string(v)})," for k, v in items]
        out.append("];")
    out.append("")
    sys.stdout.write("\n".join(out))


main()
