"""jusText's tree (`Page::parse_as_libxml2`) against lxml's (libxml2 2.14.6), whole trees.

    python eval/parity/libxml2_tree.py --eval SHARED [PAGES_DIR]
    python eval/parity/libxml2_tree.py --random N [SEED]

--eval compares the trees of every evaluation page, decoded as jusText decodes it (by our
decoder, so that only the trees are compared); a page lxml refuses as text (it has an XML
encoding declaration) is given to lxml as UTF-8 bytes, as jusText re-parses such a page's bytes
and libxml2 2.14 reads them as UTF-8. --random compares N random tag soups (~115 tag names in any
case, opened, closed and self-closed at random, with attributes, text, character references,
blanks and comments). Our side comes from `cargo run --release --example libxml2_tree_dump` (the
profile and features of WEBTEXT_PROFILE and WEBTEXT_FEATURES when set, as .ci/run sets them).
Needs the reference stack of ../shared/tools/oracle/run_justext.py (lxml 6.1.3 with its bundled
libxml2 2.14.6). Prints the documents whose trees differ and the count; exits 1 if any differs,
and if the documents lxml builds no document for are not exactly those of end tags, comments and
blanks alone (4 edge pages; about 2% of the soups).
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

import lxml.etree as et

NAMES = """a abbr address article aside b big blockquote body br caption center cite code col
colgroup dd del dfn dir div dl dt em embed fieldset font footer form frame frameset h1 h2 h3 h4 h5
h6 head header hr html i iframe img input ins kbd label legend li link listing main map menu meta
nav nobr noembed noframes noscript object ol optgroup option p param pre q s samp script section
select small span strike strong style sub sup svg table tbody td template textarea tfoot th thead
title tr tt u ul var wbr xmp custom-el isindex area base basefont plaintext image math""".split()


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


# What a document lxml builds no document for is made of: end tags, comments and blanks (an empty
# page among them; jusText raises "document is empty" on them).
EMPTY_PART = re.compile(r"</[^>]*>|<!--.*?-->|[ \t\n\r\x0c]+", re.S)


def no_document(text):
    """Whether the text is nothing but end tags, comments and blanks (read part by part: one
    regular expression over the whole text would backtrack without end on a page of comments)."""
    position = 0
    while position < len(text):
        part = EMPTY_PART.match(text, position)
        if part is None:
            return False
        position = part.end()
    return True


def lxml_tree(text):
    """lxml's whole document as one line, or None where it builds none."""
    try:
        try:
            root = et.fromstring(text, et.HTMLParser())
        except ValueError:  # a str with an encoding declaration: as jusText, parse its bytes
            root = et.fromstring(text.encode("utf-8"), et.HTMLParser())
    except (ValueError, et.ParserError):
        return None
    if root is None:
        return None
    first = root
    while first.getprevious() is not None:
        first = first.getprevious()
    out = []
    node = first
    while node is not None:
        tail, node.tail = node.tail, None  # no text lives beside the document's roots
        dump(node, out)
        node.tail = tail
        node = node.getnext()
    return "".join(out)


def cargo_example(*args):
    # WEBTEXT_PROFILE and WEBTEXT_FEATURES as in tools/build_eval_crawl.sh (.ci/run: its test build).
    build = ["--profile", os.environ.get("WEBTEXT_PROFILE", "release")]
    build += os.environ.get("WEBTEXT_FEATURES", "").split()
    command = ["cargo", "run", "--quiet", *build, "--example", "libxml2_tree_dump", "--"]
    return subprocess.run(command + list(args), check=True, capture_output=True).stdout


def our_trees(docs):
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
        f.write("\0".join(docs).encode("utf-8"))
    try:
        out = cargo_example("--docs", f.name).decode("utf-8")
    finally:
        os.unlink(f.name)
    return [line.partition("\t")[2] for line in out.split("\n")[: len(docs)]]


def compare(names, docs):
    """The number of documents whose trees differ, and the names of those lxml built none for."""
    differ = compared = 0
    without = []
    for name, doc, ours in zip(names, docs, our_trees(docs)):
        reference = lxml_tree(doc)
        if reference is None:
            without.append(name)
            continue
        compared += 1
        if reference != ours:
            differ += 1
            if differ <= 20:
                i = next((k for k, (a, b) in enumerate(zip(ours, reference)) if a != b), min(len(ours), len(reference)))
                print("%s: first difference at %d\n  ours: ...%s\n  lxml: ...%s"
                      % (name, i, ours[max(0, i - 150):i + 150], reference[max(0, i - 150):i + 150]))
    print("%d documents compared (%d without a document), %d with a different tree"
          % (compared, len(docs) - compared, differ))
    return differ, without


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


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--random":
        rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
        docs = [random_soup(rng) for _ in range(int(sys.argv[2]))]
        differ, without = compare([repr(d) for d in docs], docs)
        expected = [repr(d) for d in docs if no_document(d)]
    elif len(sys.argv) >= 3 and sys.argv[1] == "--eval":
        records = cargo_example("--decode", *sys.argv[2:4]).decode("utf-8").split("\0")
        pairs = [r.split("\t", 1) for r in records if r]
        differ, without = compare([p[0] for p in pairs], [p[1] for p in pairs])
        expected = [p[0] for p in pairs if no_document(p[1])]
    else:
        print(__doc__)
        sys.exit(2)
    if without != expected:
        print("documents left uncompared that should not be: %s; compared that should not be: %s"
              % (sorted(set(without) - set(expected))[:20], sorted(set(expected) - set(without))[:20]))
        sys.exit(1)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
