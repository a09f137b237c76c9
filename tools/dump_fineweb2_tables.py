#!/usr/bin/env python3
"""Writes the tables FineWeb-2's per-language filters need, from the sources FineWeb-2 and
datatrove 0.10.1 use:

- tokenizers/spacy_3.8.18_languages.json.gz: the rule tables of spaCy 3.8.18's blank tokenizer
  (`spacy.blank(code)`, as datatrove's SpaCyTokenizer builds it) for every spaCy code datatrove's
  tokenizer_assignment.csv gives a rule-based spaCy tokenizer: prefix, suffix, infix, token_match
  and url_match patterns (Python `re`), the special cases (ORTH pieces) and those spaCy's phrase
  pass applies. English is tokenizers/spacy_en_3.8.18.json.gz; zh, ja and vi are not rule-based.
- tokenizers/fineweb2_languages.json.gz: each of FineWeb-2's configs/{lang}_{script}.yml as
  `yaml.safe_load` reads it (stop words kept when they load as strings: a YAML 1.1 boolean or a
  number never equals a token), and datatrove's tokenizer for every name
  `load_word_tokenizer` accepts (the CSV's rules, its quirks included: "FALSE" is a true string).

Usage (a venv with spacy==3.8.18 and pyyaml; the datatrove 0.10.1 wheel from PyPI):
    python tools/dump_fineweb2_tables.py DATATROVE_WHEEL FINEWEB2_CONFIGS_TAR_GZ
e.g. `pip download --no-deps datatrove==0.10.1` and ../shared/data/fineweb2/configs.tar.gz.
"""
import csv
import gzip
import io
import json
import sys
import tarfile
import zipfile
from pathlib import Path

import spacy
import yaml

OUT = Path(__file__).resolve().parent.parent / "tokenizers"
# Built by other tokenizers than spaCy's rules (jieba, Sudachi, pyvi), or bundled apart (English).
NOT_RULE_BASED = {"zh", "ja", "vi"}
BUNDLED_APART = {"en"}


def write_json_gz(path, value):
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
            f.write(json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode())
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")


def assignment_rows(wheel):
    with zipfile.ZipFile(wheel) as z:
        text = z.read("datatrove/assets/tokenizer_assignment.csv").decode("utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def tokenizer_names(rows):
    """Name -> [class, code], as datatrove's load_tokenizer_assignments fills its dict: the first
    row of a name wins; `default_script` and `default_code_1` are strings, so "FALSE" counts."""
    names = {}
    for row in rows:
        if not row["type"]:
            continue
        tok = [row["type"], row["tok_code"]]
        code_3_script = f"{row['code_3']}_{row['script']}"
        if code_3_script not in names:
            names[code_3_script] = tok
            if row["default_script"]:
                names[row["code_3"]] = tok
        code_1_script = f"{row['code_1']}_{row['script']}"
        if row["code_1"] and row["default_code_1"] and code_1_script not in names:
            names[code_1_script] = tok
            if row["default_script"]:
                names[row["code_1"]] = tok
    return names


def spacy_tables(code):
    t = spacy.blank(code).tokenizer
    special_cases = {}
    for key, pieces in sorted(t.rules.items()):
        special_cases[key] = [next((v for k, v in d.items() if k in (65, "ORTH")), None) for d in pieces]
    in_phrase_matcher = sorted(
        s for s in t.rules
        if (not t.faster_heuristics) or t.find_prefix(s) or t.find_infix(s) or t.find_suffix(s) or " " in s
    )
    pattern = lambda f: f.__self__.pattern if f else None  # noqa: E731
    return dict(
        prefix_pattern=pattern(t.prefix_search),
        suffix_pattern=pattern(t.suffix_search),
        infix_pattern=pattern(t.infix_finditer),
        token_match_pattern=pattern(t.token_match),
        url_match_pattern=pattern(t.url_match),
        faster_heuristics=bool(t.faster_heuristics),
        special_cases=special_cases,
        special_cases_in_phrase_matcher=in_phrase_matcher,
    )


def configs(tar_path):
    out = {}
    with tarfile.open(tar_path) as tar:
        for member in tar.getmembers():
            name = Path(member.name)
            if not member.isfile() or name.suffix != ".yml":
                continue
            cfg = yaml.safe_load(tar.extractfile(member).read())
            words = cfg.get("stopwords") or []
            cfg["stopwords"] = [w for w in words if isinstance(w, str)]
            dropped = len(words) - len(cfg["stopwords"])
            if dropped:
                cfg["stopwords_not_strings"] = dropped
            out[name.stem] = cfg
    return out


def main():
    wheel, configs_tar = sys.argv[1], sys.argv[2]
    names = tokenizer_names(assignment_rows(wheel))
    codes = sorted({code for cls, code in names.values() if cls == "SpaCyTokenizer"} | {"xx"})
    languages = {}
    for code in codes:
        if code in NOT_RULE_BASED or code in BUNDLED_APART:
            continue
        languages[code] = spacy_tables(code)
    write_json_gz(
        OUT / "spacy_3.8.18_languages.json.gz",
        dict(
            spacy_version=spacy.__version__,
            how_built="spacy.blank(code).tokenizer, as datatrove 0.10.1's SpaCyTokenizer builds it; "
            "patterns are Python 're' (prefix and suffix: search, infix: finditer, token_match and url_match: match)",
            languages=languages,
        ),
    )
    cfgs = configs(configs_tar)
    write_json_gz(
        OUT / "fineweb2_languages.json.gz",
        dict(
            source="huggingface/fineweb-2 configs/*.yml @ d0defb24f193bb9a5a11b8b14524a03c4858e1b6 (Apache-2.0); "
            "tokenizers: datatrove 0.10.1 assets/tokenizer_assignment.csv (Apache-2.0)",
            configs=cfgs,
            tokenizers=names,
        ),
    )
    missing = sorted(n for n in cfgs if n not in names)
    print(f"{len(languages)} spaCy languages, {len(cfgs)} configs, {len(names)} tokenizer names; "
          f"configs without a tokenizer: {len(missing)} {missing[:10]}")


if __name__ == "__main__":
    main()
