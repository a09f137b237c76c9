#!/usr/bin/env bash
# Quality of our extractor (`extract_content`) on the six shared sets with
# shared/tools/score.py (wcxb F1, the BASELINES.md metric, and shub F1), beside trafilatura 2.3.1's
# wcxb F1 from shared/eval/BASELINES.md.
# Usage: eval/quality/extract_quality.sh [SHARED] [PROFILE] [extract_quality's options: --mass 2 ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARED="$(cd "${1:-../shared}" && pwd)"
PROFILE="${2:-release}"
shift 2 || true
OUT="${TMPDIR:-/tmp}/webtext-extract-outputs"
cargo run --quiet --profile "$PROFILE" --example extract_quality -- "$SHARED" "$OUT" "$@"
python3 - "$SHARED" "$OUT" <<'PY'
import json, subprocess, sys
shared, out = sys.argv[1], sys.argv[2]
trafilatura = {"cleaneval": 0.884, "cleanportaleval": 0.906, "dragnet": 0.820, "readability": 0.928,
               "scrapinghub": 0.948, "wcxb-test": 0.861}
print("| set | wcxb F1 | trafilatura | difference | shub F1 |")
print("|---|---:|---:|---:|---:|")
ours = []
for s, t in trafilatura.items():
    r = json.loads(subprocess.check_output(
        [sys.executable, f"{shared}/tools/score.py", f"{shared}/eval/{s}", f"{out}/{s}.jsonl", "--json"]))
    w = r["wcxb"]["f1"]
    ours.append(w)
    print(f"| {s} | {w:.3f} | {t:.3f} | {w - t:+.3f} | {r['shub']['f1']:.3f} |")
mean = sum(ours) / len(ours)
print(f"| mean | {mean:.3f} | 0.891 | {mean - 0.891:+.3f} | |")
PY
