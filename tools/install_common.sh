# Sourced by tools/install_kiwi.sh and tools/install_sudachi.sh: a private work folder removed on
# exit (an interrupted install leaves nothing behind), and downloads checked against their SHA-256.

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
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
