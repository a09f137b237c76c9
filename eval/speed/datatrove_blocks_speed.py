"""datatrove 0.10.1's URLFilter, C4BadWordsFilter, PIIFormatter and TokensCounter in Python
against webtext's url_filter, c4_badwords, pii_redact and token_count, on the same inputs, one core
(the caller pins the process), ratios from one run.

    python datatrove_blocks_speed.py SHARED WEBTEXT

Inputs: the 26,776 URLs of the URL filter's oracle (the empty ones left out) and the 20,000
documents of the de-duplication corpus (bad words in English, PII). datatrove's lists are loaded
before its timing starts (URLFilter's first call reads its 4.6 M-entry block list); webtext's
times are whole `webtext sql` runs, process start and list loading included, and the block list
is the same archive, read from the datatrove wheel installed here. The tokenizer is a GPT-2-shaped
byte-level BPE of 8,000 tokens that the script trains on the odd-numbered documents (GPT-2's own
is on the Hugging Face Hub, out of reach here). Both sides' counts are printed and must agree.
"""

import os
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq

from datatrove_assets import LDNOOBW_EN, fill_offline_cache
from webtext_sql import timed_csv_query

# How many times the URLs are filtered for url_filter's ratio without the list's load.
REPEATS = 5


def byte_level_bpe(texts, scratch):
    """A tokenizer.json of GPT-2's shape trained on `texts`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(vocab_size=8000, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    tokenizer.train_from_iterator(texts, trainer=trainer, length=len(texts))
    path = os.path.join(scratch, "tokenizer.json")
    tokenizer.save(path)
    return path


def timed(label, function, items):
    start = time.perf_counter()
    count = sum(1 for item in items if function(item))
    return time.perf_counter() - start, count


def main():
    with tempfile.TemporaryDirectory(prefix="webtext-blocks-") as scratch:
        compare(sys.argv[1], sys.argv[2], scratch)


def compare(shared, webtext, scratch):
    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    fill_offline_cache(repository, os.path.join(scratch, "hf_home"), [LDNOOBW_EN])
    from datatrove.data import Document
    from datatrove.pipeline.filters import C4BadWordsFilter, URLFilter
    from datatrove.pipeline.formatters import PIIFormatter
    from datatrove.pipeline.tokens import TokensCounter
    import datatrove

    archive = os.path.join(os.path.dirname(datatrove.__file__), "assets",
                           "url_filterblacklistsv0_3_0.tar.gz")
    urls = [u for u in pq.read_table(f"{shared}/oracle/datatrove_blocks/url_filter.parquet",
                                     columns=["url"]).column("url").to_pylist() if u]
    documents = f"{shared}/eval/dedup/documents.parquet"
    texts = pq.read_table(documents, columns=["text"]).column("text").to_pylist()
    url_file = os.path.join(scratch, "urls.parquet")
    pq.write_table(pa.table({"url": urls}), url_file)

    def passed(result):
        return result is True or (isinstance(result, tuple) and result[0])

    url_filter = URLFilter()
    start = time.perf_counter()
    url_filter.filter(Document(text="", id="0", metadata={"url": "http://example.com/"}))
    load = time.perf_counter() - start
    theirs = {}
    theirs["url_filter"] = timed("url_filter", lambda u: passed(
        url_filter.filter(Document(text="", id="0", metadata={"url": u}))), urls)
    # The filtering alone needs more URLs than the list's load to be told apart from it: the
    # URLs five times over (tldextract caches nothing that repeats would help; if it did, the
    # ratio would lean datatrove's way).
    repeated = urls * REPEATS
    repeated_file = os.path.join(scratch, "urls_repeated.parquet")
    pq.write_table(pa.table({"url": repeated}), repeated_file)
    theirs_repeated = timed("url_filter", lambda u: passed(
        url_filter.filter(Document(text="", id="0", metadata={"url": u}))), repeated)
    badwords = C4BadWordsFilter()
    badwords.filter(Document(text="warm up", id="0"))
    theirs["c4_badwords"] = timed("c4_badwords", lambda t: passed(
        badwords.filter(Document(text=t, id="0"))), texts)
    pii = PIIFormatter()
    theirs["pii_redact"] = timed("pii_redact", lambda t: pii.format(t) != t, texts)
    tokenizer = byte_level_bpe(texts[1::2], scratch)
    counter = TokensCounter(tokenizer_name_or_path=tokenizer)
    assert counter.tokenizer is not None  # read before the timing
    documents_in = [Document(text=t, id=str(i)) for i, t in enumerate(texts)]
    start = time.perf_counter()
    tokens = sum(d.metadata["token_count"] for d in counter.run(iter(documents_in)))
    theirs["token_count"] = (time.perf_counter() - start, tokens)

    ours = {}
    seconds, _, values = timed_csv_query(webtext, {"u": url_file}, (
        f"SELECT sum(CAST(url_filter(url, 'block_list={archive}')['passed'] AS INT)) FROM u"))
    ours["url_filter"] = (seconds, int(values[0]))
    # The same process start and block list load, one URL filtered: what the whole run spends
    # before its filtering.
    our_load, _, _ = timed_csv_query(webtext, {}, (
        f"SELECT url_filter('http://example.com/', 'block_list={archive}')['passed']"))
    seconds, _, values = timed_csv_query(webtext, {"u": repeated_file}, (
        f"SELECT sum(CAST(url_filter(url, 'block_list={archive}')['passed'] AS INT)) FROM u"))
    ours_repeated = (seconds, int(values[0]))
    seconds, _, values = timed_csv_query(webtext, {"d": documents}, (
        "SELECT sum(CAST(c4_badwords(text, 'en')['passed'] AS INT)) FROM d"))
    ours["c4_badwords"] = (seconds, int(values[0]))
    seconds, _, values = timed_csv_query(webtext, {"d": documents}, (
        "SELECT sum(CAST(p['emails'] + p['ips'] > 0 AS INT)) FROM (SELECT pii_redact(text) AS p FROM d)"))
    ours["pii_redact"] = (seconds, int(values[0]))
    seconds, _, values = timed_csv_query(webtext, {"d": documents}, (
        f"SELECT sum(token_count(text, 'tokenizer={tokenizer}')) FROM d"))
    ours["token_count"] = (seconds, int(values[0]))

    megabytes = sum(len(t.encode()) for t in texts) / 1e6
    print(f"{len(urls)} URLs; {len(texts)} documents, {megabytes:.1f} MB; one core")
    print(f"datatrove's block list loaded in {load:.2f} s (not timed below); webtext's process "
          f"start and block list load {our_load:.2f} s (timed below)")
    print(f"{'block':<12} {'datatrove s':>12} {'count':>9} {'webtext s':>10} {'count':>9} {'ratio':>7}")
    differ = False
    for name in ("url_filter", "c4_badwords", "pii_redact", "token_count"):
        (t, n), (o, m) = theirs[name], ours[name]
        print(f"{name:<12} {t:>12.2f} {n:>9} {o:>10.2f} {m:>9} {t / o:>6.1f}x")
        differ |= n != m
    (t, _), (o, _) = theirs["url_filter"], ours["url_filter"]
    print(f"{'url_filter, both loads counted':<40} {t + load:>6.2f} s {o:>6.2f} s {(t + load) / o:>6.1f}x")
    (t, n), (o, m) = theirs_repeated, ours_repeated
    differ |= n != m
    label = f"url_filter x{REPEATS}, no load counted"
    print(f"{label:<40} {t:>6.2f} s {o - our_load:>6.2f} s {t / max(o - our_load, 1e-3):>6.1f}x "
          f"({len(repeated)} URLs, {n} passed on both sides)")
    print("(url_filter and c4_badwords count the URLs and documents passed; pii_redact the texts "
          "datatrove changed and those in which webtext replaced something; token_count the "
          "tokens of all documents)")
    if differ:
        print("the counts differ", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
