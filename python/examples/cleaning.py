"""What every recipe runs on each batch: jusText's text, its language and Gopher's quality verdict,
through datafusion_webtext.compute. A pyarrow Table or RecordBatch in (columns url and html), a
pyarrow Table out; the engines hand over and take back Arrow data, so nothing is copied."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from datafusion_webtext import compute

#: The columns clean() gives, as Spark's DDL and as Arrow's schema.
SPARK_SCHEMA = "url string, text string, language string, language_score double, gopher_passed boolean"
SCHEMA = pa.schema(
    [
        ("url", pa.string()),
        ("text", pa.string()),
        ("language", pa.string()),
        ("language_score", pa.float64()),
        ("gopher_passed", pa.bool_()),
    ]
)


def clean(pages: pa.Table | pa.RecordBatch) -> pa.Table:
    text = compute.justext(pages.column("html"), "English")
    language = compute.detect_language(text)
    quality = compute.gopher_quality(text)
    columns = [
        pages.column("url"),
        text,
        pc.struct_field(language, "language"),
        pc.struct_field(language, "score"),
        pc.struct_field(quality, "passed"),
    ]
    return pa.table(columns, schema=SCHEMA)
