#!/usr/bin/env python3
"""How far the resident memory of a process grows while datafusion-python streams a crawl of
large rows, with and without this package's clean: the Python test of a clean's peak
(python/tests/test_sample_crawl.py) failed once on a growth it then saw for datafusion-python's
own reading of the file as well.

    python eval/memory/python_read_peak.py [--copies 4 8] [--runs 3] [--partitions 2]

Writes the test's crawl (96 pages of the bundled sample, each with an incompressible 1 MiB column,
in row groups of 16 rows) `copies` times over into a temporary folder, then, each in a process of
its own, `runs` times: datafusion-python reading it through the Arrow C stream (``read``), and
``datafusion_webtext.clean(..., output=...)`` (``clean``). Prints the growth of each process's
peak resident memory (VmHWM) over its start, in MiB. Needs the package built (maturin develop) and
pyarrow.
"""
import argparse
import os
import subprocess
import sys
import tempfile

SAMPLE = os.path.join(os.path.dirname(__file__), "../../examples/data/sample_crawl.parquet")

CHILD = """
import sys
from datafusion import SessionConfig
import pyarrow as pa
import datafusion_webtext as webtext
def peak_mib():
    return int(open("/proc/self/status").read().split("VmHWM:")[1].split("kB")[0]) // 1024
mode, crawl, out, partitions = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
ctx = webtext.session(SessionConfig().with_batch_size(16).with_target_partitions(partitions))
before = peak_mib()
if mode == "read":
    rows = sum(b.num_rows for b in pa.RecordBatchReader.from_stream(ctx.read_parquet(crawl)))
else:
    rows = webtext.clean(crawl, ctx=ctx, output=out)
print(rows, peak_mib() - before)
"""


def write_crawl(folder, copies):
    import pyarrow as pa
    import pyarrow.parquet as pq

    sample = pq.read_table(SAMPLE).select(["id", "url", "html"]).slice(0, 96)
    pages = pa.concat_tables([sample] * copies)
    blobs = pa.array([os.urandom(1 << 20) for _ in range(pages.num_rows)], pa.binary())
    path = os.path.join(folder, f"crawl-{copies}.parquet")
    pq.write_table(pages.append_column("blob", blobs), path, row_group_size=16)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--partitions", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for copies in args.copies:
            crawl = write_crawl(folder, copies)
            size = os.path.getsize(crawl) >> 20
            for mode in ("read", "clean"):
                grown = []
                for _ in range(args.runs):
                    out = os.path.join(folder, "out.parquet")
                    done = subprocess.run(
                        [sys.executable, "-c", CHILD, mode, crawl, out, str(args.partitions)],
                        capture_output=True, text=True, timeout=900, check=True,
                    )
                    grown.append(int(done.stdout.split()[1]))
                    if os.path.exists(out):
                        os.unlink(out)
                print(f"{mode:5} {size:5} MiB of input, {args.partitions} partition(s): "
                      f"peak grew by {', '.join(map(str, grown))} MiB")
            os.unlink(crawl)


if __name__ == "__main__":
    main()
