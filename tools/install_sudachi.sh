#!/usr/bin/env bash
# Installs what webtext's Japanese words need (datatrove's SpaCyTokenizer("ja"), Sudachi in split
# mode A): the C interface of tools/sudachi_shim built against the sudachi crate (sudachi.rs) of
# SudachiPy 0.7.0's source distribution on PyPI, SudachiPy's settings and resource files, and
# sudachidict-core 20261015's system dictionary: the exact versions datatrove 0.10.1's FineWeb-2
# oracle ran; all archives checked against their SHA-256.
#
#   bash tools/install_sudachi.sh [DEST]      (DEST: ${TMPDIR:-/tmp}/webtext-sudachi)
#
# then, in the environment of webtext (and of every cluster executor):
#
#   export WEBTEXT_SUDACHI=DEST
#
# Needs cargo (the stable toolchain) and Python 3. sudachi.rs and the dictionary are Apache-2.0.
# The build takes a few minutes; the dictionary is a 77 MB download, 200 MB unpacked.
set -euo pipefail
TOOLS="$(cd "$(dirname "$0")" && pwd)"
cd "$TOOLS/.."

DEST="${1:-${TMPDIR:-/tmp}/webtext-sudachi}"
SOURCE_URL=https://files.pythonhosted.org/packages/fc/1d/b34702f38a8bd34972836538d222209095d5aba7faff79d56bce3fb2640c/sudachipy-0.7.0.tar.gz
SOURCE_SHA256=14a2505e7d086fe9da64c0048d8e2de13cdded3aac4f1e047929cef51dba338c
DICT_URL=https://files.pythonhosted.org/packages/3d/6a/9dddc36e33ff7f86e394315a77b90d0f41bfd161e011d77a8397662d53e0/sudachidict_core-20261015-py3-none-any.whl
DICT_SHA256=6d7774b518e64c88a0578975d569590b3dae3b3c834f166486aa611879ee9d98

if [ -f "$DEST/lib/libwebtext_sudachi.so" ] && [ -f "$DEST/system.dic" ] && [ -f "$DEST/resources/sudachi.json" ]; then
  echo "export WEBTEXT_SUDACHI=$DEST"
  exit 0
fi

# shellcheck source=tools/install_common.sh
. "$TOOLS/install_common.sh"

echo "sudachi: downloading SudachiPy 0.7.0's sources and sudachidict-core 20261015 from PyPI" >&2
fetch "$SOURCE_URL" "$SOURCE_SHA256" "$WORK/sudachipy.tar.gz"
fetch "$DICT_URL" "$DICT_SHA256" "$WORK/dict.whl"
tar -xzf "$WORK/sudachipy.tar.gz" -C "$WORK"
SOURCES="$WORK/sudachipy-0.7.0"
python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract('sudachidict_core/resources/system.dic', sys.argv[2])" \
  "$WORK/dict.whl" "$WORK"

echo "sudachi: building the C interface over sudachi.rs 0.7.0" >&2
mkdir -p "$WORK/shim/src"
sed "s|@SUDACHI@|$SOURCES/sudachi|" tools/sudachi_shim/Cargo.toml.in > "$WORK/shim/Cargo.toml"
cp tools/sudachi_shim/src/lib.rs "$WORK/shim/src/lib.rs"
# The versions of sudachi.rs's own lock file.
cp "$SOURCES/Cargo.lock" "$WORK/shim/Cargo.lock"
cargo build --quiet --release --manifest-path "$WORK/shim/Cargo.toml" --target-dir "$WORK/target"

stage "$DEST"
mkdir "$STAGE/lib" "$STAGE/resources"
cp "$WORK/target/release/libwebtext_sudachi.so" "$STAGE/lib/"
cp "$SOURCES/python/py_src/sudachipy/resources/"* "$STAGE/resources/"
mv "$WORK/sudachidict_core/resources/system.dic" "$STAGE/system.dic"
publish "$DEST" resources system.dic lib
echo "export WEBTEXT_SUDACHI=$DEST"
