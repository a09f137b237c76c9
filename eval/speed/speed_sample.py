"""The speed sample's pages and the best-of-three timing the Python peers' speed scripts share."""
import time


def load_pages(sample, pages_dir):
    """The raw bytes of the pages `sample` (speed_sample.txt: set and id per line) lists."""
    pages = []
    for line in open(sample):
        if line.startswith("#") or not line.strip():
            continue
        dataset, page_id = line.split("\t")[:2]
        with open(f"{pages_dir}/{dataset}/html/{page_id}.html", "rb") as f:
            pages.append(f.read())
    return pages


def print_best_of_three(label, pages, extract):
    """Times `extract(page)` over all pages three times (a page that raises counts as done) and
    prints the best run's pages/s and MB/s, in the column layout the bench scripts read."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for page in pages:
            try:
                extract(page)
            except Exception:
                pass
        best = min(best, time.perf_counter() - t)
    size = sum(map(len, pages))
    print(f"{label:<34} {len(pages) / best:>8.1f} pages/s {size / 1e6 / best:>7.1f} MB/s")
