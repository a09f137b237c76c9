#!/usr/bin/env python3
"""Writes the Vietnamese tokenizer's tables from the pyvi 0.1.1 wheel (MIT), which datatrove
0.10.1's Vietnamese tokenizer (spaCy's, with use_pyvi) loads:

- tokenizers/pyvi_0.1.1_tokenizer.crfsuite.gz: the CRFsuite model file inside
  `pyvi/models/pyvi3.pkl`, a pickled sklearn-crfsuite CRF that keeps the model file's bytes.
  The pickle is read without importing sklearn-crfsuite: every class is a stand-in that keeps its
  state, and the bytes are the `__FILE_RESOURCE_DATA__` of the `modelfile` state.
- tokenizers/pyvi_0.1.1_words.txt.gz: `pyvi/models/words.txt` as it is.

Both gzipped with mtime 0, so a rerun writes the same bytes.

Usage (any Python 3):
    pip download --no-deps pyvi==0.1.1
    python tools/dump_pyvi_tables.py pyvi-0.1.1-py2.py3-none-any.whl
"""
import codecs
import gzip
import io
import pickle
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tokenizers"


class StandIn:
    """Any class of the pickle: keeps the arguments and the state it is given."""

    def __init__(self, *args, **kwargs):
        self.args = args

    def __setstate__(self, state):
        self.state = state


class ModelUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        # The model bytes are pickled as codecs.encode(text, "latin1").
        if (module, name) == ("_codecs", "encode"):
            return codecs.encode
        return StandIn


def write_gzip(path: Path, data: bytes) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as out:
        out.write(data)
    print(f"{path}: {len(data)} bytes, {path.stat().st_size} gzipped")


def main(wheel: str) -> None:
    with zipfile.ZipFile(wheel) as archive:
        crf = ModelUnpickler(io.BytesIO(archive.read("pyvi/models/pyvi3.pkl"))).load()
        words = archive.read("pyvi/models/words.txt")
    model = crf.state["modelfile"].state["__FILE_RESOURCE_DATA__"]
    if not model.startswith(b"lCRF"):
        sys.exit("pyvi3.pkl: the model file is not a CRFsuite model")
    write_gzip(OUT / "pyvi_0.1.1_tokenizer.crfsuite.gz", model)
    write_gzip(OUT / "pyvi_0.1.1_words.txt.gz", words)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
