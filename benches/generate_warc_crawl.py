#!/usr/bin/env python3
"""A synthetic Common-Crawl-like crawl for scale runs: FILES gzip'd WARC files of RECORDS records
each (one gzip member per record, as Common Crawl writes them), every third record a request, the
others HTTP responses; most responses small HTML pages (a navigation bar, a few paragraphs of
English-like prose from a seeded generator, a footer), some images and some 404s, which cleaning
leaves out. Deterministic: the same arguments give the same bytes.

Usage: benches/generate_warc_crawl.py OUT_DIR FILES RECORDS_PER_FILE [--seed N] [--jobs N]
"""

import argparse
import gzip
import os
import random
import tempfile
from concurrent.futures import ProcessPoolExecutor

# Frequent English words (stopwords, which jusText's classification counts) and content words.
STOP = ("the of and to in a is that for it as was with be by on not he this are or his from at "
        "which but have an they you were their one all we can her has there been if more when "
        "will would who so no").split()
CONTENT = ("river city market history people water school music garden winter village station "
           "library science harbour mountain journey season festival bridge museum forest "
           "language kitchen island painting council railway valley century weather ").split()
NAV = ["Home", "About", "Contact", "Login", "Search", "Archive", "Privacy", "Terms"]


def sentence(rng):
    words = [rng.choice(STOP) if rng.random() < 0.45 else rng.choice(CONTENT)
             for _ in range(rng.randint(8, 22))]
    return " ".join(words).capitalize() + "."


def page(rng, title):
    nav = "".join(f'<li><a href="/{n.lower()}">{n}</a></li>' for n in NAV)
    body = "".join(
        "<p>" + " ".join(sentence(rng) for _ in range(rng.randint(2, 6))) + "</p>"
        for _ in range(rng.randint(2, 6)))
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f"<ul class=\"nav\">{nav}</ul><h1>{title}</h1>{body}"
            f"<div class=\"footer\">Copyright 2026 | <a href=\"/terms\">Terms</a></div>"
            f"</body></html>").encode()


def record(warc_type, uri, block, content_type, number):
    head = (f"WARC/1.0\r\nWARC-Type: {warc_type}\r\nWARC-Target-URI: {uri}\r\n"
            f"WARC-Date: 2026-11-01T00:00:00Z\r\n"
            f"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{number:012x}>\r\n"
            f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n").encode()
    return gzip.compress(head + block + b"\r\n\r\n", compresslevel=1, mtime=0)


def http_response(status, content_type, body):
    reason = {200: "OK", 404: "Not Found"}[status]
    head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    return head + body


def write_file(job):
    out_dir, index, records, seed = job
    rng = random.Random(seed * 1_000_003 + index)
    parts = []
    for r in range(records):
        number = index * records + r
        uri = f"https://site-{number % 9973}.example.org/page/{number}"
        if r % 3 == 0:
            request = f"GET /page/{number} HTTP/1.1\r\nHost: example.org\r\n\r\n".encode()
            parts.append(record("request", uri, request, "application/http; msgtype=request",
                                number))
            continue
        kind = rng.random()
        if kind < 0.04:
            block = http_response(200, "image/png", b"\x89PNG\r\n\x1a\n" + bytes(64))
        elif kind < 0.07:
            block = http_response(404, "text/html", b"<html><body>Not found</body></html>")
        else:
            block = http_response(200, "text/html; charset=utf-8", page(rng, f"Page {number}"))
        parts.append(record("response", uri, block, "application/http; msgtype=response", number))
    path = os.path.join(out_dir, f"crawl-{index:05d}.warc.gz")
    # Staged under a new, unpredictable name, renamed whole: an interrupted run leaves no
    # truncated archive under the final name.
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".crawl-", suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(b"".join(parts))
    os.replace(tmp, path)
    return records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("files", type=int)
    parser.add_argument("records_per_file", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    jobs = [(args.out_dir, i, args.records_per_file, args.seed) for i in range(args.files)
            if not os.path.exists(os.path.join(args.out_dir, f"crawl-{i:05d}.warc.gz"))]
    with ProcessPoolExecutor(args.jobs) as pool:
        written = sum(pool.map(write_file, jobs, chunksize=8))
    print(f"{args.files} files, {args.files * args.records_per_file} records "
          f"({written} written now) in {args.out_dir}")


if __name__ == "__main__":
    main()
