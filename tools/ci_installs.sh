#!/usr/bin/env bash
# What CI installs besides the crate's own build, one install per name, each a no-op when already
# there (outside the repository, under the temporary folder, so a machine keeps them between runs).
# .ci/run starts them all in the background at its beginning and waits for each before the step
# that needs it.
#
#     bash tools/ci_installs.sh NAME     (NAME: one of the cases below)
set -euo pipefail
cd "$(dirname "$0")/.."
T="${TMPDIR:-/tmp}"

# A venv at $1 with the packages that follow, made whole or not at all: the file `installed` in it
# records what it holds, and a venv without that record (an install stopped half-way) is remade.
venv() {
  local dest=$1
  shift
  if [ -f "$dest/installed" ] && [ "$(cat "$dest/installed")" = "$*" ]; then
    return
  fi
  rm -rf "$dest"
  python3 -m venv "$dest"
  "$dest/bin/pip" install -q "$@"
  echo "$*" > "$dest/installed"
}

# Debian packages, one apt-get for all (two at once would wait on each other's lock).
apt_install() {
  local missing=()
  command -v chromium > /dev/null || missing+=(chromium)
  command -v java > /dev/null || missing+=(openjdk-17-jre-headless)
  # libmagic, which webtext fineweb loads to sniff records without a payload type, as datatrove.
  ldconfig -p | grep -q 'libmagic\.so\.1 ' || missing+=(libmagic1)
  [ ${#missing[@]} -eq 0 ] && return
  local apt=(apt-get)
  [ "$(id -u)" = 0 ] || apt=(sudo apt-get)
  "${apt[@]}" install -y -q "${missing[@]}" || { "${apt[@]}" update -q && "${apt[@]}" install -y -q "${missing[@]}"; }
}

case "${1:-}" in
  # The documentation's renderer, from crates.io.
  mdbook)
    [ -x "$T/webtext-mdbook/bin/mdbook" ] \
      || cargo install --quiet --locked mdbook --version 0.4.52 --root "$T/webtext-mdbook"
    ;;
  # Kiwi 0.21 for Korean words, from kiwipiepy's sources and model on PyPI; one compiler at a time.
  kiwi) KIWI_JOBS=1 bash tools/install_kiwi.sh "$T/webtext-kiwi" ;;
  # Sudachi for Japanese words: sudachi.rs from SudachiPy's sources, its dictionary, from PyPI.
  sudachi) bash tools/install_sudachi.sh "$T/webtext-sudachi" ;;
  # Debian's chromium (the report's test), Java runtime (the PySpark recipe) and libmagic.
  apt) apt_install ;;
  # PyPI's moto: the S3 server of the object-store tests.
  moto) venv "$T/webtext-moto" "moto[server]==5.2.5" ;;
  # The Python package's test requirements and the recipes' engines.
  python)
    mapfile -t requirements < <(grep -v '^#' python/requirements-test.txt | grep .)
    venv "$T/webtext-python-venv" "${requirements[@]}"
    ;;
  # Python jusText 3.0.2 over lxml 6.1.3 (libxml2 2.14.6): the tree parity check.
  justext) venv "$T/webtext-justext-venv" justext==3.0.2 lxml==6.1.3 lxml_html_clean==0.4.6 ;;
  # fastText's binding and the tokenizers package: the model checks.
  models)
    venv "$T/webtext-models-venv" --only-binary :all: fasttext-wheel==0.9.2 tokenizers==0.23.1 'numpy<2' \
      pyarrow==20.0.0
    ;;
  # datatrove 0.10.1's URL block list, from its wheel on PyPI.
  block-list)
    dir="$T/webtext-datatrove-wheel"
    [ -f "$dir/url_filterblacklistsv0_3_0.tar.gz" ] && exit 0
    # A venv for its pip alone: the system's Python may have none.
    venv "$T/webtext-pip-venv" pip
    "$T/webtext-pip-venv/bin/pip" download -q datatrove==0.10.1 --no-deps -d "$dir"
    python3 - "$dir" <<'PY'
import os, sys, zipfile
folder = sys.argv[1]
with zipfile.ZipFile(os.path.join(folder, "datatrove-0.10.1-py3-none-any.whl")) as wheel:
    data = wheel.read("datatrove/assets/url_filterblacklistsv0_3_0.tar.gz")
# Whole or not at all: the file's presence is what skips this install next time.
partial = os.path.join(folder, "url_filterblacklistsv0_3_0.tar.gz.partial")
with open(partial, "wb") as out:
    out.write(data)
os.replace(partial, os.path.join(folder, "url_filterblacklistsv0_3_0.tar.gz"))
PY
    ;;
  *)
    echo "usage: tools/ci_installs.sh mdbook|kiwi|sudachi|apt|moto|python|justext|models|block-list" >&2
    exit 2
    ;;
esac
