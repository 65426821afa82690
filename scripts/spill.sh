#!/usr/bin/env bash
# Spill (issue 37): the scale runs of scripts/scale.sh with `--spill DIR`
# — the landmark hop counts and the ranking sources' BFS rows in unlinked
# files read back by pread instead of the heap — each under /usr/bin/time:
# wall clock, peak RSS, the plan, AUC and τ, ms per step and the stage
# times. Writes docs/spill.md; the runs stay in out/spill (a run whose files
# exist is not rerun). The rows without --spill to compare with are
# docs/scale.md's (the same graphs, no flag).
# Usage: [SPILL_DIR=/var/tmp/ignn-spill] scripts/spill.sh [GRAPH@MODEL[@MAXMEM[@FLAG,FLAG…]] …]
# (default: the list below; MAXMEM is a --max-memory, for a graph the
# default 75% of RAM refuses; FLAGs are more flags, e.g.
# --eval-every=5,--rank-fixed-sources)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=out/spill
BIN=bin/ignn
. scripts/common.sh
DOC=docs/spill.md
SPILL_DIR=${SPILL_DIR:-${TMPDIR:-/tmp}/ignn-spill}
go build -buildvcs=auto -o "$BIN" ./cmd/ignn
mkdir -p "$OUT"
jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(grid:1000x1000@gcn rgg:10000000:8@gcn grid:4472x4472@gcn)
for j in "${jobs[@]}"; do
  IFS=@ read -r g m mm flags <<< "$j"
  n=${g//:/-}
  extra=()
  [ -z "${mm:-}" ] || extra=(--max-memory "$mm")
  if [ -n "${flags:-}" ]; then
    IFS=, read -r -a more <<< "$flags"
    extra+=("${more[@]}")
  fi
  train_once "$n-$m" --dataset "$g" --model "$m" --spill "$SPILL_DIR" "${extra[@]}"
done
python3 - "$OUT" "$DOC" "$(git rev-parse --short HEAD)" "$(nproc)" "${jobs[@]}" <<'EOF'
import os, sys
sys.path.insert(0, "scripts")
from runrow import run_figures, stage_line
out, doc, commit, cores, jobs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
L = ["# Spilled runs: the hop counts on disk", "",
     f"Written by `scripts/spill.sh` (binary at {commit}) on {cores} cores, 24 GiB. Every row is",
     "`ignn train --dataset GRAPH --model M --spill DIR` (plus `--max-memory` where the default",
     "refuses the graph, and any other flag its command below shows): the large-graph defaults of",
     "[scale.md](scale.md), with the landmark hop counts the input's views read, the ranking",
     "sources' BFS rows, (from c6773b8 on) the evaluation embeddings and (from f5d30a2 on) the τ",
     "queries' rows in unlinked files read back by pread. Wall time and peak RSS are the",
     "whole command's (/usr/bin/time; GiB = 2³⁰ bytes);",
     "the plan is the run's own estimate before anything was built; a row run by another binary",
     "than the one above names it (NAME.bin beside its files).", "",
     "| graph | model | AUC | τ [95% CI] | wall | peak RSS | plan (÷ peak) | batch slots | ms/step | binary |",
     "|---|---|---|---|---|---|---|---|---|---|"]
stages, cmds = {}, []
for j in jobs:
    g, m = j.split("@")[:2]
    base = f"{out}/{g.replace(':', '-')}-{m}"
    if os.path.exists(base + ".refused"):
        L.append(f"| {g} | {m} | refused: {open(base + '.refused').read().strip().removeprefix('ignn: ')} | | | | | | | |")
        continue
    if not os.path.exists(base + ".json"):
        continue
    x = run_figures(base); r, ci, peak, plan = x["result"], x["ci"], x["peak"], x["plan"]
    L.append(f"| {g} | {m} | {x['auc']:.3f} | {x['tau']:.3f} [{ci[0]:.3f}, {ci[1]:.3f}] | "
             f"{x['wall']:.0f} s | {peak:.2f} GiB | {plan:.2f} GiB ({plan / peak:.2f}×) | "
             f"{x['slots']} | {x['step_ms']:.0f} | "
             f"{open(base + '.bin').read().strip() if os.path.exists(base + '.bin') else commit} |")
    stages[f"{g} {m}"] = stage_line(r)
    cmds.append("    " + open(base + ".cmd").read().strip())
L += ["", "## Stage times (seconds)", ""]
for k, st in stages.items():
    L += ["**" + k + "**: " + st, ""]
L += ["## Commands", ""] + cmds + [""]
open(doc, "w").write("\n".join(L))
print("wrote", doc, file=sys.stderr)
EOF
