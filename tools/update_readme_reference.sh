#!/usr/bin/env bash
# Rewrites the README's function reference (between the functions:start/end markers) from the
# functions' own Documentation. tests/integration/readme.rs fails until this has been run after a change.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --example function_reference > target/function_reference.md
python3 - <<'PY'
import re
readme = open("README.md").read()
ref = open("target/function_reference.md").read()
start, end = "<!-- functions:start -->", "<!-- functions:end -->"
a, b = readme.index(start) + len(start), readme.index(end)
open("README.md", "w").write(readme[:a] + "\n" + ref + readme[b:])
PY
