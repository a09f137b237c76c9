"""The webtext side of the Python speed comparisons: one `webtext sql` query on one partition."""

import subprocess
import time


def timed_csv_query(webtext, tables, sql):
    """Runs `webtext sql --partitions 1` with each `tables` name=path and the query; returns the
    wall seconds (process start included) and the CSV result as (header, first row) lists."""
    args = [webtext, "sql", "--partitions", "1"]
    for name, path in tables.items():
        args += ["--table", f"{name}={path}"]
    start = time.perf_counter()
    out = subprocess.run(args + ["--format", "csv", sql], check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    header, row = out.strip().splitlines()[:2]
    return seconds, header.split(","), row.split(",")
