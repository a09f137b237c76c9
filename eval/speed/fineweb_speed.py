"""FineWeb's whole recipe from WARC files to kept documents: datatrove 0.10.1's examples/fineweb.py
(run as eval/parity/fineweb_datatrove.py runs it) against `webtext fineweb`, ratios from one run.

    python fineweb_speed.py WEBTEXT REPOSITORY WARC [WARC ...]

Both sides read the WARC files, filter (URL filter, trafilatura, language, Gopher, C4, FineWeb
quality), de-duplicate with MinHash (FineWeb's settings) and format PII, writing the kept
documents; model and list loading is inside both times. datatrove runs its stages with its local
executor, one task each (the buckets stage one task per bucket), pinned to one core with its
extraction process; webtext runs pinned to one core (`--partitions 1`), then on two cores
(`--partitions 2`). Prints each side's seconds (datatrove's: its stages' sum, which the generator times),
kept documents and peak resident memory (the largest of the processes of that run; datatrove's
includes the generator's listing of what it read), and the ratios.
"""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def peak_rss_mib_of(command, **kwargs):
    """Runs `command` under GNU time; returns (seconds, the peak resident MiB of its largest
    process)."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".time") as report:
        start = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command, check=True, **kwargs)
        seconds = time.perf_counter() - start
        kilobytes = int(report.read().split()[-1])
    return seconds, kilobytes / 1024


def count_rows(webtext, parquet):
    out = subprocess.run([webtext, "sql", "--table", f"k={parquet}", "--format", "csv",
                          "SELECT count(*) AS n FROM k"], check=True, capture_output=True, text=True)
    return int(out.stdout.splitlines()[1])


def main():
    webtext, repository, warcs = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
    block_list = None
    with tempfile.TemporaryDirectory(prefix="webtext-fineweb-speed-") as scratch:
        # One folder of the files for webtext fineweb, which takes a file, a folder or a glob.
        inputs = os.path.join(scratch, "warc")
        os.makedirs(inputs)
        for warc in warcs:
            os.symlink(os.path.abspath(warc), os.path.join(inputs, os.path.basename(warc)))
        oracle = os.path.join(scratch, "datatrove.parquet")
        _, their_peak = peak_rss_mib_of(
            ["taskset", "-c", "0", sys.executable, os.path.join(repository, "eval/parity/fineweb_datatrove.py"),
             "--compact", "--no-slow-pages", repository, oracle] + warcs,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import json

        import pyarrow.parquet as pq

        # datatrove's stages alone: the generator then reads the archive again to list what it
        # read, which is not datatrove's work.
        with open(os.path.join(scratch, "datatrove.json")) as summary:
            theirs = sum(json.load(summary)["stage_seconds"].values())

        their_kept = sum(1 for r in pq.read_table(oracle, columns=["removed_by"]).to_pylist()
                         if r["removed_by"] is None)
        print(f"datatrove: {theirs:.1f} s, {their_kept} kept, peak {their_peak:.0f} MiB", flush=True)
        import datatrove

        block_list = os.path.join(os.path.dirname(datatrove.__file__), "assets", "url_filterblacklistsv0_3_0.tar.gz")
        runs = []
        for cores in (1, 2):
            out = os.path.join(scratch, f"webtext-{cores}")
            command = ["taskset", "-c", ",".join(str(c) for c in range(cores)), webtext, "fineweb",
                       inputs, out, "--partitions", str(cores), "--url-filter", f"block_list={block_list}"]
            seconds, peak = peak_rss_mib_of(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            runs.append((cores, seconds, peak, count_rows(webtext, os.path.join(out, "documents.parquet"))))
    megabytes = sum(os.path.getsize(w) for w in warcs) / 1e6
    print(f"{len(warcs)} WARC file(s), {megabytes:.1f} MB")
    print(f"{'run':<40} {'seconds':>8} {'kept':>6} {'peak MiB':>9}")
    print(f"{'datatrove 0.10.1 examples/fineweb.py, 1 core':<40} {theirs:>8.1f} {their_kept:>6} {their_peak:>9.0f}")
    for cores, seconds, peak, kept in runs:
        print(f"{f'webtext fineweb, {cores} core(s)':<40} {seconds:>8.1f} {kept:>6} {peak:>9.0f}")
    one, two = runs[0][1], runs[1][1]
    print(f"ratio, one core: {theirs / one:.1f}x; webtext two cores against one: {one / two:.2f}x")


if __name__ == "__main__":
    main()
