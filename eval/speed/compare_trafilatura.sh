#!/usr/bin/env bash
# Times Python trafilatura 2.3.1 (installed into a venv here on first use), the Rust crate
# rs-trafilatura 0.2.2 (from crates.io, built in a project of its own under the temporary folder:
# measured against, not a dependency) and our trafilatura on the same 300 pages of
# shared/eval/speed_sample.txt, decoded once as the trafilatura oracle decodes them and given to
# each as text; one core each (taskset -c 0), best of three, FineWeb's settings and the defaults;
# prints the ratios from this one run.
#
#     bash eval/speed/compare_trafilatura.sh [SHARED_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="${1:-../shared}"
PAGES="$(bash "$SHARED/eval/unpack.sh" "${TMPDIR:-/tmp}/webtext-eval" | tail -1)"
VENV="${TMPDIR:-/tmp}/webtext-trafilatura-venv"
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import trafilatura" 2> /dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q trafilatura==2.3.1 lxml==6.1.3 lxml_html_clean==0.4.6
fi
RS="${TMPDIR:-/tmp}/webtext-rs-trafilatura"
mkdir -p "$RS/src"
cat > "$RS/Cargo.toml" <<'TOML'
[package]
name = "rs_trafilatura_speed"
version = "0.1.0"
edition = "2021"
[dependencies]
rs-trafilatura = "=0.2.2"
[profile.release]
debug = false
TOML
cp eval/speed/rs_trafilatura/main.rs "$RS/src/main.rs"
cargo build --quiet --release --manifest-path "$RS/Cargo.toml"
cargo build --quiet --profile profiling --example speed_trafilatura
DUMP="$(mktemp "${TMPDIR:-/tmp}/webtext-speed-pages.XXXXXX")"
trap 'rm -f "$DUMP"' EXIT
SAMPLE="$SHARED/eval/speed_sample.txt"
ours="$(taskset -c 0 target/profiling/examples/speed_trafilatura "$SAMPLE" "$PAGES" --dump "$DUMP")"
theirs="$(taskset -c 0 "$VENV/bin/python" eval/speed/trafilatura_text_speed.py "$DUMP")"
rs="$(taskset -c 0 "$RS/target/release/rs_trafilatura_speed" "$DUMP")"
echo "$theirs"
echo "$rs"
echo "$ours"
# The pages/s of the line of `$1` whose label holds `$2`.
rate() { echo "$1" | awk -v label="$2" 'index($0, label) > 0 {for (i = 1; i < NF; i++) if ($(i+1) == "pages/s") print $i}'; }
for config in fineweb defaults; do
  awk -v c="$config" -v o="$(rate "$ours" "$config")" -v p="$(rate "$theirs" "$config")" \
    -v r="$(rate "$rs" "$( [ "$config" = fineweb ] && echo 'fineweb settings' || echo defaults)")" 'BEGIN {
    printf "%s: ours / Python trafilatura %.1fx (goal >= 30x), ours / rs-trafilatura %.1fx (goal >= 10x)\n", c, o / p, o / r }'
done
