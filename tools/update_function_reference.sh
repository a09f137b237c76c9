#!/usr/bin/env bash
# Rewrites the book's function reference (docs/src/functions.md, between the functions:start/end
# markers) from the functions' own Documentation. tests/integration/book.rs fails until this has
# been run after a change. Built with the test command's features, so DataFusion is not compiled a
# second time.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --features cluster --example function_reference > target/function_reference.md
python3 - <<'PY'
page = open("docs/src/functions.md").read()
ref = open("target/function_reference.md").read()
start, end = "<!-- functions:start -->", "<!-- functions:end -->"
a, b = page.index(start) + len(start), page.index(end)
open("docs/src/functions.md", "w").write(page[:a] + "\n" + ref + page[b:])
PY
