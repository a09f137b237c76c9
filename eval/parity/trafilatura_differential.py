"""Our trafilatura against Python trafilatura 2.3.1 on pages of any origin, output by output.

    python eval/parity/trafilatura_differential.py [--configs a,b] SOURCE...

Sources (any number; pages are compared in the order given):
    --folder DIR N SEED   N HTML files under DIR (*.html, *.htm), drawn with random.Random(SEED)
    --snippets SDIST_DIR  the HTML strings of trafilatura's own test suite (the string constants
                          of SDIST_DIR/tests/*.py that hold a tag) and its test pages
    --random N SEED       N random pages built from the names trafilatura's rules test (the
                          class and id tokens of its XPaths, its tags, text, links, tables,
                          lists, comments, JSON-LD)

Each page goes to Python's extract() as text, in one process, and to ours through
`cargo run --example trafilatura_run` (the profile and features of WEBTEXT_PROFILE and
WEBTEXT_FEATURES when set); `fineweb_dedup` runs the pages in order with one cache on both
sides. Prints the pages whose outputs differ (the first 10 per configuration, with the first
difference) and the counts; exits 1 if any differs. Needs trafilatura==2.3.1 and lxml==6.1.3.
"""
import ast
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import trafilatura
from trafilatura.deduplication import LRU_TEST

CONFIGS = {
    "fineweb": dict(favor_precision=True, include_comments=False),
    "fineweb_dedup": dict(favor_precision=True, include_comments=False, deduplicate=True),
    "default": {},
    "recall": dict(favor_recall=True),
    "fast": dict(fast=True),
    "markdown": dict(output_format="markdown", include_formatting=True),
    "links": dict(output_format="markdown", include_links=True),
    "no_tables": dict(include_tables=False),
}


def folder_pages(folder, n, seed):
    files = sorted(p for p in Path(folder).rglob("*") if p.suffix in (".html", ".htm") and p.is_file())
    random.Random(seed).shuffle(files)
    pages = []
    for path in files[:n]:
        pages.append((str(path), path.read_bytes().decode("utf-8", errors="replace")))
    return pages


