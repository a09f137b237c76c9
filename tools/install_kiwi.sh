#!/usr/bin/env bash
# Installs what webtext's Korean words need (datatrove's KiwiTokenizer): Kiwi 0.21.0's C library,
# built from the Kiwi sources inside kiwipiepy 0.21.0's source distribution on PyPI, and
# kiwipiepy_model 0.21.0's model files. Both are the exact versions datatrove 0.10.1's FineWeb-2
# oracle ran; both archives are checked against their SHA-256.
#
#   bash tools/install_kiwi.sh [DEST]      (DEST: ${TMPDIR:-/tmp}/webtext-kiwi)
#
# then, in the environment of webtext (and of every cluster executor):
#
#   export WEBTEXT_KIWI_LIBRARY=DEST/lib/libkiwi.so WEBTEXT_KIWI_MODEL=DEST/model
#
# Needs a C++17 compiler and Python 3 (cmake and ninja come from PyPI into a private venv). Kiwi is
# LGPL-2.1: it is loaded at run time, never linked into webtext. The build takes about 11 minutes
# on 2 cores, and two of its files up to 6 GB of memory each: KIWI_JOBS (default: the number of
# cores) bounds the compilers run at once.
set -euo pipefail
TOOLS="$(cd "$(dirname "$0")" && pwd)"

DEST="${1:-${TMPDIR:-/tmp}/webtext-kiwi}"
SOURCE_URL=https://files.pythonhosted.org/packages/d0/a7/1ff70232329174e3ad902550b18ced789804b8e1d5adfb05eaffee828024/kiwipiepy-0.21.0.tar.gz
SOURCE_SHA256=f94b774987fb789ffaa157d49d1710cde2f1330882e8da4b1518a6929ef91089
MODEL_URL=https://files.pythonhosted.org/packages/06/1b/9bded3c32a52abd34cf4fe236afed4849ebbb2ab3e2b5b495d450e6be311/kiwipiepy_model-0.21.0.tar.gz
MODEL_SHA256=046fd96bfc1d7487fc8f0eebf0b8e7f24c5c41e1ff2fb4a72ae77e9f9ca2d459

print_exports() {
  echo "export WEBTEXT_KIWI_LIBRARY=$DEST/lib/libkiwi.so WEBTEXT_KIWI_MODEL=$DEST/model"
}

if [ -f "$DEST/lib/libkiwi.so" ] && [ -f "$DEST/model/sj.morph" ]; then
  print_exports
  exit 0
fi

# shellcheck source=tools/install_common.sh
. "$TOOLS/install_common.sh"

echo "kiwi: downloading kiwipiepy 0.21.0's sources and model from PyPI" >&2
fetch "$SOURCE_URL" "$SOURCE_SHA256" "$WORK/kiwipiepy.tar.gz"
fetch "$MODEL_URL" "$MODEL_SHA256" "$WORK/model.tar.gz"
tar -xzf "$WORK/kiwipiepy.tar.gz" -C "$WORK"
tar -xzf "$WORK/model.tar.gz" -C "$WORK"

echo "kiwi: cmake and ninja from PyPI" >&2
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q cmake==4.4.5 ninja==1.13.2

echo "kiwi: building libkiwi (Release, every x86-64 kernel Kiwi dispatches to at run time)" >&2
KIWI="$WORK/kiwipiepy-0.21.0/Kiwi"
"$WORK/venv/bin/cmake" -S "$KIWI" -B "$WORK/build" -G Ninja \
  -DCMAKE_MAKE_PROGRAM="$WORK/venv/bin/ninja" -DCMAKE_BUILD_TYPE=Release \
  -DKIWI_BUILD_CLI=OFF -DKIWI_BUILD_EVALUATOR=OFF -DKIWI_BUILD_MODEL_BUILDER=OFF \
  -DKIWI_BUILD_TEST=OFF -DCMAKE_POLICY_VERSION_MINIMUM=3.5 > "$WORK/cmake.log" 2>&1 \
  || { cat "$WORK/cmake.log" >&2; exit 1; }
"$WORK/venv/bin/ninja" -C "$WORK/build" -j "${KIWI_JOBS:-$(nproc)}" kiwi > "$WORK/build.log" 2>&1 \
  || { tail -50 "$WORK/build.log" >&2; exit 1; }

stage "$DEST"
mkdir "$STAGE/lib" "$STAGE/model"
cp -L "$WORK/build/libkiwi.so" "$STAGE/lib/libkiwi.so"
cp "$WORK/kiwipiepy_model-0.21.0/kiwipiepy_model/"*.{dict,mdl,knlm,morph,txt} "$STAGE/model/"
publish "$DEST" model lib
print_exports
