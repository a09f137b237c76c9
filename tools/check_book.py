#!/usr/bin/env python3
"""Checks the documentation's links: every page of docs/src is in its SUMMARY.md and every page
SUMMARY.md names exists; every relative link of the book and of the READMEs (the repository's, eval's, python's) names a
file of the repository, and a link to a heading of a Markdown page names one it has (anchors as
mdBook and GitHub make them). Prints each broken link; exits 1 if there is one.

    python3 tools/check_book.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOK = os.path.join(ROOT, "docs", "src")
LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def without_code(text):
    """The text with fenced code blocks and inline code blanked out."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "``", text)


def anchor(heading):
    heading = re.sub(r"<[^>]+>|`", "", heading.strip()).lower()
    heading = re.sub(r"[^\w\- ]", "", heading)
    return heading.replace(" ", "-")


def anchors(path):
    found = set()
    text = re.sub(r"^```.*?^```", "", open(path, encoding="utf-8").read(), flags=re.S | re.M)
    for line in text.split("\n"):
        m = re.match(r"^#+ (.*)$", line)
        if m:
            found.add(anchor(m.group(1)))
    return found


def check_links(path, problems):
    text = without_code(open(path, encoding="utf-8").read())
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue
        file_part, _, fragment = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        where = os.path.relpath(path, ROOT)
        if not os.path.exists(resolved):
            problems.append(f"{where}: no such file: {target}")
        elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
            problems.append(f"{where}: no heading #{fragment} in {os.path.relpath(resolved, ROOT)}")


def main():
    problems = []
    summary = open(os.path.join(BOOK, "SUMMARY.md"), encoding="utf-8").read()
    listed = set(re.findall(r"\]\(([^)]+\.md)\)", summary))
    pages = {f for f in os.listdir(BOOK) if f.endswith(".md") and f != "SUMMARY.md"}
    for page in sorted(listed - pages):
        problems.append(f"docs/src/SUMMARY.md: no page {page}")
    for page in sorted(pages - listed):
        problems.append(f"docs/src/{page}: not in SUMMARY.md")
    files = [os.path.join(BOOK, p) for p in sorted(pages | {"SUMMARY.md"})]
    files += [os.path.join(ROOT, f) for f in ("README.md", "eval/README.md", "python/README.md")]
    for path in files:
        if os.path.exists(path):
            check_links(path, problems)
    for problem in problems:
        print(problem)
    print(f"{len(files)} pages checked, {len(problems)} broken link(s)")
    sys.exit(1 if problems else 0)


main()