def snippet_pages(sdist):
    pages = []
    for test in sorted(Path(sdist, "tests").glob("*.py")):
        for node in ast.walk(ast.parse(test.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if "<" in text and ">" in text and len(text) >= 10:
                    pages.append(("%s:%d" % (test.name, node.lineno), text))
    for page in sorted(Path(sdist, "tests", "resources").glob("*.htm*")):
        if page.suffix != ".gz":
            pages.append((page.name, page.read_bytes().decode("utf-8", errors="replace")))
    return pages


WORDS = ("the of and to in is that for it was on are as with his they at be this from have or by one had not but what all "
         "were when we there can an your which their said if do will each about how up out them then she many some so these "
         "would other into has more her two like him see time could no make than first been its who now people my made over "
         "did down only way find use may water long little very after words called just where most know ,  . ; : ! ? — «»").split()
TOKENS = ("content main article post entry story text body comment comments commentlist comment-list disqus_thread share "
          "social nav navbar menu sidebar footer Footer header banner author byline meta related tags tag-list teaser Teaser "
          "hidden hide print widget ad-slot ad cookie consent newsletter caption bottom link w3-code highlight hljs "
          "post-content entry-content article-body articleBody fulltext main-content page-content respond reply-to "
          "infinite-scroll elementor-share-buttons primary story-body").split()
BLOCKS = "div section article main p span aside nav footer header ul ol li dl dt dd table tr td th blockquote pre code h1 h2 h3 h4 form details summary figure".split()
INLINE = "a b i em strong u sub sup del s kbd small font abbr mark br hr img span q code".split()


def random_page(rng):
    def text(n):
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, n)))

    def attrs():
        out = []
        for name in ("id", "class", "role", "style", "itemprop", "aria-hidden", "href", "colspan", "rowspan", "lang"):
            if rng.random() < 0.12:
                value = {"style": rng.choice(["display:none", "border: 1px", "color:red"]),
                         "aria-hidden": "true", "role": rng.choice(["main", "navigation", "article", "none"]),
                         "itemprop": "articleBody", "href": "http://x.org/" + rng.choice(WORDS),
                         "colspan": str(rng.randint(1, 4)), "rowspan": str(rng.randint(1, 3)), "lang": "py"}.get(
                    name, " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 2))))
                out.append(' %s="%s"' % (name, value))
        return "".join(out)

    def element(depth):
        if depth > 6 or rng.random() < 0.35:
            parts = [text(30)]
            for _ in range(rng.randint(0, 3)):
                tag = rng.choice(INLINE)
                if tag in ("br", "hr", "img"):
                    parts.append("<%s%s>" % (tag, attrs()))
                else:
                    parts.append("<%s%s>%s</%s>" % (tag, attrs(), text(8), tag))
                parts.append(text(20))
            return " ".join(parts)
        tag = rng.choice(BLOCKS)
        children = "".join(element(depth + 1) for _ in range(rng.randint(1, 5)))
        close = "" if rng.random() < 0.05 else "</%s>" % tag
        if rng.random() < 0.05:
            children += "<!-- %s -->" % text(5)
        return "<%s%s>%s%s\n" % (tag, attrs(), children, close)

    head = "<head><title>%s</title>" % text(6)
    if rng.random() < 0.1:
        head += '<script type="application/ld+json">{"@type": "%s", "articleBody": "%s"}</script>' % (
            rng.choice(["NewsArticle", "DiscussionForumPosting", "Product"]), text(60))
    body = "".join(element(0) for _ in range(rng.randint(1, 6)))
    return "<html>%s</head><body>%s</body></html>" % (head, body)


def ours(config, pages):
    build = ["--profile", os.environ.get("WEBTEXT_PROFILE", "release")]
    build += os.environ.get("WEBTEXT_FEATURES", "").split()
    command = ["cargo", "run", "--quiet", *build, "--example", "trafilatura_run", "--", config]
    with tempfile.TemporaryFile() as f:
        f.write("\0".join(text for _, text in pages).encode("utf-8"))
        f.seek(0)
        out = subprocess.run(command, stdin=f, check=True, capture_output=True).stdout.decode("utf-8")
    return [None if o == "\x01" else o for o in out.split("\0")]


def theirs(config, pages):
    LRU_TEST.clear()
    kwargs = CONFIGS[config]
    return [trafilatura.extract(text, **kwargs) for _, text in pages]


def first_difference(a, b):
    if a is None or b is None:
        return "ours %r / theirs %r" % (a if a is None else a[:100], b if b is None else b[:100])
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return "at %d\n    ours:   %r\n    theirs: %r" % (i, a[max(0, i - 60):i + 80], b[max(0, i - 60):i + 80])


def main():
    args = sys.argv[1:]
    configs = list(CONFIGS)
    pages = []
    while args:
        flag = args.pop(0)
        if flag == "--configs":
            configs = args.pop(0).split(",")
        elif flag == "--folder":
            pages += folder_pages(args.pop(0), int(args.pop(0)), int(args.pop(0)))
        elif flag == "--snippets":
            pages += snippet_pages(args.pop(0))
        elif flag == "--random":
            n, seed = int(args.pop(0)), int(args.pop(0))
            rng = random.Random(seed)
            pages += [("random %d/%d" % (seed, i), random_page(rng)) for i in range(n)]
        else:
            print(__doc__)
            sys.exit(2)
    if not pages:
        print(__doc__)
        sys.exit(2)
    # A surrogate cannot cross to Rust as UTF-8; Python keeps it, so such a page is left out. NUL
    # separates the pages on their way to ours: trafilatura deletes it first thing, so it goes.
    pages = [(name, text.replace("\0", "")) for name, text in pages
             if not any(0xD800 <= ord(c) <= 0xDFFF for c in text)]
    failed = False
    for config in configs:
        a, b = ours(config, pages), theirs(config, pages)
        differ = [(name, x, y) for (name, _), x, y in zip(pages, a, b) if x != y]
        print("%-14s %d of %d pages identical" % (config, len(pages) - len(differ), len(pages)))
        for name, x, y in differ[:10]:
            print("  %s: %s" % (name, first_difference(x, y)))
        failed |= bool(differ)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
