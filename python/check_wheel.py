#!/usr/bin/env python3
"""Installs a built wheel of datafusion-webtext into a fresh venv, as a user without Rust would,
and cleans the repository's sample crawl with it: the PATH holds no cargo or rustc, so pip must
take the wheel as it is (it cannot fall back to building from source), and the installed package
must find everything it needs in the wheel.

    python3 python/check_wheel.py WHEEL
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHECK = """
import sys
import pyarrow.parquet as pq
import datafusion_webtext as webtext
from datafusion_webtext import compute

crawl = pq.read_table(sys.argv[1])
cleaned = webtext.clean(sys.argv[1])
text = compute.justext(crawl.column("html"), "English")
kept = sum(1 for t in text.to_pylist() if t)
assert cleaned.num_rows == crawl.num_rows == 156, (cleaned.num_rows, crawl.num_rows)
by_url = dict(zip(crawl.column("url").to_pylist(), text.to_pylist()))
assert all(by_url[u] == t for u, t in zip(cleaned.column("url").to_pylist(), cleaned.column("text").to_pylist()))
print(f"cleaned {cleaned.num_rows} pages from the installed wheel; compute.justext kept text on {kept}")
"""


def main() -> int:
    wheel = Path(sys.argv[1]).resolve()
    with tempfile.TemporaryDirectory(prefix="webtext-wheel-check-") as work:
        venv = Path(work) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        # A PATH with the venv and the system's tools, none of Rust's.
        path = os.pathsep.join(
            p for p in [str(venv / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]
            if not (Path(p) / "cargo").exists() and not (Path(p) / "rustc").exists()
        )
        # The rest of the environment stays (pip's index, certificates and proxy settings).
        env = {**os.environ, "PATH": path}
        env.pop("VIRTUAL_ENV", None)
        for tool in ("cargo", "rustc"):
            assert shutil.which(tool, path=path) is None, f"{tool} is on the check's PATH"
        start = time.perf_counter()
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", "--only-binary", ":all:", str(wheel)],
            check=True, env=env,
        )
        print(f"installed {wheel.name} and its dependencies in {time.perf_counter() - start:.1f} s")
        done = subprocess.run(
            [str(venv / "bin" / "python"), "-c", CHECK, str(REPO / "examples" / "data" / "sample_crawl.parquet")],
            env=env, cwd=work, capture_output=True, text=True,
        )
        print(done.stdout, end="")
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
