"""Times datatrove 0.10.1's MinHash de-duplication, its four stages as its documentation runs
them (LocalPipelineExecutor, one worker; stage 2 needs one task per bucket), on a Parquet file of
documents (doc_id, text), and prints one line: total seconds, per-stage seconds and the removed
count. Peak memory comes from /usr/bin/time around this script.

    python datatrove_minhash_speed.py DOCUMENTS.parquet WORK_DIR
"""

import json
import sys
import tempfile
import time

from datatrove.executor.local import LocalPipelineExecutor
from datatrove.pipeline.dedup.minhash import (
    MinhashConfig,
    MinhashDedupBuckets,
    MinhashDedupCluster,
    MinhashDedupFilter,
    MinhashDedupSignature,
)
from datatrove.pipeline.readers import ParquetReader
from datatrove.pipeline.writers import JsonlWriter


def main():
    documents, work = sys.argv[1], sys.argv[2]
    folder, name = documents.rsplit("/", 1)
    config = MinhashConfig()

    def reader():
        return ParquetReader(folder, glob_pattern=name, text_key="text", id_key="doc_id")

    stages = [
        ("signatures", [reader(), MinhashDedupSignature(output_folder=f"{work}/signatures", config=config)], 1),
        ("buckets", [MinhashDedupBuckets(input_folder=f"{work}/signatures", output_folder=f"{work}/buckets",
                                         config=config)], config.num_buckets),
        ("cluster", [MinhashDedupCluster(input_folder=f"{work}/buckets", output_folder=f"{work}/remove_ids",
                                         config=config, save_cluster_id=True)], 1),
        ("filter", [reader(), MinhashDedupFilter(input_folder=f"{work}/remove_ids", load_cluster_ids=True),
                    JsonlWriter(f"{work}/output")], 1),
    ]
    seconds = {}
    started = time.perf_counter()
    for stage, pipeline, tasks in stages:
        t0 = time.perf_counter()
        LocalPipelineExecutor(pipeline=pipeline, tasks=tasks, workers=1, logging_dir=f"{work}/logs/{stage}").run()
        seconds[stage] = round(time.perf_counter() - t0, 2)
    total = time.perf_counter() - started
    removed = 0
    import glob
    import struct
    for path in glob.glob(f"{work}/remove_ids/*.remove"):
        with open(path, "rb") as f:
            removed += len(f.read()) // struct.calcsize("<I")
    print(json.dumps({"seconds": round(total, 2), "stages": seconds, "removed": removed}))


if __name__ == "__main__":
    main()
