"""What the exact and sentence de-duplication checkers share: their oracles read by
configuration, the options of the configurations both have, and `webtext dedup-index` against the
index file datatrove's BuildIndex step wrote for their oracles."""

import subprocess
from pathlib import Path

import pyarrow.parquet as pq

from floors import below_floor

# The oracles' indexes are of the corpus's first documents.
INDEXED = 2000


def index_file_share(webtext, documents, index_dir, work, kind):
    """1.0 when `webtext dedup-index --of KIND` of the first documents writes the oracle's index
    file (the one datatrove's BuildIndex step wrote from them) byte for byte, else 0.0."""
    first = Path(work) / "first.parquet"
    subprocess.run([webtext, "sql", "--table", f"documents={documents}", "--output", str(first),
                    f"SELECT * FROM documents ORDER BY doc_id LIMIT {INDEXED}"], check=True)
    ours = Path(work) / "ours.c4_index"
    subprocess.run([webtext, "dedup-index", str(first), str(ours), "--of", kind], check=True)
    (theirs,) = [p for p in Path(index_dir).iterdir() if p.is_file()]
    same = ours.read_bytes() == theirs.read_bytes()
    print(f"{kind} index_file: {ours.stat().st_size} bytes, datatrove's {theirs.stat().st_size}, "
          f"{'identical' if same else 'different'}")
    return 1.0 if same else 0.0


def by_config(oracle, columns):
    """The oracle's rows as {config: {doc_id: (column values...)}}."""
    table = pq.read_table(oracle).to_pydict()
    configs = {}
    for i, (config, doc_id) in enumerate(zip(table["config"], table["doc_id"])):
        configs.setdefault(config, {})[doc_id] = tuple(table[c][i] for c in columns)
    return configs


def hash_and_index_options(config, index_dir):
    """The command's options of the configurations both oracles have."""
    return {
        "default": [],
        "sha1_32": ["--hash-fc", "sha1", "--precision", "32"],
        "index": ["--index", index_dir],
        "index_all": ["--index", index_dir, "--dedup-beyond-index"],
    }[config]


def index_file_failed(checker, kind, webtext, documents, index_dir, work, floors, args):
    """Prints `CHECKER index_file SHARE`; whether it is below its floor."""
    share = index_file_share(webtext, documents, index_dir, work, kind)
    print(f"{checker} index_file {share:.6f}")
    return below_floor(checker, "index_file", share, floors, args)
