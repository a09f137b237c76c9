"""datatrove 0.10.1's statistics of a table of documents: the oracle `webtext stats` is compared with.

    python stats_datatrove.py REPOSITORY DOCUMENTS.parquet OUT.parquet [--work DIR] [--config options|tokens|lang]

Runs DocStats, LineStats, ParagraphStats, WordStats (English) and SentenceStats (English) with
their defaults (every group: summary, histogram, fqdn, suffix) over DOCUMENTS.parquet (columns
`text`, `url`; other columns are metadata) with datatrove's LocalPipelineExecutor, one task, then
StatsMerger, and writes OUT.parquet: one row per metric.json StatsMerger wrote, `path`
({group}/{stat}) and `json` (the file's text), sorted by path.

With `--config options`, runs instead LineStats, ParagraphStats, WordStats and SentenceStats with
other parameters than their defaults, and WordsContaminationStats: OPTIONS below, which
`webtext stats --blocks line,paragraph,word,sentence,contamination --options` gives as
WEBTEXT_OPTIONS.

With `--config tokens`, runs TokenStats alone with the GPT-2-shaped tokenizer the exact-substring
oracle trained (TOKENIZER below; `webtext stats --blocks token --options
tokenizer_name_or_path=TOKENIZER`). With `--config lang`, LangStats alone, in English, with the
repository's lid.176.ftz in datatrove's cache under the name of the lid.176.bin it would download
(`webtext stats --blocks lang --options language=en`, whose default model is that file); it
needs fastText's binding in the environment (PyPI's fasttext-numpy2-wheel 0.9.2, with datatrove's
io extras: fasteners, requests, aiohttp).

The repository's oracles, eval/parity/stats_datatrove.parquet,
eval/parity/stats_options_datatrove.parquet, eval/parity/stats_tokens_datatrove.parquet and
eval/parity/stats_lang_datatrove.parquet, are these over the 20,000 documents of the
de-duplication corpus (../shared/eval/dedup/documents.parquet). Offline as the speed scripts
are: tldextract keeps the suffix list of its wheel (tldextract 5.4.0), spaCy 3.8.18 its blank
English pipeline.
"""

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "speed"))
from datatrove_assets import LID_176, fill_offline_cache  # noqa: E402


# The parameters of `--config options`, by block, and the same as webtext's options.
OPTIONS = {
    "LineStats": {"max_k_chars_per_line_tresholds": [5, 50], "min_k_chars_per_line_thresholds": [100],
                  "ignore_empty_lines": True},
    "ParagraphStats": {"short_paragraph_max_chars_threshold": [50], "long_paragraph_max_chars_threshold": [500]},
    "WordStats": {"stop_words": ["a", "an", "in"], "short_word_max_chars_threshold": [2],
                  "long_word_max_chars_threshold": [10]},
    "SentenceStats": {"short_sentence_max_chars_threshold": [10], "long_sentence_max_chars_threshold": [100]},
    "WordsContaminationStats": {"words": ["the", "of", "lorem"]},
}
WEBTEXT_OPTIONS = ("max_k_chars_per_line_tresholds=5|50, min_k_chars_per_line_thresholds=100, "
                   "ignore_empty_lines=true, short_paragraph_max_chars_threshold=50, "
                   "long_paragraph_max_chars_threshold=500, stop_words=a|an|in, short_word_max_chars_threshold=2, "
                   "long_word_max_chars_threshold=10, short_sentence_max_chars_threshold=10, "
                   "long_sentence_max_chars_threshold=100, contamination_words=the|of|lorem")

# TokenStats' tokenizer in `--config tokens`, relative to the repository.
TOKENIZER = "eval/parity/exact_substrings_tokenizer.json"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("repository")
    parser.add_argument("documents")
    parser.add_argument("out")
    parser.add_argument("--work")
    parser.add_argument("--config", choices=["default", "options", "tokens", "lang"], default="default")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="webtext-stats-oracle-")
    fill_offline_cache(args.repository, os.path.join(work, "hf"), [LID_176] if args.config == "lang" else [])

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import ParquetReader
    from datatrove.pipeline.stats import (DocStats, LineStats, ParagraphStats, SentenceStats,
                                          LangStats, StatsMerger, TokenStats, WordsContaminationStats,
                                          WordStats)

    folder, name = os.path.split(os.path.abspath(args.documents))
    stats = os.path.join(work, "stats")
    if args.config == "default":
        blocks = [block(output_folder=stats) for block in
                  (DocStats, LineStats, ParagraphStats, WordStats, SentenceStats)]
    elif args.config == "lang":
        blocks = [LangStats(output_folder=stats, language="en")]
    elif args.config == "tokens":
        blocks = [TokenStats(output_folder=stats,
                             tokenizer_name_or_path=os.path.join(os.path.abspath(args.repository), TOKENIZER))]
    else:
        blocks = [block(output_folder=stats, **OPTIONS[block.__name__]) for block in
                  (LineStats, ParagraphStats, WordStats, SentenceStats, WordsContaminationStats)]
    LocalPipelineExecutor(
        pipeline=[ParquetReader(folder, glob_pattern=name, text_key="text", id_key="doc_id"), *blocks],
        tasks=1, workers=1, logging_dir=os.path.join(work, "logs-stats"),
    ).run()
    merged = os.path.join(work, "merged")
    LocalPipelineExecutor(
        pipeline=[StatsMerger(stats, merged)], tasks=1, workers=1,
        logging_dir=os.path.join(work, "logs-merge"),
    ).run()

    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = []
    for root, _, files in os.walk(merged):
        if "metric.json" in files:
            with open(os.path.join(root, "metric.json")) as f:
                rows.append((os.path.relpath(root, merged), f.read()))
    rows.sort()
    pq.write_table(pa.table({"path": [p for p, _ in rows], "json": [j for _, j in rows]}), args.out,
                   compression="zstd", compression_level=19)
    print(json.dumps({"files": len(rows), "work": work}))


if __name__ == "__main__":
    main()
