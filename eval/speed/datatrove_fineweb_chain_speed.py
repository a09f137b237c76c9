"""FineWeb's extended filter chain from a WARC file: datatrove 0.10.1's pipeline in Python against
`webtext sql` with sql/fineweb.sql, one core (the caller pins the process), ratio from one run.

    python datatrove_fineweb_chain_speed.py WARC WEBTEXT REPOSITORY

datatrove runs FineWeb's pipeline as its example `fineweb.py` builds it, extended with the two
steps other chains add: WarcReader -> URLFilter -> Trafilatura(favour_precision=True) ->
LanguageFilter(en, 0.65) -> GopherRepetitionFilter -> GopherQualityFilter ->
C4QualityFilter(filter_no_terminal_punct=False) -> FineWebQualityFilter -> C4BadWordsFilter ->
PIIFormatter -> JsonlWriter, chained as its local executor chains them for one task. webtext runs sql/warc_to_parquet.sql (the
HTML responses) and then sql/fineweb.sql with badwords=true and pii=true, writing the kept
documents to Parquet; both commands are timed, process starts included.

Both sides use the same block list (the datatrove wheel's) and the same language model, lid.176.ftz
(datatrove's cache is filled with the repository's copy under the name of the lid.176.bin it would
download: nothing is fetched). The extraction differs (trafilatura there, jusText here, as
sql/fineweb.sql documents), so the documents each step sees differ too: both sides' kept counts
are printed, not compared. datatrove's block list and models are loaded before its timing starts
(a warm-up document through the same blocks); webtext's loads are in its time.
"""

import os
import subprocess
import sys
import tempfile
import time
from collections import deque

from datatrove_assets import LDNOOBW_EN, LID_176, fill_offline_cache


def datatrove_chain(warc, scratch):
    from datatrove.data import Document
    from datatrove.pipeline.extractors import Trafilatura
    from datatrove.pipeline.filters import (
        C4BadWordsFilter,
        C4QualityFilter,
        FineWebQualityFilter,
        GopherQualityFilter,
        GopherRepetitionFilter,
        LanguageFilter,
        URLFilter,
    )
    from datatrove.pipeline.formatters import PIIFormatter
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter

    blocks = [
        URLFilter(),
        Trafilatura(favour_precision=True),
        LanguageFilter(languages=["en"], language_threshold=0.65),
        GopherRepetitionFilter(),
        GopherQualityFilter(),
        C4QualityFilter(filter_no_terminal_punct=False),
        FineWebQualityFilter(),
        C4BadWordsFilter(),
        PIIFormatter(),
    ]
    # Warm-up: the block list, the language model, spaCy's tokenizer and the word list are read
    # by the first document, outside the timing.
    warm = Document(text="<html><body><p>" + "The cat sat on the mat and looked at the dog. " * 20
                    + "</p></body></html>", id="0", metadata={"url": "http://example.com/a"})
    documents = [warm]
    for block in blocks:
        documents = list(block.run(iter(documents)))
    output = os.path.join(scratch, "datatrove-kept")
    pipeline = [WarcReader(os.path.dirname(warc), glob_pattern=os.path.basename(warc))] + blocks + [
        JsonlWriter(output, compression=None)]
    # The steps chained as datatrove's LocalPipelineExecutor chains them for its one task (which
    # would deep-copy the warmed-up blocks first).
    start = time.perf_counter()
    data = None
    for step in pipeline:
        data = step.run(data, rank=0, world_size=1)
    deque(data, maxlen=0)
    seconds = time.perf_counter() - start
    kept = 0
    for name in os.listdir(output):
        with open(os.path.join(output, name)) as lines:
            kept += sum(1 for _ in lines)
    return seconds, kept


def webtext_chain(webtext, warc, archive, scratch):
    crawl = os.path.join(scratch, "crawl.parquet")
    kept = os.path.join(scratch, "webtext-kept.parquet")
    start = time.perf_counter()
    subprocess.run([webtext, "sql", "--partitions", "1", "--table", f"warc={warc}", "--file",
                    "sql/warc_to_parquet.sql", "--output", crawl], check=True, capture_output=True)
    subprocess.run([webtext, "sql", "--partitions", "1", "--table", f"crawl={crawl}", "--file",
                    "sql/fineweb.sql", "--param", f"url_filter=block_list={archive}",
                    "--param", "badwords=true", "--param", "pii=true",
                    "--param", f"decisions={os.path.join(scratch, 'decisions.parquet')}",
                    "--output", kept], check=True, capture_output=True)
    seconds = time.perf_counter() - start
    out = subprocess.run([webtext, "sql", "--table", f"k={kept}", "--format", "csv",
                          "SELECT count(*) AS n FROM k"], check=True, capture_output=True, text=True)
    return seconds, int(out.stdout.splitlines()[1])


def main():
    warc, webtext, repository = sys.argv[1:4]
    warc, webtext = os.path.abspath(warc), os.path.abspath(webtext)
    os.chdir(repository)
    with tempfile.TemporaryDirectory(prefix="webtext-fineweb-chain-") as scratch:
        fill_offline_cache(os.path.abspath(repository), os.path.join(scratch, "hf_home"),
                           [LID_176, LDNOOBW_EN])
        import datatrove
        archive = os.path.join(os.path.dirname(datatrove.__file__), "assets",
                               "url_filterblacklistsv0_3_0.tar.gz")
        theirs, their_kept = datatrove_chain(warc, scratch)
        ours, our_kept = webtext_chain(webtext, warc, archive, scratch)
    megabytes = os.path.getsize(warc) / 1e6
    print(f"{os.path.basename(warc)}: {megabytes:.1f} MB; one core")
    print(f"{'chain':<44} {'seconds':>8} {'kept':>6}")
    print(f"{'datatrove 0.10.1 (trafilatura)':<44} {theirs:>8.1f} {their_kept:>6}")
    print(f"{'webtext (warc_to_parquet.sql + fineweb.sql)':<44} {ours:>8.1f} {our_kept:>6}")
    print(f"ratio: {theirs / ours:.1f}x")


if __name__ == "__main__":
    main()
