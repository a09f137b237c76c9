"""FineWeb-2's per-language filters: datatrove 0.10.1 in Python against webtext's SQL functions, on
the FineWeb-2 oracle's documents, one core (the caller pins the process), per tokenizer family,
ratios from one run.

    python datatrove_fineweb2_speed.py DOCUMENTS.parquet WEBTEXT [CONFIGS.jsonl]

WEBTEXT_SPEED_FAMILIES (comma-separated parts of family names) runs only those families.

The n-gram thresholds of each language come from the oracle's CONFIGS.jsonl (its `yml_parsed`),
or, for a language it lacks or without it, from the crate's bundled copy of FineWeb-2's configs.

datatrove's three filters are built per language as fineweb-2-pipeline.py builds them from the
language's config (webtext's bundled copy of FineWeb-2's configs, read by `fineweb2_languages()`),
each called on a fresh Document of each text, the language's tokenizer loaded and warmed up before
timing. webtext runs one query per family over the same documents computing the three structs with
each row's language (`'language=' || language`), on one partition, process start included. Both
sides' pass counts are printed and must agree.
"""

import gzip
import json
import os
import subprocess
import sys
import time

import pyarrow.parquet as pq
from datatrove.data import Document
from datatrove.pipeline.filters import FineWebQualityFilter, GopherQualityFilter, GopherRepetitionFilter

from webtext_sql import timed_csv_query

FAMILIES = {
    "spaCy (19 languages)": lambda tokenizer: (tokenizer.startswith("SpaCyTokenizer")
                                               and tokenizer not in ("SpaCyTokenizer(zh)", "SpaCyTokenizer(ja)",
                                                                     "SpaCyTokenizer(vi)")),
    "Indic NLP (hin_Deva)": lambda tokenizer: tokenizer.startswith("IndicNLPTokenizer"),
    "jieba (cmn_Hani)": lambda tokenizer: tokenizer == "SpaCyTokenizer(zh)",
    "PyThaiNLP (tha_Thai)": lambda tokenizer: tokenizer.startswith("ThaiTokenizer"),
    "pyvi (vie_Latn)": lambda tokenizer: tokenizer == "SpaCyTokenizer(vi)",
    "pyidaungsu (Myanmar)": lambda tokenizer: tokenizer.startswith("BurmeseTokenizer"),
    "LaoNLP (lao_Laoo)": lambda tokenizer: tokenizer.startswith("LaoTokenizer"),
    "khmer-nltk (khm_Khmr)": lambda tokenizer: tokenizer.startswith("KhmerTokenizer"),
    # Where webtext finds Kiwi (WEBTEXT_KIWI_LIBRARY, WEBTEXT_KIWI_MODEL); both sides run Kiwi's C++.
    "Kiwi (kor_Hang)": lambda tokenizer: tokenizer.startswith("KiwiTokenizer"),
    # Where webtext finds Sudachi (WEBTEXT_SUDACHI); both sides run sudachi.rs.
    "Sudachi (jpn_Jpan)": lambda tokenizer: tokenizer == "SpaCyTokenizer(ja)",
}
BUNDLED_CONFIGS = "tokenizers/fineweb2_languages.json.gz"
FILTERS = ["gopher_repetition", "fineweb_quality", "gopher_quality"]


def configs(webtext):
    out = subprocess.run(
        [webtext, "sql", "--format", "jsonl",
         "SELECT name, tokenizer, available, dup_line_frac, line_punct_thr, new_line_ratio, "
         "min_avg_word_length, max_avg_word_length, max_non_alpha_words_ratio, stop_words "
         "FROM fineweb2_languages()"],
        check=True, capture_output=True, text=True).stdout
    return {row["name"]: row for row in map(json.loads, out.splitlines())}


def filters_of(language, config, yml):
    """The three filters as fineweb-2-pipeline.py builds them (yml: the config's n-gram lists)."""
    return [
        GopherRepetitionFilter(language=language, dup_para_frac=0, dup_line_char_frac=0,
                               dup_para_char_frac=0, dup_line_frac=config["dup_line_frac"],
                               top_n_grams=yml["top_n_grams"], dup_n_grams=yml["dup_n_grams"]),
        FineWebQualityFilter(language=language, short_line_thr=999, char_duplicates_ratio=0.1,
                             line_punct_thr=config["line_punct_thr"],
                             new_line_ratio=config["new_line_ratio"]),
        GopherQualityFilter(language=language, max_avg_word_length=config["max_avg_word_length"],
                            min_avg_word_length=config["min_avg_word_length"],
                            stop_words=config["stop_words"],
                            max_non_alpha_words_ratio=config["max_non_alpha_words_ratio"],
                            min_stop_words=2),
    ]


def passed(result):
    return result is True or (isinstance(result, tuple) and result[0])


def main():
    documents, webtext = sys.argv[1], sys.argv[2]
    table = pq.read_table(documents, columns=["language", "text"]).to_pylist()
    ymls = json.load(gzip.open(BUNDLED_CONFIGS))["configs"]
    for line in open(sys.argv[3]) if len(sys.argv) > 3 else []:
        row = json.loads(line)
        ymls[row["language"]] = row["yml_parsed"]
    known = configs(webtext)
    print(f"{'family':<24} {'docs':>5} {'MB':>6} {'datatrove s':>12} {'webtext s':>10} {'ratio':>7}")
    failed = False
    # WEBTEXT_SPEED_FAMILIES=Kiwi,jieba: only the families whose names hold one of these.
    only = [f for f in os.environ.get("WEBTEXT_SPEED_FAMILIES", "").split(",") if f]
    for family, member in FAMILIES.items():
        if only and not any(f in family for f in only):
            continue
        languages = sorted(l for l in {r["language"] for r in table}
                           if known[l]["available"] and member(known[l]["tokenizer"]))
        rows = [r for r in table if r["language"] in languages]
        if not rows:
            print(f"{family:<24} no document of the family")
            continue
        megabytes = sum(len(r["text"].encode()) for r in rows) / 1e6
        # datatrove: each language's filters, warmed up (the tokenizer loaded, caches filled).
        by_language = {l: filters_of(l, known[l], ymls[l]) for l in languages}
        for r in rows[:: max(1, len(rows) // 200)]:
            for flt in by_language[r["language"]]:
                flt.filter(Document(text=r["text"], id="warm"))
        theirs = dict.fromkeys(FILTERS, 0)
        start = time.perf_counter()
        for i, r in enumerate(rows):
            for name, flt in zip(FILTERS, by_language[r["language"]]):
                theirs[name] += passed(flt.filter(Document(text=r["text"], id=str(i))))
        their_seconds = time.perf_counter() - start
        calls = ", ".join(f"{f}(text, 'language=' || language) AS {f}" for f in FILTERS)
        sums = ", ".join(f"sum(CAST({f}['passed'] AS INT)) AS {f}" for f in FILTERS)
        names = ", ".join(f"'{l}'" for l in languages)
        sql = f"SELECT {sums} FROM (SELECT {calls} FROM d WHERE language IN ({names}))"
        our_seconds, header, values = timed_csv_query(webtext, {"d": documents}, sql)
        ours = dict(zip(header, map(int, values)))
        print(f"{family:<24} {len(rows):>5} {megabytes:>6.1f} {their_seconds:>12.1f} "
              f"{our_seconds:>10.2f} {their_seconds / our_seconds:>6.1f}x")
        print(f"  passed: datatrove {theirs}, webtext {ours}")
        failed |= ours != theirs
    if failed:
        print("the pass counts differ", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
