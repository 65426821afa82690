#!/usr/bin/env bash
# Scale (issue 37): `ignn train --dataset GRAPH --model M` with NO other
# setting on grids of 10⁵, 10⁶ and 10⁷ nodes, GCN and GIN, each under
# /usr/bin/time: every stage's seconds (the run's stage log, also in the
# JSON's stage_seconds), wall clock and peak RSS of the whole command,
# the memory plan's estimate, the mini-batch node slots and ms per step,
# final test AUC and τ with its interval, and the raw landmark:64 input's
# own τ (the `(input)` row of `ignn compare --positions`). A run the memory
# plan refuses is recorded with the plan's message. Writes docs/scale.md;
# the runs stay in out/scale (a run whose files exist is not rerun).
# Usage: scripts/scale.sh [graph …]   (default: grid:316x316 grid:1000x1000 grid:3163x3163)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=out/scale
BIN=bin/ignn
. scripts/common.sh
DOC=docs/scale.md
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
mkdir -p "$OUT"
graphs=("$@")
[ ${#graphs[@]} -gt 0 ] || graphs=(grid:316x316 grid:1000x1000 grid:3163x3163)
one() { # name, then train flags
  local name=$1; shift
  [ -s "$OUT/$name.json" ] || [ -s "$OUT/$name.refused" ] && return 0
  echo "== $name: ignn train $*" >&2
  echo "ignn train $*" > "$OUT/$name.cmd"
  if /usr/bin/time -f "%e %M" -o "$OUT/$name.time" "$BIN" train "$@" --json > "$OUT/$name.json.tmp" 2> "$OUT/$name.log"; then
    mv "$OUT/$name.json.tmp" "$OUT/$name.json"
  elif grep -q "the run needs an estimated" "$OUT/$name.log"; then
    grep "the run needs an estimated" "$OUT/$name.log" > "$OUT/$name.refused"
    rm -f "$OUT/$name.json.tmp"
  else
    cat "$OUT/$name.log" >&2; exit 1
  fi
}
for g in "${graphs[@]}"; do
  n=${g//:/-}
  for m in gcn gin; do one "$n-$m" --dataset "$g" --model "$m"; done
  if [ -s "$OUT/$n-gcn.json" ]; then input_reference "$g" "$OUT/$n-input"; fi
done
python3 - "$OUT" "$DOC" "$(git rev-parse --short HEAD)" "$(nproc)" "${graphs[@]}" <<'EOF'
import json, os, re, sys
out, doc, commit, cores, graphs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
L = ["# Scale: 10⁵, 10⁶ and 10⁷ nodes on one machine", "",
     f"Written by `scripts/scale.sh` (binary at {commit}) on {cores} cores, 24 GiB. Every row is",
     "`ignn train --dataset GRAPH --model M` with no other flag: the defaults a user gets (the",
     "large-graph recipe: landmark:64 input with a constant feature, a gated skip path, the ranking",
     "term on pair triples, 10 epochs × 50 mini-batch steps of 512 positives). Wall time and peak RSS",
     "are the whole command's (/usr/bin/time; GB = 10⁹ bytes); the plan is the memory plan's estimate",
     "before anything is built. AUC and τ are the final epoch's (test link AUC; τ-b between hop",
     "distance and cosine over the run's fixed 2·10⁶-pair sample, with its 95% interval). `(input)`",
     "is the raw landmark:64 vector's own τ. A run the plan refuses shows the plan's message.", ""]
rows, stages = [], {}
for g in graphs:
    n = g.replace(":", "-")
    inp = f"{out}/{n}-input.json"
    itau = json.load(open(inp))["inputs"][0]["tau_mean"] if os.path.exists(inp) else None
    for m in ["gcn", "gin"]:
        base = f"{out}/{n}-{m}"
        if os.path.exists(base + ".refused"):
            rows.append(f"| {g} | {m} | refused: {open(base + '.refused').read().strip().removeprefix('ignn: ')} | | | | | | | |")
            continue
        if not os.path.exists(base + ".json"):
            continue
        r = json.load(open(base + ".json")); f = r["final"]
        wall, rss = open(base + ".time").read().split()
        ci = f.get("test_kendall_tau_ci") or [float("nan")] * 2
        slots = re.search(r"in (\d+) node slots", r.get("batches", ""))
        steps = r["config"].get("batch_steps", 0) or 1
        step_ms = r["ms_per_epoch"] / steps if r.get("ms_per_epoch") else float("nan")
        rows.append(f"| {g} | {m} | {f['test_auc']:.3f} | {f['test_kendall_tau']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}] | "
                    f"{'' if itau is None else f'{itau:.3f}'} | {float(wall):.0f} s | {int(rss)/1e6:.2f} GB | "
                    f"{r['memory_estimate_bytes']/1e9:.2f} GB ({r['memory_estimate_bytes']/(int(rss)*1e3):.2f}×) | "
                    f"{slots.group(1) if slots else ''} | {step_ms:.0f} |")
        stages[f"{g} {m}"] = r.get("stage_seconds") or []
L += ["| graph | model | AUC | τ [95% CI] | (input) τ | wall | peak RSS | plan (÷ peak) | batch slots | ms/step |",
      "|---|---|---|---|---|---|---|---|---|---|"] + rows + [""]
L += ["## Stage times (seconds)", ""]
for k, st in stages.items():
    L.append(f"**{k}**: " + "; ".join(f"{s['stage']} {s['seconds']:.1f}" for s in st))
    L.append("")
L += ["## Commands", ""]
for g in graphs:
    for m in ["gcn", "gin"]:
        c = f"{out}/{g.replace(':', '-')}-{m}.cmd"
        if os.path.exists(c):
            L.append("    " + open(c).read().strip())
L.append("")
open(doc, "w").write("\n".join(L))
print("wrote", doc, file=sys.stderr)
EOF
