"""Compares the trees of `Page::parse_as_libxml2` with lxml's (libxml2) on the evaluation pages.

    python tests/parity/libxml2_tree.py SHARED OURS [PAGES_DIR]
    python tests/parity/libxml2_tree.py --random N [SEED]


OURS is the output of `cargo run --release --example libxml2_tree_dump -- SHARED`. Needs the
reference stack of ../shared/tools/oracle/run_justext.py (justext 3.0.2, lxml 6.1.3 with its
bundled libxml2 2.14.6). Pages are decoded with jusText's own decode_html; pages lxml refuses as
text (an XML encoding declaration: jusText re-parses their bytes) are skipped. Prints each page
whose tree differs, around the first difference, and the count; exits 1 if any differs.

With --random, it writes N random tag soups (tags of ~110 names, open and closed at random,
text, comments, `/>`), dumps our trees of them with `cargo run --release --example
libxml2_tree_dump -- --docs FILE` and compares them with lxml's.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import lxml.etree as et
from justext.core import decode_html, DEFAULT_ENCODING, DEFAULT_ENC_ERRORS


def dump(node, out):
    if isinstance(node.tag, str):
        out.append("<%s>" % node.tag)
        if node.text:
            out.append(json.dumps(node.text, ensure_ascii=False))
        for child in node:
            dump(child, out)
        out.append("</%s>" % node.tag)
    else:
        out.append("<!>")
    if node.tail:
        out.append(json.dumps(node.tail, ensure_ascii=False))


def tree(decoded):
    root = et.fromstring(decoded, et.HTMLParser())
    if root is None:
        return None
    first = root
    while first.getprevious() is not None:
        first = first.getprevious()
    out = []
    node = first
    while node is not None:
        tail, node.tail = node.tail, None  # top-level tails are not part of the document
        dump(node, out)
        node.tail = tail
        node = node.getnext()
    return "".join(out)


NAMES = """a abbr address article aside b big blockquote body br caption center cite code col
colgroup dd del dfn dir div dl dt em embed fieldset font footer form frame frameset h1 h2 h3 h4 h5
h6 head header hr html i iframe img input ins kbd label legend li link listing main map menu meta
nav nobr noembed noframes noscript object ol optgroup option p param pre q s samp script section
select small span strike strong style sub sup svg table tbody td template textarea tfoot th thead
title tr tt u ul var wbr xmp custom-el isindex area base basefont plaintext image math frame""".split()


def random_soup(rng):
    parts = []
    for _ in range(rng.randint(1, 40)):
        r = rng.random()
        name = rng.choice(NAMES)
        if rng.random() < 0.1:
            name = name.upper()
        if r < 0.45:
            attrs = rng.choice(["", "", " id=1", ' class="a b"', " rel=stylesheet"])
            parts.append("<%s%s%s>" % (name, attrs, "/" if rng.random() < 0.05 else ""))
        elif r < 0.75:
            parts.append("</%s>" % name)
        elif r < 0.95:
            parts.append(rng.choice(["x", " ", "\n", "word ", " a b ", "\n\n", "&amp;", "\t", "\x0c", "\xa0", "\r\n"]))
        else:
            parts.append("<!--c-->")
    return "".join(parts)


def random_check(count, seed):
    rng = random.Random(seed)
    docs = [random_soup(rng) for _ in range(count)]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\0".join(docs))
    out = subprocess.run(["cargo", "run", "--quiet", "--release", "--example", "libxml2_tree_dump", "--", "--docs", f.name],
                         check=True, capture_output=True, text=True).stdout
    os.unlink(f.name)
    ours = [line.partition("\t")[2] for line in out.splitlines()]
    differ = 0
    for doc, mine in zip(docs, ours):
        try:
            reference = tree(doc)
        except (ValueError, et.ParserError):
            continue  # lxml builds no document (jusText: "Document is empty")
        if reference is None:
            continue
        if reference != mine:
            differ += 1
            if differ <= 20:
                print("%r\n  ours: %s\n  lxml: %s" % (doc, mine, reference))
    print("%d random documents compared, %d with a different tree" % (len(docs), differ))
    sys.exit(1 if differ else 0)


def main():
    if sys.argv[1] == "--random":
        random_check(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    shared, ours_path = sys.argv[1], sys.argv[2]
    pages = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.environ.get("TMPDIR", "/tmp"), "webtext-eval")
    ours = {}
    with open(ours_path, encoding="utf-8") as f:
        for line in f:
            name, _, dumped = line.rstrip("\n").partition("\t")
            ours[name] = dumped
    compared = differ = skipped = 0
    for name in sorted(ours):
        set_name, file_name = name.split("/", 1)
        with open(os.path.join(pages, set_name, "html", file_name), "rb") as f:
            raw = f.read()
        try:
            decoded = decode_html(raw, DEFAULT_ENCODING, None, DEFAULT_ENC_ERRORS)
            reference = tree(decoded)
        except (ValueError, et.ParserError, UnicodeDecodeError):
            skipped += 1
            continue
        if reference is None:
            skipped += 1
            continue
        compared += 1
        if reference != ours[name]:
            differ += 1
            a, b = ours[name], reference
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            print("%s: first difference at %d\n  ours: ...%s\n  lxml: ...%s" % (name, i, a[max(0, i - 150):i + 150], b[max(0, i - 150):i + 150]))
    print("%d pages compared (%d skipped), %d with a different tree" % (compared, skipped, differ))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
