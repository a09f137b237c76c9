"""Ray Data: a Parquet crawl cleaned by datafusion_webtext.compute in map_batches with pyarrow
batches, written as Parquet.

    python ray_clean.py CRAWL.parquet OUT_DIR
"""

from __future__ import annotations

import sys

import ray

import cleaning


def main(crawl: str, out: str) -> None:
    # A local Ray without its dashboard (to keep its servers on the loopback interface, run with
    # RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 in the environment, as the repository's test does).
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        pages = ray.data.read_parquet(crawl, columns=["url", "html"])
        pages.map_batches(cleaning.clean, batch_format="pyarrow").write_parquet(out)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:3])
