#!/usr/bin/env bash
# Builds the Python package's release wheel as a release would: abi3 (one wheel for CPython >= 3.10),
# manylinux_2_28 (glibc 2.28, through zig as the C/C++ compiler and linker, so the wheel does not
# depend on the building machine's newer glibc; fastText's C++ runtime linked in), in the `dist`
# profile (whole-program LTO, the planning crates optimised for size) and stripped; checks
# it against the policy with auditwheel, then installs it into a fresh venv whose PATH has no cargo
# or rustc and cleans the sample crawl with it (python/check_wheel.py).
#
#     bash python/build_wheel.sh [OUT_DIR]      (default: target/wheels)
#
# Prints the wheel's size and the build's time. Tools (maturin, ziglang, auditwheel) come from PyPI
# into a venv of their own, made on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="$(realpath -m "${1:-target/wheels}")"
TOOLS="${TMPDIR:-/tmp}/webtext-wheel-tools"
if [ ! -x "$TOOLS/bin/maturin" ]; then
  python3 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install -q "maturin==1.16.0" "ziglang==0.13.0.post1" "auditwheel==6.4.2"
fi
export PATH="$TOOLS/bin:$PATH"
mkdir -p "$OUT"
rm -f "$OUT"/datafusion_webtext-*.whl

start=$(date +%s)
(cd python && maturin build --profile dist --strip --zig --compatibility manylinux_2_28 \
  --out "$OUT")
end=$(date +%s)
wheel="$(ls "$OUT"/datafusion_webtext-*.whl)"
echo "built $(basename "$wheel") in $((end - start)) s: $(du -m "$wheel" | cut -f1) MB ($(stat -c %s "$wheel") bytes)"
auditwheel show "$wheel"

python3 python/check_wheel.py "$wheel"
