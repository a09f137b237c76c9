# Sourced by tools/install_kiwi.sh and tools/install_sudachi.sh: a private work folder and a
# staging folder removed on exit (an interrupted install leaves nothing behind), downloads checked
# against their SHA-256, and an install made visible only once complete.

WORK="$(mktemp -d)"
STAGE=""
trap 'rm -rf "$WORK" ${STAGE:+"$STAGE"}' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# fetch URL SHA256 FILE: downloads URL into FILE, or fails if its SHA-256 is not the one given.
fetch() {
  python3 - "$1" "$3" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=300) as r, open(sys.argv[2], "wb") as f:
    while chunk := r.read(1 << 20):
        f.write(chunk)
PY
  echo "$2  $3" | sha256sum --check --quiet
}

# stage DEST: STAGE, a private folder inside DEST (so the moves into place stay on one file system)
# to assemble the install in.
stage() {
  mkdir -p "$1"
  STAGE="$(mktemp -d "$1/.install.XXXXXX")"
}

# publish DEST NAME...: each NAME of STAGE replaces DEST's, in order; the caller names last what
# its check for a complete install looks at, so a half-published folder is never taken for whole.
publish() {
  local dest="$1" name
  shift
  for name in "$@"; do
    rm -rf "${dest:?}/$name"
    mv "$STAGE/$name" "$dest/$name"
  done
  rmdir "$STAGE"
  STAGE=""
}
