#!/usr/bin/env bash
# Distance faithfulness at 10⁵ and 10⁶ nodes (issue 25, goals 2–4): each run
# is `ignn train --dataset GRAPH --model M` with NO other setting, so what
# it measures is the defaults a user gets (--scale auto picks the
# large-graph ones from 50,000 nodes: landmark:64 input with a skip path,
# the ranking distance term, mini-batches). For each graph: GCN, SAGE and
# GIN both (the defaults; GCN and GIN at 10⁶), GCN base (10⁵), and the raw
# landmark:64 input's own AUC and τ (the `(input)` reference row of `ignn compare --positions`).
# Each run under /usr/bin/time: wall clock (setup, encoding, training and
# evaluation included) and peak RSS. Writes docs/faithful-large.md; the
# runs' JSON stays in out/faithful-large (a run whose JSON exists is not
# rerun: delete it to measure again).
# Usage: scripts/faithful-large.sh [graph …]   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=out/faithful-large
BIN=bin/ignn
. scripts/common.sh
DOC=docs/faithful-large.md
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
mkdir -p "$OUT"
graphs=("$@")
[ ${#graphs[@]} -gt 0 ] || graphs=(grid:316x316 caveman:5000x20 grid:1000x1000)
for g in "${graphs[@]}"; do
  n=${g//:/-}
  models="gcn sage gin"
  [ "$g" = grid:1000x1000 ] && models="gcn gin" # 6 min each: SAGE and base only at 10⁵
  for m in $models; do train_once "$n-$m-both" --dataset "$g" --model "$m"; done
  [ "$g" = grid:1000x1000 ] || train_once "$n-gcn-base" --dataset "$g" --model gcn --variant base
  input_reference "$g" "$OUT/$n-input"
done
python3 - "$OUT" "$DOC" "$(git rev-parse --short HEAD)" "$(nproc)" "${graphs[@]}" <<'EOF'
import json, os, sys
out, doc, commit, cores, graphs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
L = ["# Distance faithfulness on large graphs", "",
     f"Written by `scripts/faithful-large.sh` at {commit} on {cores} cores. Every row is",
     "`ignn train --dataset GRAPH --model M` with no other flag (the defaults a user gets; the",
     "`scale_note` of each run says what they chose), one seed. AUC and τ are the final epoch's",
     "(test link AUC; Kendall τ-b between hop distance and cosine over the run's fixed sample of",
     "pairs, with its 95% batch-means interval). Wall time is the whole command (setup, encoding,",
     "training, evaluation); RSS is its peak. `(input)` is the raw landmark:64 vector's own AUC and",
     "τ (no training): the goal is τ above it.", ""]
def skipblock(r):
    c, ch = r['config'], r.get('skip_choice')
    if ch:
        return f", {ch['block']} by --skip-polar auto (validation τ polar {ch['val_tau_polar']:.3f}, standardised {ch['val_tau_standardised']:.3f})"
    if c.get('skip_polar') in ('on', True):
        return ', polar'
    return ', standardised' if c.get('skip_standardise') else ''
for g in graphs:
    n = g.replace(":", "-")
    L += [f"## {g}", "", "| run | AUC | τ [95% CI] | wall | peak RSS | scheme |", "|---|---|---|---|---|---|"]
    for run in ["gcn-both", "sage-both", "gin-both", "gcn-base"]:
        p = f"{out}/{n}-{run}.json"
        if not os.path.exists(p):
            continue
        r = json.load(open(p)); f = r["final"]
        wall, rss = open(f"{out}/{n}-{run}.time").read().split()
        ci = f.get("test_kendall_tau_ci") or [float("nan")] * 2
        tau, auc = f.get("test_kendall_tau"), f.get("test_auc")
        taus = "undefined (collapsed)" if tau is None else f"{tau:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"
        aucs = "undefined" if auc is None else f"{auc:.3f}"
        L.append(f"| {run} | {aucs} | {taus} | {float(wall)/60:.1f} min | {int(rss)/1e6:.2f} GB | {r['config'].get('position', 'hash')}{', skip' if r['config'].get('position_skip') else ''}{' (gated' if r['config'].get('model_config', {}).get('SkipGate') else ''}{skipblock(r)}{')' if r['config'].get('model_config', {}).get('SkipGate') else ''}, {r['config'].get('distance_loss') or ('mse' if r['config']['lambda_mse'] else 'no distance term')}, batches {r['config'].get('batch_size', 0)}×{r['config'].get('batch_steps', 0)} × {r['config']['epochs']} epochs |")
    p = f"{out}/{n}-input.json"
    if os.path.exists(p):
        i = json.load(open(p))["inputs"][0]
        L.append(f"| (input) landmark:64 | {i['auc_mean']:.3f} | {i['tau_mean']:.3f} | | | untrained input |")
    L.append("")
    for run in ["gcn-both", "sage-both", "gin-both", "gcn-base"]:
        c = f"{out}/{n}-{run}.cmd"
        if os.path.exists(c):
            L.append("    " + open(c).read().strip())
    L.append("")
open(doc, "w").write("\n".join(L))
print("wrote", doc, file=sys.stderr)
EOF
