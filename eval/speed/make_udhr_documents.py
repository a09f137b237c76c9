"""Documents in the languages the FineWeb-2 oracle lacks, for the speed comparison of their word
tokenizers: each UDHR translation's paragraphs, and texts generated from its words in a random
order mixed with digits, Latin words, punctuation and line breaks (a fixed seed, as
tools/reference_words.py makes them), 600 per language.

    python make_udhr_documents.py UDHR_PACKAGE_DIR OUT.parquet
"""

import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from reference_words import generated, paragraphs  # noqa: E402

# FineWeb-2 config -> its UDHR translation.
LANGUAGES = {"mya_Mymr": "mya", "shn_Mymr": "shn", "mnw_Mymr": "mnw", "lao_Laoo": "lao",
             "khm_Khmr": "khm"}


def main():
    udhr, out = Path(sys.argv[1]), sys.argv[2]
    rows = []
    for config, code in LANGUAGES.items():
        texts = paragraphs(udhr, code)
        words = [w for text in texts for w in text.split()]
        texts += generated(words, config, 600)
        rows += [{"language": config, "text": text} for text in texts]
    pq.write_table(pa.Table.from_pylist(rows), out)
    print(out, len(rows), "documents", file=sys.stderr)


if __name__ == "__main__":
    main()
