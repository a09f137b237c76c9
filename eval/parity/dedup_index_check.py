"""What the exact and sentence de-duplication checkers share: `webtext dedup-index` against the
index file datatrove's BuildIndex step wrote for their oracles."""

import subprocess
from pathlib import Path

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
