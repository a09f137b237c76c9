#!/usr/bin/env python3
"""Left-one-set-out figures of extract_content (README, "Main content"): what was tuned on the
six shared sets is chosen again on five of them, and the sixth is scored.

1. The dropped names: each name of the candidate list below is dropped alone
   (`dropped_names=NAME`) and kept when it raises the mean wcxb F1 over the sets by more than
   0.00005 against dropping none.
2. With those names, the listing step's numbers: the configuration of GRID with the best mean.
3. With both, `widen_link_heavy_share`: the value of WIDEN with the best mean.

Each step runs examples/extract_quality over the sets (about 5 s a run, 152 runs). Prints what
is chosen on all six sets (the defaults of algorithms/src/extract came from this rule) and, per held-out
set, what was chosen on the five others and the held-out set's score beside trafilatura's.

    cargo build --release --example extract_quality
    python3 eval/quality/extract_loso.py [SHARED]     # EXTRACT_QUALITY=PATH: that build of the example
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared"))
sys.path.insert(0, os.path.join(SHARED, "tools"))
import score  # noqa: E402  (shared/tools/score.py: the metric itself)

# EXTRACT_QUALITY: another build of the example (a copy, so that a rebuild does not change a run).
EXAMPLE = os.environ.get("EXTRACT_QUALITY") or os.path.join(ROOT, "target", "release", "examples", "extract_quality")
SETS = ["cleaneval", "cleanportaleval", "dragnet", "readability", "scrapinghub", "wcxb-test"]
TRAFILATURA = [0.884, 0.906, 0.820, 0.928, 0.948, 0.861]  # shared/eval/BASELINES.md
# Common boilerplate names in templates: parts of a word, and (=) whole words.
CANDIDATES = (
    "comment sidebar footer masthead promo related sharing social sponsor widget banner "
    "breadcrumb newsletter subscri popup modal cookie gdpr advert disqus outbrain taboola "
    "recommend navigation navbar menu pagination pager =ad =ads =nav =tags =share =shares "
    "=aside =hidden =toolbar =tools =foot"
).split()
MIN_GAIN = 0.00005
GRID = [(b, t, 20) for b in (150, 250, 400) for t in (3, 5, 8)] + [(250, 5, 15), (250, 5, 25)]
WIDEN = ["none", 0.02, 0.05, 0.1, 0.2]

GOLD = {}
for s in SETS:
    gold_dir = os.path.join(SHARED, "eval", s, "gold")
    GOLD[s] = {
        n[:-4]: open(os.path.join(gold_dir, n), encoding="utf-8").read()
        for n in os.listdir(gold_dir)
        if n.endswith(".txt")
    }


def run(settings):
    """The wcxb F1 of each set with the options `settings` ({key: value})."""
    args = [a for k, v in settings.items() for a in ("--set", f"{k}={v}")]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([EXAMPLE, SHARED, out, *args], check=True, stderr=subprocess.DEVNULL)
        scores = []
        for s in SETS:
            with open(os.path.join(out, f"{s}.jsonl"), encoding="utf-8") as f:
                texts = {str(r["id"]): r["text"] for r in map(json.loads, filter(str.strip, f.read().split("\n")))}
            f1 = [score.wcxb_page(texts.get(i, ""), g)[2] for i, g in sorted(GOLD[s].items())]
            scores.append(sum(f1) / len(f1))
    return scores


def mean_over(scores, held_out):
    kept = [x for i, x in enumerate(scores) if i != held_out]
    return sum(kept) / len(kept)


def best_of(configurations, held_out):
    """The settings of `configurations` with the best mean over the sets but `held_out`, and
    their scores; the first of equals."""
    best = None
    for settings in configurations:
        scores = run(settings)
        if best is None or mean_over(scores, held_out) > mean_over(best[1], held_out):
            best = (settings, scores)
    return best


def main():
    if not os.access(EXAMPLE, os.X_OK):
        sys.exit("extract_loso: build it first: cargo build --release --example extract_quality")
    none = run({"dropped_names": ""})
    alone = {}
    for i, name in enumerate(CANDIDATES, 1):
        alone[name] = run({"dropped_names": name})
        print(f"[{i}/{len(CANDIDATES)}] {name:12s} " + " ".join(f"{x:.4f}" for x in alone[name]), file=sys.stderr)

    def names_for(held_out):
        return [n for n in CANDIDATES if mean_over(alone[n], held_out) - mean_over(none, held_out) > MIN_GAIN]

    def chosen_for(held_out):
        """The names, then the listing numbers, then the widening, chosen on the sets but `held_out`."""
        names = " ".join(names_for(held_out))
        listing, _ = best_of((
            {"dropped_names": names, "listing_below_chars": b, "listing_min_titles": t, "title_link_chars": c}
            for b, t, c in GRID
        ), held_out)
        return best_of(({**listing, "widen_link_heavy_share": w} for w in WIDEN), held_out)

    def row(label, chosen, score, baseline):
        grid = ", ".join(str(chosen[k]) for k in ("listing_below_chars", "listing_min_titles", "title_link_chars"))
        return (f"| {label} | {chosen['dropped_names']} | {grid} | {chosen['widen_link_heavy_share']} "
                f"| {score:.4f} | {baseline:.3f} | {score - baseline:+.4f} |")

    print("| held out | names chosen on the other sets | listing (below, titles, title chars) | widen | wcxb F1 | trafilatura | difference |")
    print("|---|---|---|---|---:|---:|---:|")
    chosen, scores = chosen_for(None)
    print(row("none (all six, their mean)", chosen, sum(scores) / 6, sum(TRAFILATURA) / 6))
    held = []
    for h, s in enumerate(SETS):
        chosen, scores = chosen_for(h)
        held.append(scores[h])
        print(row(s, chosen, scores[h], TRAFILATURA[h]))
    print(f"| mean | | | | {sum(held) / len(held):.4f} | {sum(TRAFILATURA) / 6:.3f} | |")


if __name__ == "__main__":
    main()
