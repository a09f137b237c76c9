"""DuckDB: an Arrow table in, SQL around it. DuckDB selects the pages, datafusion_webtext.compute
cleans them, and DuckDB queries the cleaned Arrow table in place (registered, not copied).

    python duckdb_clean.py CRAWL.parquet OUT.parquet
"""

from __future__ import annotations

import sys

import duckdb

import cleaning


def main(crawl: str, out: str) -> None:
    con = duckdb.connect()
    pages = con.execute("SELECT url, html FROM read_parquet(?)", [crawl]).to_arrow_table()
    con.register("cleaned", cleaning.clean(pages))
    con.execute("COPY (SELECT * FROM cleaned) TO '" + out.replace("'", "''") + "' (FORMAT parquet)")
    print(con.sql("SELECT language, count(*) AS pages FROM cleaned GROUP BY language ORDER BY pages DESC LIMIT 3"))


if __name__ == "__main__":
    main(*sys.argv[1:3])
